// Runs test/exthost/suite.ts inside the extension host of real VS Code (code-server), against
// the packaged extension. code-server's web workbench takes the same development options as
// desktop VS Code through the `payload` query parameter: extensionDevelopmentPath (here, the
// installed copy of the .vsix, so the packaged code is what runs), extensionTestsPath and
// extensionEnvironment. A built workbench reads that payload only when the server runs with
// --enable-smoke-test-driver, which code-server passes through as --vscode-option.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildExthostSuite } from '../exthost/build.mjs';
import { cleanup, eventually, launchBrowser, makeSampleWorkspace, openWorkbench, startCodeServer } from './harness.mjs';

describe('extension-host tests in real VS Code', { timeout: 300_000 }, () => {
  let server;
  let browser;
  let workspace;
  let work;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'threadline-exthost-'));
    await buildExthostSuite(join(work, 'suite.js'));
    workspace = makeSampleWorkspace(mkdtempSync(join(tmpdir(), 'threadline-ws-')));
    // A built VS Code only honours the development payload with the smoke-test driver on.
    server = await startCodeServer({ workspace, vscodeOptions: ['enable-smoke-test-driver'] });
    browser = await launchBrowser(server.tools);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (server) cleanup(server.dirs.base);
    if (workspace) cleanup(workspace);
    if (work) cleanup(work);
  });

  it('passes every case of the suite', async () => {
    const installed = readdirSync(server.dirs.extensions).find((d) => d.startsWith('threadline.threadline-'));
    assert.ok(installed, 'the vsix is installed');
    const results = join(work, 'results.json');
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(join(server.dirs.extensions, installed))],
      ['extensionTestsPath', remote(join(work, 'suite.js'))],
      ['extensionEnvironment', JSON.stringify({ THREADLINE_EXTHOST_RESULTS: results })],
    ];
    const url = `${server.url}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await openWorkbench(browser, url);
    await eventually(() => existsSync(results), Boolean, { timeout: 120_000, what: 'the extension-host suite to write its results' });
    const { outcomes } = JSON.parse(readFileSync(results, 'utf8'));
    for (const o of outcomes) console.log(`  ${o.ok ? '✔' : '✖'} [exthost] ${o.name}${o.ok ? '' : `\n${o.error}`}`);
    assert.ok(outcomes.length >= 7, `the suite ran its cases (${outcomes.length})`);
    assert.deepEqual(outcomes.filter((o) => !o.ok).map((o) => o.name), []);
  });
});
