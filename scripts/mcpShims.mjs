// Stands in for @modelcontextprotocol/client/_shims in dist/mcp.js (see mcpChunk.mjs). The
// connection layer gives every Client its own validator (src/mcp/sdk/schemaValidator.ts: Ajv with
// RE2 for a server's patterns), so the default is that same Ajv build: one validator in the bundle.
export { AjvJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
export const CORS_IS_POSSIBLE = false;
