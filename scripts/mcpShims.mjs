// Stands in for @modelcontextprotocol/client/_shims in dist/mcp.js (see mcpChunk.mjs).
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
export const CORS_IS_POSSIBLE = false;
