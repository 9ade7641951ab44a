// The session driver with code checkpoints and compaction records, the real agent and tools over
// the stand-in, a real git workspace: what a person does with Undo, in one session and after a
// resume (a new driver reading the same folder, as a restarted editor or `-c` does).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SessionStore } from '../../../src/sessions/sessionStore';
import { undoDriver } from '../../support/undoDriver';
import { useStandin } from '../../support/useStandin';
import { repo, tmp } from '../checkpoints/workspace';

const standin = useStandin();
const open = (cwd: string, sessionsDir: string, first?: Parameters<typeof undoDriver>[0]['first']) => undoDriver({ url: standin.url, cwd, sessionsDir, ...(first ? { first } : {}) });

const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');

describe('Undo through the session driver', () => {
  it('a Write, an Edit and a Bash change are each restorable from the prompt that led to them, and the restore is undone by Redo', async () => {
    const ws = await repo({ 'app.js': 'let x = 1;\n', 'notes.md': 'committed notes\n' });
    const { driver, user } = open(ws, tmp('tl-du-sessions-'));
    standin.enqueue(
      { content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: 'new.txt', content: 'made by the agent\n' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_e', name: 'Edit', input: { file_path: 'app.js', old_string: 'let x = 1;', new_string: 'let x = 2;' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'echo changed by a command > notes.md' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    await driver.submit('change three files');
    assert.equal(read(ws, 'app.js'), 'let x = 2;\n');
    assert.equal(read(ws, 'notes.md'), 'changed by a command\n');
    const cps = driver.checkpoints!;
    const cp = await cps.forMessage(user('change three files').id);
    assert.ok(cp, 'the prompt began a checkpoint named after its message');
    const plan = await cps.plan(cp.id);
    assert.deepEqual(
      plan.files.map((f) => [f.rel, f.action, f.conflict]),
      [
        ['app.js', 'modify', false],
        ['new.txt', 'delete', false],
        ['notes.md', 'modify', false],
      ],
    );
    const done = await cps.restore(plan);
    assert.deepEqual(done.restored.map((f) => f.rel).sort(), ['app.js', 'new.txt', 'notes.md']);
    assert.equal(read(ws, 'app.js'), 'let x = 1;\n');
    assert.equal(read(ws, 'notes.md'), 'committed notes\n', "git's copy of the committed file");
    assert.throws(() => read(ws, 'new.txt'), /ENOENT/);
    // Redo: back to what the restore replaced.
    const redo = await cps.plan(done.checkpoint!.id);
    await cps.restore(redo);
    assert.equal(read(ws, 'app.js'), 'let x = 2;\n');
    assert.equal(read(ws, 'new.txt'), 'made by the agent\n');
  });

  it('after a resume: checkpoints, Rewind across a compaction and the Undo of that compaction all still work', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const sessionsDir = tmp('tl-du-sessions-');
    const first = open(ws, sessionsDir);
    standin.enqueue(
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: 'a.txt', content: 'two\n' } }] },
      { content: [{ type: 'text', text: 'a1' }] },
      { content: [{ type: 'text', text: 'a2' }] },
      { content: [{ type: 'text', text: '<summary>q1 and q2 were answered</summary>' }] },
      { content: [{ type: 'text', text: 'a3' }] },
    );
    await first.driver.submit('q1');
    await first.driver.submit('q2');
    assert.equal(await first.driver.compactNow(), true);
    await first.driver.submit('q3');
    await first.driver.flush();
    const id = first.driver.sessionId;
    const divider = first.store.getState().messages.find((m) => m.kind === 'compaction')!;
    first.driver.dispose();

    // A restart: a new driver on the same folders resumes the session.
    const loaded = await new SessionStore(sessionsDir).load(id);
    const again = open(ws, sessionsDir, { kind: 'resume', loaded });
    const q2 = again.user('q2');
    assert.ok(q2.kind === 'user' && q2.rewindable, 'Rewind stays on after a resume');
    const shown = again.store.getState().messages.find((m) => m.id === divider.id);
    assert.ok(shown?.kind === 'compaction' && shown.canUndo, "the compaction's Undo stays on after a resume");

    const cp = await again.driver.checkpoints!.forMessage(again.user('q1').id);
    assert.ok(cp, 'the checkpoint of q1 survives the restart');
    await again.driver.checkpoints!.restore(await again.driver.checkpoints!.plan(cp.id));
    assert.equal(read(ws, 'a.txt'), 'one\n');

    assert.equal(again.driver.undoCompaction(divider.id), true, 'the compaction is undone after the resume');
    const texts = JSON.stringify(again.driver.agent.messages);
    assert.match(texts, /q1.*a1.*q2.*a2.*q3.*a3/s, 'the originals are back, and what came after stays');
    assert.doesNotMatch(texts, /were answered/);

    // Rewind to q2 from a fresh resume of the compacted transcript: across the compaction.
    await again.driver.flush();
    again.driver.dispose();
    const third = open(ws, sessionsDir, { kind: 'resume', loaded: await new SessionStore(sessionsDir).load(id) });
    assert.equal(third.driver.rewindTo(third.user('q2').id), true);
    const after = JSON.stringify(third.driver.agent.messages);
    assert.match(after, /q1.*a1/s);
    assert.doesNotMatch(after, /q2|a2|q3/);
    assert.deepEqual(third.store.getState().messages.map((m) => (m.kind === 'user' || m.kind === 'assistant' ? m.text : m.kind)).filter((t) => t !== 'tool'), ['q1', 'a1']);
  });

  it('a rewind, and a summary placed before a message, are on screen the same way after a resume', async () => {
    const ws = tmp('tl-du-ws-');
    const sessionsDir = tmp('tl-du-sessions-');
    const first = open(ws, sessionsDir);
    standin.enqueue(
      { content: [{ type: 'text', text: 'a1' }] },
      { content: [{ type: 'text', text: 'a2' }] },
      { content: [{ type: 'text', text: 'a3' }] },
      { content: [{ type: 'text', text: '<summary>q1 was answered</summary>' }] },
    );
    const long = `q1 ${'with a long log line to summarise away\n'.repeat(300)}`;
    await first.driver.submit(long);
    await first.driver.submit('q2');
    await first.driver.submit('q3');
    assert.equal(first.driver.rewindTo(first.user('q3').id), true);
    const preview = await first.driver.previewPartialCompaction(first.user('q2').id, 'upTo');
    assert.equal(first.driver.applyPartialCompaction(preview.id), true);
    const shown = (s: typeof first.store) => s.getState().messages.map((m) => (m.kind === 'user' || m.kind === 'assistant' ? m.text.slice(0, 2) : m.kind));
    assert.deepEqual(shown(first.store), ['q1', 'a1', 'compaction', 'q2', 'a2'], 'the divider sits before the message it keeps');
    assert.doesNotMatch(JSON.stringify(first.driver.agent.messages), /long log line/);
    await first.driver.flush();
    const id = first.driver.sessionId;
    first.driver.dispose();
    const again = open(ws, sessionsDir, { kind: 'resume', loaded: await new SessionStore(sessionsDir).load(id) });
    assert.deepEqual(shown(again.store), ['q1', 'a1', 'compaction', 'q2', 'a2'], 'the rewound message stays gone, the divider stays in place');
  });

  it('rewinds to the right one of two messages with the same text, behind a compaction', async () => {
    const ws = tmp('tl-du-ws-');
    const { driver, store } = open(ws, tmp('tl-du-sessions-'));
    standin.enqueue(
      { content: [{ type: 'text', text: 'first answer' }] },
      { content: [{ type: 'text', text: 'middle answer' }] },
      { content: [{ type: 'text', text: '<summary>s</summary>' }] },
      { content: [{ type: 'text', text: 'second answer' }] },
    );
    await driver.submit('again');
    await driver.submit('middle');
    assert.equal(await driver.compactNow(), true);
    await driver.submit('again');
    const agains = store.getState().messages.filter((m) => m.kind === 'user' && m.text === 'again');
    assert.equal(agains.length, 2);
    assert.deepEqual(driver.agent.forkPoint(agains[0]!.id)!.history, [], 'the first one: before everything, its compaction undone');
    assert.equal(driver.rewindTo(agains[1]!.id), true);
    const h = JSON.stringify(driver.agent.messages);
    assert.doesNotMatch(h, /second answer|first answer/);
    assert.equal(driver.agent.messages.length, 1, 'only the summary before the second "again"');
  });

  it('a Write whose file cannot be kept is not made, and the model is told', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const sessionsDir = tmp('tl-du-sessions-');
    const { driver } = open(ws, sessionsDir);
    standin.enqueue({ content: [{ type: 'text', text: 'a0' }] });
    await driver.submit('open the store');
    // The store's blob folder becomes a file: no copy can be written.
    const store = await driver.checkpoints!.store();
    const { rmSync } = await import('node:fs');
    rmSync(join(store!.dir, 'blobs'), { recursive: true, force: true });
    writeFileSync(join(store!.dir, 'blobs'), 'not a folder');
    standin.enqueue({ content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: 'a.txt', content: 'two\n' } }] }, { content: [{ type: 'text', text: 'ok' }] });
    await driver.submit('write it');
    assert.equal(read(ws, 'a.txt'), 'one\n', 'the file was not changed');
    const result = JSON.stringify(standin.requests.at(-1)!.body);
    assert.match(result, /could not keep a copy of it to undo the change/);
  });
});
