// `npm run test:desktop`: the extension-host suite in desktop VS Code through
// @vscode/test-electron, for machines that can download VS Code. (This one cannot — the
// code-server run in `npm test` covers the same suite there.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildExthostSuite } from '../exthost/build.mjs';
import { runTests } from '@vscode/test-electron';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'threadline-desktop-'));
await buildExthostSuite(join(work, 'suite.js'));
try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: join(work, 'suite.js'),
    launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(work, 'user-data')],
    extensionTestsEnv: { THREADLINE_EXTHOST_RESULTS: join(work, 'results.json') },
  });
  console.log('desktop extension-host suite passed');
} catch (err) {
  const msg = err instanceof Error ? err.message : String(err);
  if (/download|ENOTFOUND|ECONNREFUSED|getaddrinfo|fetch failed|update\.code\.visualstudio\.com/i.test(msg)) {
    console.error(`Could not download desktop VS Code (${msg}).\nThis machine cannot reach update.code.visualstudio.com; \`npm test\` runs the same suite in code-server instead.`);
  } else {
    console.error(`The desktop extension-host suite failed: ${msg}`);
  }
  process.exit(1);
}
