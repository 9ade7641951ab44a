// End-to-end tests: the packaged .vsix in real VS Code (code-server) driven through Chromium.
// Installs its toolchain on first use (see e2eSetup.mjs), then runs test/e2e/*.test.mjs one
// file at a time (each starts its own editor; two at once would only add noise).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cleanEnv } from './childEnv.mjs';
import { ensureE2eToolchain } from './e2eSetup.mjs';

const root = resolve(import.meta.dirname, '..');
const vsix = join(root, 'dist', 'threadline.vsix');
if (!existsSync(vsix)) {
  console.error('dist/threadline.vsix is missing: run `npm run package` first (npm test does it for you).');
  process.exit(1);
}
let tools;
try {
  tools = await ensureE2eToolchain();
} catch (err) {
  console.error(`\n[setup] ${err.message}`);
  process.exit(1);
}
const only = process.argv.slice(2);
const dir = join(root, 'test', 'e2e');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()
  .map((f) => join(dir, f));
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], { stdio: 'inherit', cwd: root, env: cleanEnv({ THREADLINE_E2E_TOOLS: JSON.stringify(tools) }) });
process.exit(r.status ?? 1);
