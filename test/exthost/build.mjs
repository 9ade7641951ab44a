// Bundles the extension-host suite for either runner (code-server's host or desktop VS Code).
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');

export async function buildExthostSuite(outfile) {
  await build({
    entryPoints: [join(root, 'test', 'exthost', 'suite.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
