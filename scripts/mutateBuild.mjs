// Stryker's buildCommand (scripts/mutate.mjs): run inside Stryker's sandbox after it has written
// the instrumented sources, it turns every .ts under src/ and test/ into a CommonJS .js file beside
// it. Each mutant then runs its test files as plain JavaScript: no TypeScript loader per process,
// and none of tsx's per-call overhead inside the tests (agent.test.ts takes about a third of the
// CPU time as .js that it takes through tsx).
//
// File by file, not bundled, so each test and helper keeps its folder (fixtures and child scripts
// are found from import.meta.dirname) and extensionless imports resolve to the .js beside the .ts.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : find(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const entryPoints = ['src', 'test'].flatMap((d) => find(join(root, d)));
const started = Date.now();
await build({
  entryPoints,
  outdir: root,
  outbase: root,
  bundle: false,
  platform: 'node',
  target: 'node20',
  // The package has no "type": "module", so tsx loads these files as CommonJS too.
  format: 'cjs',
  logLevel: 'warning',
  // `await import('../x')` must find x.js as require does (ESM resolution wants the extension).
  supported: { 'dynamic-import': false },
  // CommonJS has no import.meta: give the tests and helpers that read it what tsx gives them.
  banner: { js: 'const __threadlineImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename', 'import.meta.url': '__threadlineImportMetaUrl' },
});
console.log(`mutateBuild: ${entryPoints.length} files to JavaScript in ${Date.now() - started} ms`);
