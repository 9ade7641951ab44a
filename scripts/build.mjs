// Builds the three bundles: the extension host, the headless CLI, and the webview.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpChunk, mcpShims } from './mcpChunk.mjs';
import { zodWithoutLocales } from './zodWithoutLocales.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const node = {
  bundle: true,
  plugins: [zodWithoutLocales, mcpChunk],
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  // The SDK and our deps are bundled; only the editor API is provided at run time.
  external: ['vscode'],
  define: { __THREADLINE_VERSION__: JSON.stringify(version) },
  // The MCP connection layer is loaded with require() from its own file (mcpChunk.mjs).
  supported: { 'dynamic-import': false },
  // web-tree-sitter's and fdir's ESM builds read import.meta.url, which a CommonJS bundle does not
  // have: take their CommonJS builds.
  alias: {
    'web-tree-sitter': join(root, 'node_modules/web-tree-sitter/web-tree-sitter.cjs'),
    fdir: join(root, 'node_modules/fdir/dist/index.cjs'),
    // jsonc-parser's main build is UMD, whose require('./impl/…') calls esbuild cannot follow.
    'jsonc-parser': join(root, 'node_modules/jsonc-parser/lib/esm/main.js'),
    'graceful-fs': join(root, 'scripts/shims/gracefulFs.mjs'),
  },
};

const configs = [
  { ...node, entryPoints: [join(root, 'src/extension.ts')], outfile: join(root, 'dist/extension.js') },
  {
    ...node,
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: join(root, 'dist/cli.js'),
    banner: { js: '#!/usr/bin/env node' },
  },
  // The MCP SDK and our connection layer, shared by both bundles above and loaded on first use.
  { ...node, plugins: [zodWithoutLocales, mcpShims], entryPoints: [join(root, 'src/mcp/sdk/index.ts')], outfile: join(root, 'dist/mcp.js') },
  {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    jsx: 'automatic',
    sourcemap: production ? false : 'linked',
    minify: production,
    logLevel: 'warning',
    entryPoints: { main: join(root, 'webview-ui/src/main.tsx') },
    outdir: join(root, 'dist/webview'),
    loader: { '.ttf': 'file' },
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  },
];

rmSync(join(root, 'dist'), { recursive: true, force: true, maxRetries: 3 });
mkdirSync(join(root, 'dist/webview'), { recursive: true });
// The shell parser (tree-sitter runtime and Bash grammar) is loaded from dist/wasm/ by both bundles.
mkdirSync(join(root, 'dist/wasm'), { recursive: true });
for (const [pkg, file] of [['web-tree-sitter', 'web-tree-sitter.wasm'], ['tree-sitter-bash', 'tree-sitter-bash.wasm']]) {
  cpSync(join(root, 'node_modules', pkg, file), join(root, 'dist/wasm', file));
}
// Codicons are loaded by the webview as a stylesheet with its font beside it.
for (const file of ['codicon.css', 'codicon.ttf']) {
  cpSync(join(root, 'node_modules/@vscode/codicons/dist', file), join(root, 'dist/webview', file));
}

if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching…');
} else {
  const results = await Promise.all(configs.map((c) => esbuild.build({ ...c, metafile: true })));
  for (const r of results) {
    for (const [file, info] of Object.entries(r.metafile.outputs)) {
      if (!file.endsWith('.map')) console.log(`${file.replace(`${root}/`, '')}  ${(info.bytes / 1024).toFixed(1)} KiB`);
    }
  }
}
