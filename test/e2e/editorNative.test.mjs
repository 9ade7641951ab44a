// The editor-native half of the chat, as a user meets it in real VS Code: retries that collapse
// into one passing line; a waiting permission seen with the panel hidden; Write and Edit reviewed
// in VS Code's diff editor, accepted or rejected from its title bar; files (`@`) and selections
// attached from the editor reaching the request. Real code-server, real Chromium, the real SDK against the stand-in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

describe('the editor-native chat in real VS Code', { timeout: 600_000 }, () => {
  let env;
  let wb;
  let frame;

  before(async () => {
    ({ env, wb, frame } = await openPanel({ settings: { 'threadline.permissionNotification': true } }));
  });
  after(() => env?.close());

  const send = (text) => wb.send(text);
  const kinds = () => frame.locator('[data-testid="message"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));

  it('collapses two 529s into one transient line, replaced by the answer', async () => {
    const overloaded = { content: [{ type: 'text', text: 'never sent' }], fault: { kind: 'http', status: 529, retryAfterSeconds: 2 } };
    await env.standin.enqueue([overloaded, overloaded, { content: [{ type: 'text', text: 'Answered after the retries.' }] }]);
    await send('retry me');
    const line = frame.locator('[data-testid="retry-line"]');
    await line.waitFor({ timeout: 30_000 });
    const text = await line.innerText();
    assert.match(text, /Overloaded/);
    assert.doesNotMatch(text, /[{}]/, 'no JSON in the line');
    await wb.screenshot('40-retry-line');
    await eventually(() => line.innerText(), (t) => /attempt 3/.test(t), { what: 'the second retry replacing the first' });
    assert.equal(await line.count(), 1, 'one line, not one per retry');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Answered after the retries.' }).waitFor({ timeout: 30_000 });
    await line.waitFor({ state: 'detached' });
    assert.deepEqual(await kinds(), ['user', 'assistant'], 'nothing of the retries stays in the transcript');
    await wb.screenshot('41-retry-answered');
  });

  const threadlineBadge = () => wb.page.locator('.activitybar .action-item', { has: wb.page.locator('a[aria-label^="Threadline"]') }).locator('.badge-content');
  const permissionItem = () => wb.page.locator('.statusbar-item[id$="threadline.permission"]');
  const hidePanel = () => wb.page.locator('.activitybar a[aria-label^="Explorer"]').click();
  const writeTurn = (path) => ({ content: [{ type: 'tool_use', name: 'Write', input: { file_path: path, content: 'hello\n' } }] });

  it('shows a badge and a status-bar state while a permission waits with the panel hidden; answering clears both', async () => {
    await env.standin.enqueue([writeTurn('badge.txt'), { content: [{ type: 'text', text: 'Wrote badge.txt.' }] }]);
    await send('write badge.txt');
    await frame.locator('[data-testid="permission-prompt"]').waitFor({ timeout: 30_000 });
    await hidePanel();
    await eventually(() => threadlineBadge().innerText(), (t) => t.trim() === '1', { what: 'the badge on the Threadline view' });
    await permissionItem().waitFor();
    assert.match(await permissionItem().innerText(), /Allow Write\?/);
    assert.equal(await wb.toasts().count(), 0, 'no notification for a request that arrived while the panel was open');
    await wb.screenshot('42-permission-badge-hidden');
    // The status-bar item brings the panel back, where the request is answered.
    await permissionItem().click();
    await frame.locator('[data-testid="permission-allow-once"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Wrote badge.txt.' }).waitFor({ timeout: 30_000 });
    await threadlineBadge().waitFor({ state: 'hidden' });
    await permissionItem().waitFor({ state: 'hidden' });
    await wb.screenshot('43-permission-answered');
  });

  it('asks in a notification (when enabled) for a request that arrives while the panel is hidden; Deny answers it', async () => {
    const slow = { content: [{ type: 'text', text: 'Let me write that file for you, one moment please.' }, { type: 'tool_use', name: 'Write', input: { file_path: 'toast.txt', content: 'x\n' } }], chunkChars: 2, chunkDelayMs: 80 };
    await env.standin.enqueue([slow, { content: [{ type: 'text', text: 'Understood, not written.' }] }]);
    await send('write toast.txt');
    await hidePanel();
    const toast = wb.toasts().filter({ hasText: 'waiting for permission' });
    await toast.waitFor({ timeout: 30_000 });
    assert.match(await toast.innerText(), /Write/);
    await eventually(() => threadlineBadge().innerText(), (t) => t.trim() === '1', { what: 'the badge' });
    await wb.screenshot('44-permission-notification');
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Deny' }).first().click();
    await threadlineBadge().waitFor({ state: 'hidden' });
    await permissionItem().waitFor({ state: 'hidden' });
    await wb.openThreadline();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Understood, not written.' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('[data-testid="tool-card"][data-tool="Write"]').last().getAttribute('data-status'), 'denied');
  });

  const diffEditor = () => wb.page.locator('.monaco-diff-editor').first();
  const diffTab = () => wb.page.locator('.tabs-container .tab', { hasText: 'proposed by Threadline' });
  const titleAction = (label) => wb.page.locator(`.editor-actions a.action-label[aria-label^="${label}"]`).first();

  it('opens a pending Write in the diff editor; Accept in its title bar allows it, and the file opens from its card', async () => {
    await env.standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'reviewed.txt', content: 'one\ntwo\n' } }] },
      { content: [{ type: 'text', text: 'Wrote reviewed.txt.' }] },
    ]);
    await send('write reviewed.txt');
    await diffTab().waitFor({ timeout: 30_000 });
    await diffEditor().waitFor();
    const prompt = frame.locator('[data-testid="permission-prompt"]');
    await prompt.locator('[data-testid="diff-hunk"]').waitFor();
    assert.match(await prompt.locator('[data-testid="diffstat"]').innerText(), /new file · \+2/);
    assert.doesNotMatch(await prompt.innerText(), /"file_path"/, 'the prompt shows the change, not JSON');
    const card = frame.locator('[data-testid="tool-card"][data-tool="Write"]').last();
    assert.match(await card.locator('[data-testid="diffstat"]').innerText(), /\+2/);
    await wb.screenshot('45-diff-review-write');
    await titleAction('Accept Proposed Change').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Wrote reviewed.txt.' }).waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(env.workspace, 'reviewed.txt'), 'utf8'), 'one\ntwo\n');
    await diffTab().waitFor({ state: 'detached' });
    assert.equal(await card.getAttribute('data-status'), 'done');
    await card.locator('[data-testid="path-link"]').click();
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'reviewed.txt' }).waitFor();
    await wb.screenshot('46-diff-accepted-file-open');
  });

  it('Reject in the diff title bar answers the permission as Deny and leaves the file as it was', async () => {
    const before = readFileSync(join(env.workspace, 'README.md'), 'utf8');
    await env.standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'README.md', old_string: 'A tiny project', new_string: 'A rejected project' } }] },
      { content: [{ type: 'text', text: 'Left README.md alone.' }] },
    ]);
    await send('edit the readme');
    await diffTab().waitFor({ timeout: 30_000 });
    const hunk = frame.locator('[data-testid="permission-prompt"] [data-testid="diff-hunk"]');
    await hunk.waitFor();
    assert.match(await hunk.innerText(), /-A tiny project[\s\S]*\+A rejected project/);
    await wb.screenshot('47-diff-review-edit');
    await titleAction('Reject Proposed Change').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Left README.md alone.' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('[data-testid="tool-card"][data-tool="Edit"]').last().getAttribute('data-status'), 'denied');
    assert.equal(readFileSync(join(env.workspace, 'README.md'), 'utf8'), before);
    await diffTab().waitFor({ state: 'detached' });
    await wb.screenshot('48-diff-rejected');
  });

  it('@ attaches a file and Add Selection attaches lines; removed chips stay out; both reach the request', async () => {
    const input = frame.locator('[data-testid="prompt-input"]');
    if (!(await input.isVisible().catch(() => false))) await wb.openThreadline();
    const attachFile = async (query) => {
      await input.click();
      await input.pressSequentially('@');
      const picker = frame.locator('[data-testid="file-picker-input"]');
      await picker.waitFor();
      await picker.fill(query);
      await frame.locator('[data-testid="file-choice"]').first().waitFor();
      await picker.press('Enter');
    };
    await attachFile('greet.js');
    await frame.locator('[data-testid="attachment-chip"][data-kind="file"]', { hasText: 'src/greet.js' }).waitFor();
    await attachFile('README');
    const readme = frame.locator('[data-testid="attachment-chip"]', { hasText: 'README.md' });
    await readme.waitFor();
    await readme.locator('[data-testid="attachment-remove"]').click();
    await readme.waitFor({ state: 'detached' });
    // A selection in the editor: all of src/greet.js.
    await wb.page.keyboard.press('Control+P');
    await wb.page.locator('.quick-input-widget input').fill('greet.js');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'greet.js' }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'greet.js' }).waitFor();
    await wb.page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+A');
    await wb.runCommand('Add Selection to Threadline');
    const selection = frame.locator('[data-testid="attachment-chip"][data-kind="selection"]');
    await selection.waitFor({ timeout: 30_000 });
    assert.equal((await selection.innerText()).trim(), 'src/greet.js:1-3');
    await wb.screenshot('49-attachments');
    await env.standin.enqueue([{ content: [{ type: 'text', text: 'Explained.' }] }]);
    await send('explain these');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Explained.' }).waitFor({ timeout: 30_000 });
    const last = (await env.standin.requests()).at(-1).body.messages.at(-1);
    const sent = JSON.stringify(last);
    assert.match(sent, /<file path=\\"src\/greet\.js\\">\\nexport function greet\(name\)/);
    assert.match(sent, /<selection path=\\"src\/greet\.js\\" lines=\\"1-3\\">\\nexport function greet/);
    assert.match(sent, /explain these/);
    assert.doesNotMatch(sent, /README/, 'the removed chip did not go');
    assert.equal(await frame.locator('[data-testid="attachment-chip"]').count(), 0, 'the chips went with the message');
  });
});
