// Replace, not duplicate: a resumed session's history handed back to its recorder writes
// nothing it already holds; a history that changed anywhere but its end is one record that
// replaces on load; and the caller's arrays stay the caller's.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { ViewMessage } from '../../../src/shared/viewState';
import { Conversation } from '../../../src/conversation/conversation';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore, type SessionEvent } from '../../../src/sessions/sessionStore';

const msg = (role: 'user' | 'assistant', t: string): MessageParam => ({ role, content: [{ type: 'text', text: t }] });
const userView = (id: string, text: string): ViewMessage => ({ kind: 'user', id, text, createdAt: 1 });

function setup(id = 's') {
  const store = new SessionStore(mkdtempSync(join(tmpdir(), 'tl-rec-replace-')));
  const events = (): SessionEvent[] => readFileSync(store.file(id), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SessionEvent);
  /** The history records only: `msg` appends one message, `history:REASON` replaces them all. */
  const writes = () => events().flatMap((e) => (e.t === 'msg' ? ['msg'] : e.t === 'history' ? [`history:${e.reason}`] : []));
  return { store, events, writes };
}

/** A session of two messages on disk, loaded back with a recorder that continues it (as resume does). */
async function resumed(store: SessionStore, id = 's') {
  const first = new SessionRecorder(store, { id, cwd: '/w', model: 'm' });
  await first.sync([msg('user', 'q1'), msg('assistant', 'a1')], [userView('u1', 'q1')], 3);
  await first.flush();
  const loaded = await store.load(id);
  const rec = new SessionRecorder(store, { id, cwd: '/w', model: 'm', existing: { history: loaded.history, view: loaded.view, ...(loaded.title ? { title: loaded.title } : {}) } });
  return { loaded, rec };
}

describe('SessionRecorder: replace on reload', () => {
  it('sync: the resumed history again writes nothing; a new message is one append; nothing is duplicated', async () => {
    const { store, writes, events } = setup();
    const { loaded, rec } = await resumed(store);
    await rec.sync(loaded.history, loaded.view, 3);
    assert.deepEqual(writes(), ['msg', 'msg'], 'the loaded history is not written again');
    const before = events().length;
    await rec.sync(loaded.history, loaded.view, 3);
    assert.equal(events().length, before, 'the same state again writes nothing, not even its token figure');
    const next = [...loaded.history, msg('user', 'q2')];
    await rec.sync(next, [...loaded.view, userView('u2', 'q2')], 4);
    assert.deepEqual(writes(), ['msg', 'msg', 'msg']);
    assert.deepEqual((await store.load('s')).history, next);
    assert.equal(loaded.history.length, 2, "the loaded history is the caller's: appending does not grow it");
  });

  it('sync: a history changed at the start or in the middle is one record that replaces it', async () => {
    const { store, writes } = setup();
    const rec = new SessionRecorder(store, { id: 's', cwd: '/w', model: 'm' });
    const view = [userView('u1', 'q1')];
    const h = [msg('user', 'q1'), msg('assistant', 'a1')];
    await rec.sync(h, view, 1);
    // Longer, but its first message was replaced (micro-compaction of an old tool result).
    const edited = [msg('user', 'q1 (cleared)'), h[1]!, msg('user', 'q2')];
    await rec.sync(edited, view, 1);
    // Same length, last message replaced.
    const same = [edited[0]!, edited[1]!, msg('user', 'q2 (cleared)')];
    await rec.sync(same, view, 1);
    // A rewind to nothing: the empty history is still written.
    await rec.sync([], [], 0, 'rewind');
    assert.deepEqual(writes(), ['msg', 'msg', 'history:update', 'history:update', 'history:rewind']);
    assert.deepEqual((await store.load('s')).history, []);
  });

  it('follows a Conversation: a resumed history plus new messages in one change appends only the new ones', async () => {
    const { store, writes } = setup();
    const { loaded, rec } = await resumed(store);
    const c = new Conversation();
    const done: Array<Promise<void>> = [];
    c.onDidChange((change) => done.push(rec.record(change)));
    c.set([...loaded.history, msg('user', 'q2')], 'load');
    await Promise.all(done);
    assert.deepEqual(writes(), ['msg', 'msg', 'msg']);
    assert.deepEqual((await store.load('s')).history, [...loaded.history, msg('user', 'q2')]);
    // The last message replaced in place (same length): a replacement, not nothing.
    const replaced = [...c.history.slice(0, -1), msg('user', 'q2 (edited)')];
    c.set(replaced, 'micro-compaction');
    await Promise.all(done);
    assert.deepEqual(writes(), ['msg', 'msg', 'msg', 'history:micro-compaction']);
    assert.deepEqual((await store.load('s')).history, replaced);
  });

  it("keeps its own copies: the caller's arrays changing later changes nothing written", async () => {
    const { store } = setup();
    const rec = new SessionRecorder(store, { id: 's', cwd: '/w', model: 'm' });
    await rec.append(msg('user', 'q1'));
    const h = [msg('user', 'summary')];
    const writing = rec.replace(h, 'compaction');
    h.push(msg('assistant', 'added by the caller afterwards'));
    await writing;
    await rec.append(msg('assistant', 'a1'));
    assert.equal(h.length, 2, "appending does not grow the caller's array");
    assert.deepEqual((await store.load('s')).history, [msg('user', 'summary'), msg('assistant', 'a1')]);

    const h2 = [msg('user', 'q1')];
    const rec2 = new SessionRecorder(store, { id: 's2', cwd: '/w', model: 'm' });
    const writing2 = rec2.sync(h2, [userView('u1', 'q1')], 1);
    await writing2;
    const h3 = [msg('user', 'other')];
    const writing3 = rec2.sync(h3, [userView('u1', 'q1')], 1, 'compaction');
    h3.push(msg('assistant', 'added afterwards'));
    await writing3;
    assert.deepEqual((await store.load('s2')).history, [msg('user', 'other')]);
    // After a replacement, appending grows the recorder's copy, not the array it was given.
    const h4 = [msg('user', 'compacted')];
    await rec2.sync(h4, [userView('u1', 'q1')], 1, 'compaction');
    await rec2.sync([...h4, msg('assistant', 'a')], [userView('u1', 'q1')], 1);
    assert.equal(h4.length, 1);
    assert.deepEqual((await store.load('s2')).history, [msg('user', 'compacted'), msg('assistant', 'a')]);
  });

  it('a resumed panel grown in place still has its new message written', async () => {
    const { store } = setup();
    const { loaded, rec } = await resumed(store);
    const view = loaded.view;
    view.push(userView('u2', 'q2'));
    await rec.syncView(view, 3);
    assert.deepEqual((await store.load('s')).view.map((v) => v.id), ['u1', 'u2']);
  });

  it('a changed panel message replaces the earlier one on load', async () => {
    const { store } = setup();
    const rec = new SessionRecorder(store, { id: 's', cwd: '/w', model: 'm' });
    await rec.view(userView('u1', 'q1'));
    await rec.append(msg('user', 'q1'));
    await rec.view({ kind: 'assistant', id: 'a1', text: 'first', streaming: false, createdAt: 2 });
    await rec.view({ kind: 'assistant', id: 'a1', text: 'first, then more', streaming: false, createdAt: 2 });
    const s = await store.load('s');
    assert.deepEqual(s.view.map((v) => [v.id, v.kind === 'assistant' ? v.text : '']), [['u1', ''], ['a1', 'first, then more']]);
  });
});

describe('SessionRecorder: identity, titles and waiting', () => {
  it('a resumed session keeps its own title; one without takes it from the panel', async () => {
    const { store } = setup('t');
    const { rec } = await resumed(store, 't');
    rec.adoptTitle('ignored');
    const withTitle = new SessionRecorder(store, { id: 't2', cwd: '/w', model: 'm', existing: { history: [msg('user', 'q')], view: [userView('u1', 'q')], title: 'Renamed by hand' } });
    await withTitle.append(msg('assistant', 'a'));
    await withTitle.flush();
    const without = new SessionRecorder(store, { id: 't3', cwd: '/w', model: 'm', existing: { history: [msg('user', 'q')], view: [userView('u1', 'Fix the parser')] } });
    await without.append(msg('assistant', 'a'));
    await without.flush();
    const byId = new Map((await store.list()).map((e) => [e.id, e.title]));
    assert.equal(byId.get('t2'), 'Renamed by hand');
    assert.equal(byId.get('t3'), 'Fix the parser');
  });

  it('a new session given a title (an import) keeps it over its first prompt', async () => {
    const { store } = setup('i');
    const rec = new SessionRecorder(store, { id: 'i', cwd: '/w', model: 'm', title: 'Imported from Claude Code' });
    await rec.sync([msg('user', 'q1')], [userView('u1', 'q1')], 1);
    assert.equal((await store.load('i')).title, 'Imported from Claude Code');
  });

  it('knows its id, writes nothing for nothing, and idle() waits for what was asked', async () => {
    const { store } = setup('w');
    const rec = new SessionRecorder(store, { id: 'w', cwd: '/w', model: 'm' });
    assert.equal(rec.id, 'w');
    await rec.append([]);
    await rec.sync([], [{ kind: 'notice', id: 'n1', level: 'info', text: 'hello', createdAt: 0 }], 0);
    assert.equal(await store.exists('w'), false, 'no file for a session with nothing in it');
    void rec.append(msg('user', 'q1'));
    void rec.append(msg('assistant', 'a1'));
    await rec.idle();
    assert.deepEqual((await store.load('w')).history, [msg('user', 'q1'), msg('assistant', 'a1')]);
  });
});
