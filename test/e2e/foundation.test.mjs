// The foundation, as a user meets it in real VS Code: the packaged extension in code-server,
// driven through Chromium.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanup, eventually, launchBrowser, makeSampleWorkspace, openWorkbench, startCodeServer } from './harness.mjs';

describe('foundation in real VS Code', { timeout: 300_000 }, () => {
  let server;
  let browser;
  let wb;
  let workspace;

  before(async () => {
    workspace = makeSampleWorkspace(mkdtempSync(join(tmpdir(), 'threadline-ws-')));
    server = await startCodeServer({ workspace });
    browser = await launchBrowser(server.tools);
    wb = await openWorkbench(browser, server.url);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (server) cleanup(server.dirs.base);
    if (workspace) cleanup(workspace);
  });

  it('opens the Threadline view and shows what to do first', async () => {
    await wb.openThreadline();
    const frame = wb.chatFrame();
    const empty = frame.locator('[data-testid="empty-state"]');
    await empty.waitFor();
    assert.match(await empty.innerText(), /Set an API key first/);
    await wb.screenshot('01-empty-state');
  });

  it('sends a message and shows it in the list, with a clear prompt for the missing key', async () => {
    const frame = wb.chatFrame();
    const input = frame.locator('[data-testid="prompt-input"]');
    await input.fill('Hello from the end-to-end test');
    await input.press('Enter');
    const userMsg = frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Hello from the end-to-end test' });
    await userMsg.waitFor();
    const notice = frame.locator('[data-testid="message"][data-kind="notice"]').last();
    await notice.waitFor();
    assert.match(await notice.innerText(), /API key/i);
    assert.equal(await input.inputValue(), '', 'the input clears after sending');
    await wb.screenshot('02-message-sent');
  });

  it('Shift+Enter makes a new line instead of sending', async () => {
    const frame = wb.chatFrame();
    const input = frame.locator('[data-testid="prompt-input"]');
    await input.fill('line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    assert.equal(await input.inputValue(), 'line one\nline two');
    assert.equal(await frame.locator('[data-testid="message"][data-kind="user"]').count(), 1);
    await input.fill('');
  });

  it('keeps the conversation when the view is hidden and shown again', async () => {
    // Switching to the Explorer disposes the webview (it is not retained); showing it again
    // must rebuild exactly what was there from the host's snapshot.
    await wb.page.locator('.activitybar a[aria-label^="Explorer"]').click();
    await wb.page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor();
    await wb.openThreadline();
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Hello from the end-to-end test' }).waitFor();
    assert.equal(await frame.locator('[data-testid="message"][data-kind="user"]').count(), 1);
    await wb.screenshot('03-reshown');
  });

  it('keeps the conversation when the webview is reloaded', async () => {
    const frame = wb.chatFrame();
    // Mark the current document, so the test waits for the reload to replace it rather than
    // reading the old page before the reload has begun. Reads during the reload may fail;
    // `eventually` retries them.
    await frame.locator('[data-testid="app"]').evaluate(() => {
      globalThis.__threadlineBeforeReload = true;
    });
    await wb.runCommand('Developer: Reload Webviews');
    await eventually(
      () => frame.locator('[data-testid="app"]').evaluate(() => globalThis.__threadlineBeforeReload === true, undefined, { timeout: 2000 }),
      (marked) => marked === false,
      { timeout: 60_000, what: 'a new webview document after the reload' },
    );
    await frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Hello from the end-to-end test' }).waitFor({ timeout: 60_000 });
    await eventually(() => frame.locator('[data-testid="message"][data-kind="user"]').count(), (n) => n === 1, { what: 'one user message after the reload' });
  });

  it('runs "Threadline: Compact Conversation" from the command palette', async () => {
    await wb.runCommand('Threadline: Compact Conversation');
    const toast = wb.toasts().filter({ hasText: /Compact Conversation/ });
    await toast.first().waitFor();
    assert.match(await toast.first().innerText(), /nothing to compact yet/);
    await wb.screenshot('04-compact-command');
  });

  it('shows context use in the status bar and opens Show Context from it', async () => {
    const item = wb.page.locator('.statusbar [aria-label^="Threadline context"]').first();
    await item.waitFor();
    // The default model is an alias; its window comes from the Models API (the stand-in's here).
    // The figure is what the next request would hold: the one message, then also the system
    // prompt and tools once the first request has been built, so either is right here; both are
    // a sliver of the window.
    await eventually(() => item.innerText(), (text) => /\d+(\.\d+)?k? \/ \d+(\.\d+)?[kM] \(0%\)/.test(text), { what: 'the context figure in the status bar' });
    await item.click();
    // Show Context opens the panel's Context view; the Markdown report is its secondary action.
    const view = wb.chatFrame().locator('[data-testid="context-view"]');
    await view.locator('[data-testid="context-category"]').first().waitFor();
    await view.locator('[data-testid="context-markdown"]').click();
    const tab = wb.page.locator('.tabs-container .tab', { hasText: 'Threadline Context' });
    await tab.waitFor();
    await wb.page.locator('.view-lines', { hasText: 'Context' }).first().waitFor();
    await wb.screenshot('05-show-context');
  });
});
