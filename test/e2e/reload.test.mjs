// The open session after Reload Window: the conversation comes back; a new session's empty state
// offers the earlier one to resume in one click. (The composer's draft is kept in the webview's own
// state, which code-server does not save on a browser reload: not checked here.) Real code-server, real
// Chromium, the real SDK against the stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openWorkbench, startEnvironment } from './harness.mjs';

describe('the open session across Reload Window', { timeout: 600_000 }, () => {
  let env;
  let wb;

  before(async () => {
    env = await startEnvironment();
    wb = await openWorkbench(env.browser, env.server.url);
    await wb.openThreadline();
  });
  after(() => env?.close());

  const frame = () => wb.chatFrame();
  // After a reload the sidebar may already show the panel, or bring it back a moment later.
  const showPanel = () => wb.showThreadline();

  it('brings back the conversation, and the empty state resumes it in one click', async () => {
    await env.standin.enqueue([{ content: [{ type: 'text', text: 'Noted for later.' }] }]);
    const input = frame().locator('[data-testid="prompt-input"]');
    await input.fill('remember the reload');
    await input.press('Enter');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Noted for later.' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('50-before-reload');
    await wb.page.reload();
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await showPanel();
    await frame().locator('[data-testid="message"][data-kind="user"]', { hasText: 'remember the reload' }).waitFor({ timeout: 60_000 });
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Noted for later.' }).waitFor();
    await wb.screenshot('51-after-reload');
    await wb.runCommand('Threadline: New Session');
    const recent = frame().locator('[data-testid="recent-session"]', { hasText: 'remember the reload' });
    await recent.waitFor({ timeout: 30_000 });
    await wb.screenshot('52-empty-state-recent');
    await recent.click();
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Noted for later.' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame().locator('[data-testid="message"][data-kind="user"]').count(), 1);
  });
});
