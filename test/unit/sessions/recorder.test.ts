import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { ViewMessage } from '../../../src/shared/viewState';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore, type SessionEvent } from '../../../src/sessions/sessionStore';
import { Conversation } from '../../../src/conversation/conversation';
import { appendUserContent } from '../../../src/conversation/history';
import { readFileSync } from 'node:fs';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-rec-'));
const msg = (role: 'user' | 'assistant', t: string): MessageParam => ({ role, content: [{ type: 'text', text: t }] });

/** A panel message whose text counts how often it is read. */
function counted(i: number, reads: { n: number }): ViewMessage {
  const v = { kind: i % 2 ? 'assistant' : 'user', id: `v${i}`, createdAt: i, ...(i % 2 ? { streaming: false } : {}) } as ViewMessage;
  const text = `message ${i} ${'words '.repeat(20)}`;
  Object.defineProperty(v, 'text', { enumerable: true, get: () => (reads.n++, text) });
  return v;
}

describe('SessionRecorder', () => {
  it('records message by message: append, view, replace; the index entry follows', async () => {
    const store = new SessionStore(tmp());
    const rec = new SessionRecorder(store, { id: 'p', cwd: '/w', model: 'm' });
    await rec.view({ kind: 'notice', id: 'n0', level: 'info', text: 'before anything', createdAt: 0 });
    await rec.append(msg('user', 'Fix the login bug'));
    await rec.view({ kind: 'user', id: 'u1', text: 'Fix the login bug', createdAt: 1 });
    await rec.view({ kind: 'assistant', id: 'a1', text: 'Look', streaming: true, createdAt: 2 });
    await rec.append(msg('assistant', 'Looking.'));
    await rec.view({ kind: 'assistant', id: 'a1', text: 'Looking.', streaming: false, createdAt: 2 });
    rec.setTokens(42);
    await rec.replace([msg('user', 'summary')], 'compaction');
    await rec.flush();
    const s = await store.load('p');
    assert.deepEqual(s.history, [msg('user', 'summary')]);
    assert.deepEqual(s.view.map((v) => v.id), ['n0', 'u1', 'a1']);
    assert.equal(s.view[2]!.kind === 'assistant' && s.view[2]!.text, 'Looking.');
    assert.equal(s.title, 'Fix the login bug');
    assert.equal(s.tokens, 42);
    const [entry] = await store.list();
    assert.deepEqual([entry!.messageCount, entry!.preview, entry!.title, entry!.tokens], [2, 'Fix the login bug', 'Fix the login bug', 42]);
  });

  for (const path of ['append and view', 'sync'] as const) {
    it(`saving one more message reads nothing of the earlier ones (${path})`, async () => {
      const reads = { n: 0 };
      const rec = new SessionRecorder(new SessionStore(tmp()), { id: 'q', cwd: '/w', model: 'm' });
      const history: MessageParam[] = [];
      const view: ViewMessage[] = [];
      const add = async (i: number) => {
        const m = msg(i % 2 ? 'assistant' : 'user', `message ${i}`);
        const v = counted(i, reads);
        history.push(m);
        view.push(v);
        if (path === 'sync') await rec.sync(history.slice(), view.slice(), i);
        else {
          await rec.append(m);
          await rec.view(v);
        }
      };
      for (let i = 0; i < 300; i++) await add(i);
      reads.n = 0;
      await add(300);
      // The new message is read to be written (and for the preview, while it is short); the
      // 300 before it are not touched.
      assert.ok(reads.n <= 3, `${reads.n} reads of message text to save one message`);
    });
  }

  it('after a failed write, the next one writes the whole session again, so nothing is lost', async () => {
    let failNext = false;
    class FlakyStore extends SessionStore {
      override async append(id: string, events: readonly SessionEvent[]) {
        if (failNext) {
          failNext = false;
          throw new Error('ENOSPC: no space left on device');
        }
        return super.append(id, events);
      }
    }
    const store = new FlakyStore(tmp());
    const rec = new SessionRecorder(store, { id: 'f', cwd: '/w', model: 'm' });
    await rec.append(msg('user', 'one'));
    failNext = true;
    await assert.rejects(rec.append(msg('assistant', 'two')), /ENOSPC/);
    await rec.append(msg('user', 'three'));
    const s = await store.load('f');
    assert.deepEqual(s.history, [msg('user', 'one'), msg('assistant', 'two'), msg('user', 'three')]);
  });

  it('a transcript removed mid-session (its folder cleared) is written again in full', async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    const rec = new SessionRecorder(store, { id: 'g', cwd: '/w', model: 'm' });
    await rec.append(msg('user', 'one'));
    await rec.view({ kind: 'user', id: 'u1', text: 'one', createdAt: 1 });
    rmSync(dir, { recursive: true });
    await rec.append(msg('assistant', 'two'));
    const s = await store.load('g');
    assert.deepEqual(s.history, [msg('user', 'one'), msg('assistant', 'two')]);
    assert.equal(s.view.length, 1);
    assert.equal(s.title, 'one');
  });

  it('follows a Conversation: appends for new messages, one record for compaction or rewind, nothing for a resumed history', async () => {
    const store = new SessionStore(tmp());
    const conversation = new Conversation();
    const rec = new SessionRecorder(store, { id: 'c', cwd: '/w', model: 'm' });
    const writes: Array<Promise<void>> = [];
    conversation.onDidChange((c) => writes.push(rec.record(c)));
    const lines = () => readFileSync(store.file('c'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as SessionEvent).t);
    conversation.set(appendUserContent(conversation.history, [{ type: 'text', text: 'q1' }]), 'user');
    conversation.set([...conversation.history, msg('assistant', 'a1')], 'turn');
    conversation.set(appendUserContent(conversation.history, [{ type: 'text', text: 'q2' }]), 'user');
    await Promise.all(writes);
    assert.deepEqual(lines(), ['meta', 'msg', 'msg', 'msg']);
    const before = conversation.history;
    conversation.set([msg('user', 'summary')], 'compaction');
    conversation.set(before.slice(0, 2), 'rewind');
    await Promise.all(writes);
    assert.deepEqual(lines().slice(4), ['history', 'history']);
    assert.deepEqual((await store.load('c')).history, before.slice(0, 2));

    // Resumed: the loaded history goes back into a new conversation; nothing is written again.
    const loaded = await store.load('c');
    const again = new SessionRecorder(store, { id: 'c', cwd: '/w', model: 'm', existing: { history: loaded.history, view: loaded.view } });
    const c2 = new Conversation();
    c2.onDidChange((c) => writes.push(again.record(c)));
    c2.set(loaded.history, 'load');
    c2.set([...c2.history, msg('user', 'q3')], 'user');
    await Promise.all(writes);
    assert.deepEqual(lines().slice(6), ['msg']);
  });
});

