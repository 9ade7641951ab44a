// esbuild plugins for the MCP connection layer (src/mcp/sdk/), which goes into a bundle of its
// own, dist/mcp.js: the SDK is about a third of the host bundle's size, and a session with no
// MCP server never loads it (activation stays as fast as without it).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** In the host and CLI bundles, `import('./sdk/index')` of src/mcp/sdkLoader.ts becomes require('./mcp.js'), beside the bundle. */
export const mcpChunk = {
  name: 'mcp-chunk',
  setup(build) {
    build.onResolve({ filter: /^\.\/sdk\/index$/ }, (args) => (/[\\/]src[\\/]mcp[\\/]sdkLoader\.ts$/.test(args.importer) ? { path: './mcp.js', external: true } : undefined));
  },
};

/**
 * The SDK's shims module picks a JSON Schema validator by platform. The connection layer brings its
 * own (Ajv, with RE2 for the patterns a server writes), and the shim makes that Ajv build the
 * default too, so the bundle does not carry a second validator.
 */
export const mcpShims = {
  name: 'mcp-shims',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({ path: join(here, 'mcpShims.mjs') }));
  },
};
