// Findings 9-10: a transcript that is not quite what the recorder wrote (a wrongly shaped event,
// a torn last line). These tests play both on real files against the loader and the recorder.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../src/api/types';
import { SessionRecorder } from '../../src/sessions/recorder';
import { SessionStore, type SessionEvent } from '../../src/sessions/sessionStore';
import type { ViewMessage } from '../../src/shared/viewState';
import { validateRequest } from '../standin/validate';
import { tempDir } from './support';

const meta: SessionEvent = { t: 'meta', v: 1, id: 'sess1', createdAt: 1, cwd: '/work', model: 'claude-sonnet-4-6' };
const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });
const jsonl = (events: unknown[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
const texts = (h: readonly MessageParam[]) => h.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')));

describe('finding 9: one wrongly shaped event makes a session unresumable or its history invalid', () => {
  // loadSession checks only that a line is an object with a string `t`; the payload is trusted.
  const shapes: Array<[string, unknown]> = [
    ['a view event without its message', { t: 'view', v: null }],
    ['a msg event without its message', { t: 'msg', m: null }],
    ['a msg event with no content', { t: 'msg', m: { role: 'user' } }],
    ['a history event whose history is not a list', { t: 'history', h: 'x', reason: 'compaction' }],
  ];
  for (const [what, bad] of shapes) {
    it(`${what}: the session loads, the line is reported, the history stays valid`, async () => {
      const dir = tempDir('sess');
      writeFileSync(join(dir, 'sess1.jsonl'), jsonl([meta, { t: 'msg', m: user('one') }, { t: 'msg', m: assistant('two') }, bad]));
      const loaded = await new SessionStore(dir).load('sess1');
      assert.equal(loaded.skipped.length, 1, 'the bad line is reported');
      assert.equal(validateRequest({ model: 'm', max_tokens: 10, messages: [...loaded.history, user('three')] }), null);
    });
  }
});

describe('finding 10: a torn last line swallows the next prompt', () => {
  it('after a crash mid-append, the next turn is saved whole', async () => {
    const dir = tempDir('torn');
    const store = new SessionStore(dir);
    // A kill in the middle of an append leaves half a line and no newline.
    writeFileSync(join(dir, 'sess1.jsonl'), jsonl([meta, { t: 'msg', m: user('one') }, { t: 'msg', m: assistant('two') }]) + '{"t":"msg","m":{"role":"us');
    const loaded = await store.load('sess1');
    const recorder = new SessionRecorder(store, { id: 'sess1', cwd: '/work', model: 'claude-sonnet-4-6', existing: { history: loaded.history, view: loaded.view } });
    const view: ViewMessage[] = [{ kind: 'user', id: 'u3', text: 'three', createdAt: 3 }];
    await recorder.sync([...loaded.history, user('three'), assistant('four')], view, 0);
    const again = await store.load('sess1');
    assert.deepEqual(texts(again.history), ['one', 'two', 'three', 'four']);
  });
});
