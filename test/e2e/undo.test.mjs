// Undo as a person meets it in real VS Code: the agent (scripted by the stand-in) edits a file;
// Restore code from the message's menu shows the files it will change first, opens one in the
// diff editor, then puts the file back, and Redo undoes the restore. Summarize up to here asks for
// a focus, shows the summary and the tokens before applying, and its divider's Undo brings the
// conversation back. Real Chromium, the real SDK against the stand-in, the real files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

const ORIGINAL = 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n';
const EDITED = 'export function greet(name) {\n  return `Good morning, ${name}!`;\n}\n';

describe('Undo in the panel', { timeout: 600_000 }, () => {
  let env;
  let standin;
  let wb;

  before(async () => {
    // Edits run without a permission prompt: the test is about what comes after them.
    ({ env, standin, wb } = await openPanel({ settings: { 'threadline.permissions.allow': ['Edit'] } }));
  });
  after(() => env?.close());

  const frame = () => wb.chatFrame();
  const onDisk = () => readFileSync(join(env.workspace, 'src', 'greet.js'), 'utf8');
  const userMessage = (text) => frame().locator('[data-testid="message"][data-kind="user"]', { hasText: text });

  async function openMenu(text) {
    const message = userMessage(text);
    await message.hover();
    await message.locator('[data-testid="message-menu"]').click();
    await message.locator('[data-testid="message-menu-list"]').waitFor();
    return message;
  }

  it('Restore code shows the change first (the file list, then the diff), puts the file back, and Redo undoes it', async () => {
    await standin.enqueue([
      { content: [{ type: 'text', text: 'Changing the greeting.' }, { type: 'tool_use', name: 'Edit', input: { file_path: 'src/greet.js', old_string: 'Hello', new_string: 'Good morning' } }] },
      { content: [{ type: 'text', text: 'The greeting now says good morning.' }] },
    ]);
    await wb.send('Make the greeting say good morning');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The greeting now says good morning.' }).waitFor({ timeout: 60_000 });
    assert.equal(onDisk(), EDITED);

    const message = await openMenu('Make the greeting say good morning');
    await message.locator('[data-testid="message-restore-code"]').click();
    const panel = frame().locator('[data-testid="restore-panel"][data-stage="preview"]');
    await panel.waitFor();
    // What a person reads first: which file, how much, and what happens to it.
    assert.match(await panel.locator('.undo-title').innerText(), /Restore code to before “Make the greeting say good morning”/);
    const rows = panel.locator('[data-testid="restore-file"]');
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.first().getAttribute('data-rel'), 'src/greet.js');
    assert.match(await rows.first().innerText(), /src\/greet\.js\s+\+1 −1\s+changes back/);
    assert.equal(await rows.first().getAttribute('data-conflict'), 'false');
    assert.equal(onDisk(), EDITED, 'nothing changes before Apply');
    await wb.screenshot('90-restore-preview');

    // The file in VS Code's diff editor: as it is now against as the restore would leave it.
    await rows.first().locator('[data-testid="restore-file-diff"]').click();
    const tab = wb.page.locator('.tabs-container .tab.active');
    await eventually(() => tab.innerText(), (t) => /greet\.js: now ↔ restored to before/.test(t), { what: 'the diff tab' });
    const diff = wb.page.locator('.monaco-diff-editor').first();
    await diff.locator('.editor.original .view-lines', { hasText: 'Good morning' }).waitFor({ timeout: 30_000 });
    await diff.locator('.editor.modified .view-lines', { hasText: 'Hello' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('91-restore-diff');

    await panel.locator('[data-testid="restore-apply"]', { hasText: 'Restore 1 file' }).click();
    const done = frame().locator('[data-testid="restore-panel"][data-stage="done"]');
    await done.waitFor();
    assert.match(await done.innerText(), /Restored 1 file to before “Make the greeting say good morning”/);
    await eventually(onDisk, (t) => t === ORIGINAL, { what: 'the file back as it was' });
    await frame().locator('[data-testid="message"][data-kind="notice"]', { hasText: 'Restored 1 file to before' }).waitFor();
    await wb.screenshot('92-restored');

    // Redo: its own preview, then the edit is back.
    await done.locator('[data-testid="restore-redo"]').click();
    const redo = frame().locator('[data-testid="restore-panel"][data-stage="preview"]');
    await redo.waitFor();
    assert.match(await redo.locator('.undo-title').innerText(), /^Redo: undo the restore to before/);
    assert.match(await redo.locator('[data-testid="restore-file"]').first().innerText(), /src\/greet\.js/);
    await redo.locator('[data-testid="restore-apply"]').click();
    await eventually(onDisk, (t) => t === EDITED, { what: 'the edit back after Redo' });
    await frame().locator('[data-testid="restore-close"]').click();
    await frame().locator('[data-testid="restore-panel"]').waitFor({ state: 'detached' });
  });

  it('Summarize up to here shows the summary and the saving before applying; Undo on its divider brings the conversation back', async () => {
    await wb.runCommand('Threadline: New Session');
    await frame().locator('[data-testid="empty-state"]').waitFor({ timeout: 30_000 });
    await standin.reset();
    await standin.enqueue([{ content: [{ type: 'text', text: 'Read the log.' }] }, { content: [{ type: 'text', text: 'The second answer.' }] }]);
    const log = `Here is a build log to keep in mind:\n${Array.from({ length: 300 }, (_, i) => `step ${i}: compiled module ${i} without warnings`).join('\n')}`;
    await wb.send(log);
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Read the log.' }).waitFor({ timeout: 60_000 });
    await wb.send('What is the second step?');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The second answer.' }).waitFor({ timeout: 60_000 });

    const message = await openMenu('What is the second step?');
    await message.locator('[data-testid="message-summarize-upto"]').click();
    const panel = frame().locator('[data-testid="summarize-panel"]');
    await panel.waitFor();
    assert.match(await panel.innerText(), /Summarize up to here/);
    await standin.enqueue([{ content: [{ type: 'text', text: '<summary>The user shared a 300-step build log; every module compiled cleanly.</summary>' }] }]);
    const focus = panel.locator('[data-testid="summarize-focus"]');
    await focus.click();
    await focus.pressSequentially('the build log');
    await panel.locator('[data-testid="summarize-preview"]').click();
    await frame().locator('[data-testid="summarize-panel"][data-stage="preview"]').waitFor({ timeout: 60_000 });
    const tokens = await panel.locator('[data-testid="summarize-tokens"]').innerText();
    const [, before, after] = /About ([\d.]+k?) tokens now → ([\d.]+k?) after \(focus: the build log\)/.exec(tokens) ?? [];
    assert.ok(before && after, tokens);
    const k = (s) => (s.endsWith('k') ? Number(s.slice(0, -1)) * 1000 : Number(s));
    assert.ok(k(after) < k(before), `${after} < ${before}`);
    assert.match(await panel.locator('[data-testid="summarize-summary"]').innerText(), /every module compiled cleanly/);
    assert.match(JSON.stringify((await standin.requests()).at(-1).body.messages.at(-1)), /the build log/, 'the focus went with the summary request');
    await wb.screenshot('93-summarize-preview');

    await panel.locator('[data-testid="summarize-apply"]').click();
    await frame().locator('[data-testid="summarize-panel"]').waitFor({ state: 'detached' });
    // The divider stands where the summary ends: just before the message it kept.
    const kinds = await frame().locator('[data-testid="message"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    assert.deepEqual(kinds.slice(-3), ['compaction', 'user', 'assistant']);
    await wb.screenshot('94-summarized');

    await standin.enqueue([{ content: [{ type: 'text', text: 'Answered from the summary.' }] }]);
    await wb.send('Anything else?');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Answered from the summary.' }).waitFor({ timeout: 60_000 });
    const summarized = JSON.stringify((await standin.requests()).at(-1).body.messages);
    assert.doesNotMatch(summarized, /compiled module 150/);
    assert.match(summarized, /What is the second step\?/);

    const divider = frame().locator('[data-testid="message"][data-kind="compaction"]').last();
    await divider.locator('button.divider').click();
    await divider.locator('[data-testid="compaction-undo"]').click();
    await frame().locator('[data-testid="message"][data-kind="notice"]', { hasText: 'Restored the conversation as it was before that compaction' }).waitFor();
    await standin.enqueue([{ content: [{ type: 'text', text: 'The log is back.' }] }]);
    await wb.send('And now?');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The log is back.' }).waitFor({ timeout: 60_000 });
    const restored = JSON.stringify((await standin.requests()).at(-1).body.messages);
    assert.match(restored, /compiled module 150.*What is the second step\?.*Anything else\?.*And now\?/s, 'the log is back, and what came after the summary stays');
    await wb.screenshot('95-summary-undone');
  });
});
