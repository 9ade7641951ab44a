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
 * The SDK validates tool output schemas with AJV on Node (150 KB minified); its own
 * @cfworker/json-schema validator does the same job in 40 KB. Our shim picks that one, and keeps
 * Node's answer to "can fetch fail for CORS" (no).
 */
export const mcpShims = {
  name: 'mcp-shims',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({ path: join(here, 'mcpShims.mjs') }));
  },
};
