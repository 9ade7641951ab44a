import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
const bundles = new Map<string, Promise<string>>();

/**
 * A TypeScript entry point as one plain JavaScript file, the way `npm run build` makes
 * dist/cli.js: tests that start it many times as a real process pay Node's start-up only, not
 * a TypeScript loader's.
 */
export function bundle(entry: string): Promise<string> {
  let out = bundles.get(entry);
  if (!out) {
    out = (async () => {
      const outfile = join(mkdtempSync(join(tmpdir(), 'tl-bundle-')), `${basename(entry).replace(/\.\w+$/, '')}.cjs`);
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
      await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        external: ['vscode'],
        // Smaller to parse: the tests start it a hundred times.
        minify: true,
        logLevel: 'warning',
        define: { __THREADLINE_VERSION__: JSON.stringify(version) },
        // As in scripts/build.mjs: these packages' ESM builds read import.meta.url, which a CommonJS bundle lacks.
        alias: { 'web-tree-sitter': join(root, 'node_modules/web-tree-sitter/web-tree-sitter.cjs'), fdir: join(root, 'node_modules/fdir/dist/index.cjs'), 'jsonc-parser': join(root, 'node_modules/jsonc-parser/lib/esm/main.js') },
      });
      // The shell parser loads its wasm from beside the bundle, as scripts/build.mjs lays out dist/.
      mkdirSync(join(dirname(outfile), 'wasm'));
      for (const [pkg, file] of [['web-tree-sitter', 'web-tree-sitter.wasm'], ['tree-sitter-bash', 'tree-sitter-bash.wasm']] as const) {
        cpSync(join(root, 'node_modules', pkg, file), join(dirname(outfile), 'wasm', file));
      }
      return outfile;
    })();
    bundles.set(entry, out);
  }
  return out;
}

/** The headless CLI from the current sources. */
export function cliBundle(): Promise<string> {
  return bundle(join(root, 'src/cli/main.ts'));
}
