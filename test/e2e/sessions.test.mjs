// Sessions survive the editor: chat, restart code-server, resume, see the history, continue.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanup, eventually, launchBrowser, makeSampleWorkspace, openWorkbench, startCodeServer } from './harness.mjs';
import { startStandinProcess } from './standinProcess.mjs';

function sessionIndex(userData) {
  const root = join(userData, 'User', 'globalStorage', 'threadline.threadline', 'sessions');
  if (!existsSync(root)) return [];
  for (const key of readdirSync(root)) {
    const f = join(root, key, 'index.json');
    if (existsSync(f)) return JSON.parse(readFileSync(f, 'utf8'));
  }
  return [];
}

describe('sessions across an editor restart', { timeout: 300_000 }, () => {
  let standin;
  let server;
  let browser;
  let workspace;
  const settings = () => ({ 'threadline.apiBaseUrl': standin.url });
  const env = { ANTHROPIC_API_KEY: 'sk-ant-standin-test' };

  before(async () => {
    standin = await startStandinProcess();
    workspace = makeSampleWorkspace(mkdtempSync(join(tmpdir(), 'threadline-ws-')));
    server = await startCodeServer({ workspace, settings: settings(), env });
    browser = await launchBrowser(server.tools);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await standin?.stop();
    if (server) cleanup(server.dirs.base);
    if (workspace) cleanup(workspace);
  });

  it('resumes a session after restarting code-server and continues it', async () => {
    let wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
    await standin.enqueue([{ content: [{ type: 'text', text: 'Noted. The codeword is heron.' }] }]);
    const input = () => wb.chatFrame().locator('[data-testid="prompt-input"]');
    await input().fill('Remember the codeword heron');
    await input().press('Enter');
    await wb.chatFrame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The codeword is heron.' }).waitFor();
    // Saved to workspace storage (the index is written shortly after the answer).
    await eventually(() => sessionIndex(server.dirs.userData), (list) => list.some((s) => s.title === 'Remember the codeword heron'), { what: 'the session index on disk' });
    await wb.context.close();

    await server.stop();
    server = await startCodeServer({ workspace, dirs: server.dirs, settings: settings(), env });
    wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
    // The conversation that was open comes back by itself after the restart.
    await wb.chatFrame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The codeword is heron.' }).waitFor();
    await wb.screenshot('21-session-back-after-restart');

    await wb.runCommand('Threadline: Resume Session');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Remember the codeword heron' }).or(wb.toasts().first()).first().waitFor();
    const toastNow = await wb.toasts().allInnerTexts();
    assert.deepEqual(toastNow, [], 'no notification instead of the picker');
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Remember the codeword heron' });
    await row.waitFor().catch(async (e) => {
      await wb.screenshot('20-resume-picker-failed');
      const toasts = await wb.page.locator('.notifications-toasts').innerText().catch(() => '');
      const logs = [];
      const walk = (d) => {
        for (const n of readdirSync(d, { withFileTypes: true })) {
          const p = join(d, n.name);
          if (n.isDirectory()) walk(p);
          else if (/Threadline\.log$|index\.json$|\.jsonl$/.test(n.name)) logs.push(`${p}:\n${readFileSync(p, 'utf8').slice(-1500)}`);
        }
      };
      walk(server.dirs.userData);
      throw new Error(`${e.message}\ntoasts: ${toasts}\n${logs.join('\n')}`);
    });
    await wb.screenshot('20-resume-picker');
    await row.click();
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Remember the codeword heron' }).waitFor();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The codeword is heron.' }).waitFor();
    await wb.screenshot('21-resumed');

    await standin.enqueue([{ content: [{ type: 'text', text: 'It was heron.' }] }]);
    await input().fill('What was the codeword?');
    await input().press('Enter');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'It was heron.' }).waitFor();
    const sent = JSON.stringify((await standin.requests()).at(-1).body.messages);
    assert.match(sent, /Remember the codeword heron/);
    assert.match(sent, /Noted\. The codeword is heron\./);
    assert.equal(await frame.locator('[data-testid="message"][data-kind="user"]').count(), 2);
  });

  it('opens a Claude Code transcript of this folder as a new Threadline session', async () => {
    // A transcript where the Claude Code CLI keeps it for this folder, in its format.
    const dir = join(server.dirs.home, '.claude', 'projects', workspace.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    const line = (o) => JSON.stringify({ sessionId: 'cc1', cwd: workspace, isSidechain: false, ...o });
    writeFileSync(
      join(dir, 'cc1.jsonl'),
      [
        line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Rename greet to welcome' } }),
        line({ type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed greet to welcome in src/greet.js.' }] } }),
      ].join('\n') + '\n',
    );
    const wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
    await wb.runCommand('Threadline: Resume Session');
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Rename greet to welcome' });
    await row.waitFor();
    await row.click();
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Renamed greet to welcome' }).waitFor();
    await frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: 'transcript is unchanged' }).waitFor();
    await standin.enqueue([{ content: [{ type: 'text', text: 'Yes, it was greet before.' }] }]);
    const input = frame.locator('[data-testid="prompt-input"]');
    await input.fill('What was the old name?');
    await input.press('Enter');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Yes, it was greet before.' }).waitFor();
    assert.match(JSON.stringify((await standin.requests()).at(-1).body.messages), /Rename greet to welcome/);
    await wb.screenshot('22-claude-code-session');
  });

  it('lists sessions in the panel, renames, exports and deletes with Undo', async () => {
    const wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="history-button"]').click();
    const rows = frame.locator('[data-testid="history-row"]');
    await eventually(() => rows.count(), (n) => n >= 2, { what: 'two saved sessions in the panel' });
    await wb.screenshot('23-history');
    // Search narrows the list.
    await frame.locator('[data-testid="history-search"]').fill('codeword');
    await eventually(() => rows.count(), (n) => n === 1, { what: 'the search to leave one session' });
    const row = rows.first();
    await row.locator('[data-testid="history-rename"]').click();
    const box = wb.page.locator('.quick-input-widget input');
    await box.waitFor();
    await box.fill('Heron codeword session');
    await box.press('Enter');
    await frame.locator('[data-testid="history-search"]').fill('');
    await frame.locator('[data-testid="history-row"]', { hasText: 'Heron codeword session' }).waitFor();
    // Export opens the conversation as Markdown.
    await frame.locator('[data-testid="history-row"]', { hasText: 'Heron codeword session' }).locator('[data-testid="history-export"]').click();
    await wb.page.locator('.view-lines', { hasText: 'Heron codeword session' }).first().waitFor();
    // Delete the session that is not open, then Undo (the panel stays open beside the editor).
    const target = frame.locator('[data-testid="history-row"]', { hasText: 'Heron codeword session' });
    const before = await rows.count();
    await target.locator('[data-testid="history-delete"]').click();
    await eventually(() => rows.count(), (n) => n === before - 1, { what: 'the deleted session to leave the list' });
    const toast = wb.toasts().filter({ hasText: 'deleted' }).first();
    await toast.waitFor();
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Undo' }).first().click();
    await eventually(() => rows.count(), (n) => n === before, { what: 'Undo to bring the session back' });
  });
});
