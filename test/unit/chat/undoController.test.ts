// The panel's Undo, host side: the messages the webview sends (restore/*, summarize/*,
// session/diff) driving a real session driver with checkpoints over the stand-in, and what the
// panel is given to show (the store's `restore` and `summarize`), as a person goes through it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createChatHandlers } from '../../../src/chat/chatController';
import type { DiffSide } from '../../../src/chat/undoController';
import { chatDeps } from '../../support/chatDeps';
import { undoDriver } from '../../support/undoDriver';
import { useStandin } from '../../support/useStandin';
import { repo, tmp } from '../checkpoints/workspace';

const standin = useStandin();

function setup(ws: string) {
  const u = undoDriver({ url: standin.url, cwd: ws, sessionsDir: tmp('tl-uc-sessions-') });
  const diffs: Array<{ rel: string; restored: DiffSide; title: string }> = [];
  const sessionDiffs: Array<Array<{ rel: string; before: DiffSide; status: string }>> = [];
  const h = createChatHandlers(
    chatDeps(u.store, {
      session: u.driver,
      undo: {
        session: u.driver,
        workbench: {
          openRestoreDiff: async (file, restored, title) => void diffs.push({ rel: file.rel, restored, title }),
          openSessionDiff: async (files) => void sessionDiffs.push(files.map((f) => ({ rel: f.rel, before: f.before, status: f.status }))),
        },
      },
    }),
  );
  return { ...u, h, diffs, sessionDiffs };
}

const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');

describe("the panel's Restore code", () => {
  it('shows the files first, opens a diff of one, applies, offers Redo, and Redo shows its own preview', async () => {
    const ws = await repo({ 'app.js': 'let x = 1;\n' });
    const { driver, store, user, h, diffs, sessionDiffs } = setup(ws);
    standin.enqueue(
      { content: [{ type: 'tool_use', id: 'toolu_e', name: 'Edit', input: { file_path: 'app.js', old_string: 'let x = 1;', new_string: 'let x = 2;\nlet y = 3;' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: 'src/new.js', content: 'new\n' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    await h['chat/send']({ text: 'edit the app' });
    const id = user('edit the app').id;

    await h['restore/preview']({ id, scope: 'code' });
    const preview = store.getState().restore!;
    assert.equal(preview.stage, 'preview');
    assert.equal(preview.label, 'edit the app');
    assert.deepEqual(preview.files.map((f) => [f.rel, f.action, f.added, f.removed, f.conflict]), [
      ['app.js', 'modify', 1, 2, false],
      ['src/new.js', 'delete', 0, 1, false],
    ]);
    assert.equal(read(ws, 'app.js'), 'let x = 2;\nlet y = 3;\n', 'a preview changes nothing');

    await h['restore/openDiff']({ path: preview.files[0]!.path });
    assert.equal(diffs.length, 1);
    assert.equal(diffs[0]!.title, 'app.js: now ↔ restored to before “edit the app”');
    assert.ok(diffs[0]!.restored.kind === 'bytes' && diffs[0]!.restored.bytes.toString() === 'let x = 1;\n', 'the right side is the file as the restore would leave it');
    await h['restore/openDiff']({ path: '/etc/passwd' });
    assert.equal(diffs.length, 1, 'only a file of the preview opens');

    await h['session/diff']({});
    assert.deepEqual(sessionDiffs[0]!.map((f) => [f.rel, f.status, f.before.kind]), [
      ['app.js', 'modified', 'bytes'],
      ['src/new.js', 'added', 'absent'],
    ]);

    await h['restore/apply']({ choices: {} });
    assert.equal(read(ws, 'app.js'), 'let x = 1;\n');
    const done = store.getState().restore!;
    assert.deepEqual([done.stage, done.restored, done.canRedo], ['done', 2, true]);
    assert.match(JSON.stringify(store.getState().messages.at(-1)), /Restored 2 files to before “edit the app”/);
    assert.ok(driver.agent.messages.length > 2, 'Restore code leaves the conversation as it is');

    await h['restore/redo']({});
    const redo = store.getState().restore!;
    assert.equal(redo.redo, true);
    assert.deepEqual(redo.files.map((f) => [f.rel, f.action]), [
      ['app.js', 'modify'],
      ['src/new.js', 'create'],
    ]);
    await h['restore/apply']({ choices: {} });
    assert.equal(read(ws, 'app.js'), 'let x = 2;\nlet y = 3;\n');
    assert.equal(read(ws, 'src/new.js'), 'new\n');
  });

  it('a file you changed after the agent is a conflict: nothing is applied until you choose, and "keep" keeps it', async () => {
    const ws = await repo({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const { store, user, h } = setup(ws);
    standin.enqueue(
      { content: [{ type: 'tool_use', id: 'toolu_a', name: 'Write', input: { file_path: 'a.txt', content: 'two\n' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'Write', input: { file_path: 'b.txt', content: 'bee two\n' } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    await h['chat/send']({ text: 'write' });
    writeFileSync(join(ws, 'a.txt'), 'my own edit\n');
    await h['restore/preview']({ id: user('write').id, scope: 'code' });
    const files = store.getState().restore!.files;
    assert.deepEqual(files.map((f) => [f.rel, f.conflict]), [
      ['a.txt', true],
      ['b.txt', false],
    ]);
    await h['restore/apply']({ choices: {} });
    assert.match(store.getState().restore!.error ?? '', /a choice is needed for each \(restore or keep\): a\.txt/);
    assert.equal(read(ws, 'b.txt'), 'bee two\n', 'all or nothing: b.txt was not restored either');
    await h['restore/apply']({ choices: { [files[0]!.path]: 'keep' } });
    assert.equal(read(ws, 'a.txt'), 'my own edit\n');
    assert.equal(read(ws, 'b.txt'), 'bee\n');
    assert.equal(store.getState().restore!.kept, 1);
  });

  it('Restore code and conversation: both go back to before the message', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const { driver, store, user, h } = setup(ws);
    standin.enqueue({ content: [{ type: 'text', text: 'a0' }] }, { content: [{ type: 'tool_use', id: 'toolu_a', name: 'Write', input: { file_path: 'a.txt', content: 'two\n' } }] }, { content: [{ type: 'text', text: 'ok' }] });
    await h['chat/send']({ text: 'hello' });
    await h['chat/send']({ text: 'write' });
    await h['restore/preview']({ id: user('write').id, scope: 'both' });
    await h['restore/apply']({ choices: {} });
    assert.equal(read(ws, 'a.txt'), 'one\n');
    assert.doesNotMatch(JSON.stringify(driver.agent.messages), /write|two/);
    assert.deepEqual(store.getState().messages.filter((m) => m.kind === 'user').map((m) => (m.kind === 'user' ? m.text : '')), ['hello']);
  });

  it('a message whose turn changed no file: nothing to restore, and no error', async () => {
    const ws = tmp('tl-uc-ws-');
    const { store, user, h } = setup(ws);
    standin.enqueue({ content: [{ type: 'text', text: 'a0' }] });
    await h['chat/send']({ text: 'hello' });
    await h['restore/preview']({ id: user('hello').id, scope: 'code' });
    const r = store.getState().restore!;
    assert.deepEqual(r.files, []);
    assert.equal(r.error, undefined, 'a checkpoint with no change: nothing to restore, no error');
  });
});

describe("the panel's Summarize up to here", () => {
  it('asks for a focus, previews the summary with the tokens before and after, applies, and the divider offers Undo', async () => {
    const ws = tmp('tl-uc-ws-');
    const { driver, store, user, h } = setup(ws);
    standin.enqueue({ content: [{ type: 'text', text: 'Read it.' }] }, { content: [{ type: 'text', text: 'Second.' }] });
    await h['chat/send']({ text: `a long log: ${'one line of the log that takes room\n'.repeat(200)}` });
    await h['chat/send']({ text: 'second question' });
    const id = user('second question').id;

    await h['summarize/ask']({ id, direction: 'upTo' });
    assert.deepEqual(store.getState().summarize, { messageId: id, direction: 'upTo', stage: 'ask' });
    standin.enqueue({ content: [{ type: 'text', text: '<summary>A long log was shared.</summary>' }] });
    await h['summarize/preview']({ focus: ' the log ' });
    const v = store.getState().summarize!;
    assert.equal(v.stage, 'preview');
    assert.equal(v.focus, 'the log');
    assert.match(v.summary!, /A long log was shared\./);
    assert.ok(v.tokensAfter! < v.tokensBefore!, `${v.tokensAfter} < ${v.tokensBefore}`);
    assert.match(JSON.stringify(driver.agent.messages), /one line of the log/, 'a preview applies nothing');

    h['summarize/apply']({ previewId: v.previewId! });
    assert.equal(store.getState().summarize, null);
    assert.doesNotMatch(JSON.stringify(driver.agent.messages), /one line of the log/);
    const kinds = store.getState().messages.map((m) => m.kind);
    assert.deepEqual(kinds, ['user', 'assistant', 'compaction', 'user', 'assistant'], 'the divider sits before the message it kept');
    const divider = store.getState().messages[2]!;
    assert.ok(divider.kind === 'compaction' && divider.canUndo);
    assert.equal(divider.tokensBefore, v.tokensBefore, 'the divider agrees with the preview');

    await h['compaction/undo']({ id: divider.id });
    assert.match(JSON.stringify(driver.agent.messages), /one line of the log.*second question/s);
  });

  it('a summary that would not shrink the conversation is refused, and the reason is shown', async () => {
    const ws = tmp('tl-uc-ws-');
    const { store, user, h } = setup(ws);
    standin.enqueue({ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] });
    await h['chat/send']({ text: 'hi' });
    await h['chat/send']({ text: 'there' });
    await h['summarize/ask']({ id: user('there').id, direction: 'upTo' });
    standin.enqueue({ content: [{ type: 'text', text: `<summary>${'a very long summary '.repeat(200)}</summary>` }] });
    await h['summarize/preview']({ focus: '' });
    const v = store.getState().summarize!;
    assert.equal(v.stage, 'ask');
    assert.match(v.error!, /would not make the conversation smaller/);
  });
});
