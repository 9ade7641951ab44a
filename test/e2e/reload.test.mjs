// The open session after Reload Window: the conversation comes back, with the composer's unsent
// draft and the reader's place in the list; a new session's empty state offers the earlier one to
// resume in one click. Real code-server, real Chromium, the real SDK against the stand-in.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

describe('the open session across Reload Window', { timeout: 600_000 }, () => {
  let env;
  let wb;

  before(async () => {
    ({ env, wb } = await openPanel());
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

  /** The id of the first message row whose lower edge is below the top of the list's viewport. */
  const topMessageId = () =>
    frame()
      .locator('[data-testid="message-list"]')
      .evaluate((list) => {
        const top = list.getBoundingClientRect().top;
        const rows = [...list.querySelectorAll('[data-testid="message"]')].filter((r) => r.getBoundingClientRect().bottom > top + 1);
        rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        return rows[0]?.getAttribute('data-id') ?? null;
      });

  /** What the reader sees at the top of the list, for a failure message. */
  const rowsOnScreen = () =>
    frame()
      .locator('[data-testid="message-list"]')
      .evaluate((list) => {
        const top = list.getBoundingClientRect().top;
        return [...list.querySelectorAll('[data-testid="message"]')]
          .map((r) => `${r.getAttribute('data-id')}@${Math.round(r.getBoundingClientRect().top - top)}:${r.textContent.slice(0, 30)}`)
          .join(' | ');
      });
  /** The panel state files the host wrote, for a failure message. */
  const keptUi = () => {
    const root = join(env.server.dirs.userData, 'User', 'globalStorage', 'threadline.threadline', 'sessions');
    try {
      return readdirSync(root).flatMap((d) => {
        const dir = join(root, d, 'ui');
        return existsSync(dir) ? readdirSync(dir).map((f) => `${f}: ${readFileSync(join(dir, f), 'utf8').slice(0, 200)}`) : [];
      }).join(' ; ');
    } catch (err) {
      return String(err);
    }
  };

  const reloadWindow = async () => {
    // The old page goes; wait for the new workbench, not the old one still on screen.
    const loaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window');
    await loaded;
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await showPanel();
  };

  it('keeps the unsent draft and the place in a long session across Reload Window', async () => {
    const exchanges = 12;
    const paragraphs = (i) => Array.from({ length: 14 }, (_, k) => `Answer ${i}, paragraph ${k}.`).join('\n\n');
    await env.standin.enqueue(Array.from({ length: exchanges }, (_, i) => ({ when: `long question ${i}.`, content: [{ type: 'text', text: paragraphs(i) }] })));
    await wb.runCommand('Threadline: New Session');
    // Typed only once the new session shows: each session has its own composer and draft.
    await frame().locator('[data-testid="empty-state"]').waitFor({ timeout: 30_000 });
    const input = frame().locator('[data-testid="prompt-input"]');
    for (let i = 0; i < exchanges; i++) {
      await input.fill(`long question ${i}.`);
      await input.press('Enter');
      await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: `Answer ${i}, paragraph 13.` }).waitFor({ timeout: 30_000 });
    }
    await frame().locator('[data-testid="stop-button"]').waitFor({ state: 'detached', timeout: 30_000 });
    const draft = 'A draft, not sent:\nline two — with ünïcode ✓\n\n   and trailing spaces   ';
    await input.fill(draft);
    const list = frame().locator('[data-testid="message-list"]');
    // The reader wheels up, well into the conversation, as a person does. (A scroll set from a
    // script, right after the list's last height change, is not the reader's: the panel keeps
    // following the end, and on this machine's Chromium no jump button came.)
    const jump = frame().locator('[data-testid="jump-to-bottom"]');
    await list.hover();
    for (let i = 0; i < 12 && !(await jump.isVisible()); i++) await wb.page.mouse.wheel(0, -600);
    await jump.waitFor({ timeout: 10_000 });
    for (let i = 0; i < 4; i++) await wb.page.mouse.wheel(0, -600);
    // Settled: the top message stays the same for a moment (the list measures rows as it goes).
    let last;
    const top = await eventually(
      async () => {
        const id = await topMessageId();
        const same = id !== null && id === last;
        last = id;
        return same ? id : null;
      },
      (id) => id !== null,
      { what: 'the list to settle after the scroll' },
    );
    await wb.screenshot('53-draft-and-scrolled-before-reload');
    const before = await rowsOnScreen();
    await reloadWindow();
    // The session is back (the list is virtualized: only the rows near the reader's place exist).
    await frame().locator('[data-testid="message"]', { hasText: /long question \d+\.|Answer \d+, paragraph/ }).first().waitFor({ state: 'attached', timeout: 60_000 });
    await eventually(() => frame().locator('[data-testid="prompt-input"]').inputValue(), (v) => v === draft, { what: 'the draft back in the composer' });
    await eventually(topMessageId, (id) => id === top, { what: `message ${top} at the top of the list`, timeout: 15_000 }).catch(async (err) => {
      await wb.screenshot('5x-scroll-not-restored');
      throw new Error(`${err.message}; rows before: ${before}; rows now: ${await rowsOnScreen()}; kept on the host: ${keptUi()}`, { cause: err });
    });
    assert.equal(await frame().locator('[data-testid="jump-to-bottom"]').count(), 1, 'still scrolled up: the jump button shows');
    await wb.screenshot('54-draft-and-scrolled-after-reload');

    // A browser reload (F5 in the tab) gives the workbench no time to save a webview's own state:
    // the draft must come back from what the extension kept.
    const second = 'edited after the reload';
    await frame().locator('[data-testid="prompt-input"]').fill(second);
    await eventually(keptUi, (kept) => kept.includes(JSON.stringify(second)), { what: 'the edited draft kept by the extension' });
    await wb.page.reload();
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await showPanel();
    await eventually(() => frame().locator('[data-testid="prompt-input"]').inputValue(), (v) => v === second, { what: 'the edited draft back after a browser reload' });
    await eventually(topMessageId, (id) => id === top, { what: `message ${top} still at the top`, timeout: 15_000 });
  });
});
