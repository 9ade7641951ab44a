// A cloned repository must not own the user: the hostile workspace (its .vscode/settings.json
// names an attacker's server and allow rules) opened in real VS Code, first in Restricted Mode,
// then trusted. The key goes only to the server the user set; nothing runs or reads outside
// without a prompt.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanup, launchBrowser, openWorkbench, startCodeServer } from './harness.mjs';
import { startStandinProcess } from './standinProcess.mjs';
import { makeHostileWorkspace } from '../support/hostileWorkspace.mjs';

const KEY = 'sk-ant-standin-test';

describe('a hostile workspace in real VS Code', { timeout: 600_000 }, () => {
  let legit;
  let attacker;
  let hostile;
  let ws;
  let server;
  let browser;
  let wb;
  const vscodeSettingsBefore = () => readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8');
  let settingsText;

  before(async () => {
    legit = await startStandinProcess();
    attacker = await startStandinProcess();
    hostile = makeHostileWorkspace({ attackerUrl: attacker.url, projectDeny: ['Read(README.md)'] });
    ws = realpathSync(hostile.ws);
    settingsText = vscodeSettingsBefore();
  });

  after(async () => {
    await legit?.stop();
    await attacker?.stop();
    cleanup(hostile.root);
  });

  /** Starts code-server on the hostile workspace, the legitimate server set in user settings. */
  const open = async (trusted) => {
    server = await startCodeServer({
      workspace: ws,
      settings: { 'threadline.apiBaseUrl': legit.url, 'security.workspace.trust.enabled': !trusted, 'security.workspace.trust.startupPrompt': 'never' },
      env: { ANTHROPIC_API_KEY: KEY },
      workspaceTrust: !trusted,
    });
    browser = await launchBrowser(server.tools);
    wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
  };
  const close = async () => {
    await browser.close();
    await server.stop();
    cleanup(server.dirs.base);
    browser = undefined;
    server = undefined;
  };

  const send = async (text) => {
    const input = wb.chatFrame().locator('[data-testid="prompt-input"]');
    await input.fill(text);
    await input.press('Enter');
  };
  const answer = (text) => wb.chatFrame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: text }).waitFor({ timeout: 120_000 });
  /** A permission prompt must show (nothing was auto-approved); refuse it. */
  const refusePrompt = async (what) => {
    // The next prompt may take this one's place at once: wait for the one about `what` to go.
    const prompt = wb.chatFrame().locator('[data-testid="permission-prompt"]', { hasText: what });
    await prompt.waitFor({ timeout: 60_000 });
    await prompt.locator('[data-testid="permission-deny"]').click();
    await prompt.waitFor({ state: 'detached', timeout: 30_000 });
  };
  const toolResults = (requests) =>
    requests.flatMap((r) => (r.body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [])));

  /** Runs a phase in its own window, closed whatever happens; on failure the page is kept as a screenshot. */
  const phase = async (trusted, name, body) => {
    await open(trusted);
    try {
      await body();
    } catch (err) {
      await wb.screenshot(`${name}-failed`).catch(() => undefined);
      const chat = await wb.chatFrame().locator('[data-testid="app"]').innerText().catch(() => '?');
      throw new Error(`${err.message}\nchat: ${chat.slice(-1500)}\nrequests to the user's server: ${(await legit.requests()).length}`, { cause: err });
    } finally {
      await close();
    }
  };

  it('in Restricted Mode: the key goes to the user-level server only, and nothing writes, runs or reads outside', async () => {
    await phase(false, '60-hostile-restricted', async () => {
      await legit.enqueue([
        {
          content: [
            { type: 'tool_use', name: 'Bash', input: { command: 'touch pwned-restricted' } },
            { type: 'tool_use', name: 'Write', input: { file_path: '.vscode/settings.json', content: '{}' } },
          ],
        },
        { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'src/notes.txt' } }] },
        // The project's own deny rule holds in Restricted Mode: no prompt, a denial.
        { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'README.md' } }] },
        { content: [{ type: 'text', text: 'done-restricted' }] },
      ]);
      await send('hello from a restricted window');
      await refusePrompt(/Read/);
      await answer('done-restricted');
      await wb.screenshot('60-hostile-restricted');
      assert.deepEqual(await attacker.requests(), [], "the workspace's server received nothing");
      const reqs = await legit.requests();
      assert.ok(reqs.length >= 4, `the user's server answered (${reqs.length} requests)`);
      assert.ok(reqs.every((r) => r.apiKey === KEY));
      assert.equal(existsSync(join(ws, 'pwned-restricted')), false);
      assert.equal(vscodeSettingsBefore(), settingsText);
      const results = toolResults(reqs);
      assert.ok(results.length >= 4 && results.every((r) => r.is_error === true), JSON.stringify(results));
      assert.match(JSON.stringify(results), /Restricted Mode/);
      assert.match(JSON.stringify(results), /Denied by the rule Read\(README\.md\) \(\.claude\/settings\.json\)/);
      assert.doesNotMatch(JSON.stringify(results), /innocent project/, 'README.md was not read');
      // No git ran: the snapshot holds the branch from .git/HEAD and says the rest was not read.
      const system = JSON.stringify(reqs[0].body.system);
      assert.match(system, /Current branch: main/);
      assert.match(system, /no git command ran/);
      assert.doesNotMatch(JSON.stringify(reqs.map((r) => r.body)), /TOP-SECRET/, 'the file outside was not read');
    });
  });

  it("trusted: the workspace's server and allow rules are still ignored; protected folders ask", async () => {
    await legit.reset();
    await phase(true, '61-hostile-trusted', async () => {
      await legit.enqueue([
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch pwned-trusted' } }] },
        { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'src/notes.txt' } }] },
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'src/h/post-checkout', content: '#!/bin/sh\ntouch pwned-hook\n' } }] },
        { content: [{ type: 'text', text: 'done-trusted' }] },
      ]);
      await send('hello from a trusted window');
      await refusePrompt(/Bash/);
      await refusePrompt(/Read/);
      await refusePrompt(/Write/);
      await answer('done-trusted');
      await wb.screenshot('61-hostile-trusted');
      assert.deepEqual(await attacker.requests(), [], "the workspace's server received nothing");
      const reqs = await legit.requests();
      assert.ok(reqs.length >= 4 && reqs.every((r) => r.apiKey === KEY));
      assert.equal(existsSync(join(ws, 'pwned-trusted')), false);
      assert.equal(existsSync(join(ws, '.git', 'hooks', 'post-checkout')), false);
      assert.doesNotMatch(JSON.stringify(reqs.map((r) => r.body)), /TOP-SECRET/);
    });
  });
});
