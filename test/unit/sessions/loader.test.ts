import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { appendUserContent } from '../../../src/conversation/history';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore, summarize } from '../../../src/sessions/sessionStore';
import { validateRequest } from '../../standin/validate';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-load-'));
const text = (role: 'user' | 'assistant', t: string): MessageParam => ({ role, content: [{ type: 'text', text: t }] });

/** Would the API take this history with one more prompt on it? */
function acceptsNextPrompt(history: readonly MessageParam[]): string | null {
  return validateRequest({ model: 'm', max_tokens: 10, messages: appendUserContent(history, [{ type: 'text', text: 'next' }]) });
}

async function started(id: string) {
  const store = new SessionStore(tmp());
  const rec = new SessionRecorder(store, { id, cwd: '/w', model: 'm' });
  await rec.sync([text('user', 'first question')], [{ kind: 'user', id: 'u1', text: 'first question', createdAt: 1 }], 1);
  return store;
}

describe('loading a transcript with wrongly shaped lines', () => {
  const hostile = [
    '{"t":"view","v":null}',
    '{"t":"view","v":{"kind":"user"}}',
    '{"t":"history","h":"oops"}',
    '{"t":"history","h":[{"role":"robot","content":5}]}',
    '{"t":"msg","m":null}',
    '{"t":"msg","m":{"role":"robot","content":5}}',
    '{"t":"msg","m":{"role":"user","content":[{"type":"text"}]}}',
    '{"t":"msg","m":{"role":"assistant","content":[{"type":"tool_use","name":"Read"}]}}',
    '{"t":"meta"}',
    '{"t":"title","title":{"x":1}}',
    '{"t":"usage","tokens":"many"}',
    '[1,2]',
    '"a string"',
    '42',
    'null',
    '{"t":7}',
  ];

  it('skips and reports each one, loads the rest, and the session resumes', async () => {
    const store = await started('s');
    const before = readFileSync(store.file('s'), 'utf8').split('\n').length - 1;
    appendFileSync(store.file('s'), `${hostile.join('\n')}\n`);
    appendFileSync(store.file('s'), `${JSON.stringify({ t: 'msg', m: text('assistant', 'an answer') })}\n`);
    const s = await store.load('s');
    assert.equal(s.skipped.length, hostile.length, JSON.stringify(s.skipped));
    assert.deepEqual(s.skipped.map((k) => k.line), hostile.map((_, i) => before + 1 + i));
    assert.deepEqual(s.history, [text('user', 'first question'), text('assistant', 'an answer')]);
    assert.equal(s.view.length, 1);
    assert.equal(s.title, 'first question');
    assert.equal(s.tokens, 1);
    assert.equal(acceptsNextPrompt(s.history), null);
    assert.equal(summarize(s, 0).messageCount, 1);
  });

  it('says what was wrong with a line', async () => {
    const store = await started('r');
    appendFileSync(store.file('r'), '{"t":"view","v":null}\n{"t":"bogus"}\n');
    const s = await store.load('r');
    assert.match(s.skipped[0]!.reason, /view/);
    assert.match(s.skipped[1]!.reason, /unknown event type "bogus"/);
  });

  it('a header that is not a session header makes a clear error, not a TypeError', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'h.jsonl'), '{"t":"meta","v":1}\n');
    await assert.rejects(new SessionStore(dir).load('h'), /no session header/);
  });
});

describe('a history cut off by a crash', () => {
  it('answers tool calls that never got their results, so the next prompt is accepted', async () => {
    const store = await started('c');
    const call: MessageParam = { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }, { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'ls' } }] };
    appendFileSync(store.file('c'), `${JSON.stringify({ t: 'msg', m: call })}\n`);
    const s = await store.load('c');
    assert.equal(s.history.length, 3);
    assert.equal(acceptsNextPrompt(s.history), null);
    assert.match(JSON.stringify(s.history[2]), /toolu_1.*toolu_2/);
    assert.ok(s.repairs.length > 0, 'the repair is reported');
  });

  it('mends pairing broken by a skipped line in the middle', async () => {
    const store = await started('m');
    const call = (id: string): MessageParam => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: {} }] });
    const result = (id: string): MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });
    const lines = [
      { t: 'msg', m: call('a') },
      // the results of `a` were on a line that is now garbage
      { t: 'msg', m: call('b') },
      { t: 'msg', m: result('b') },
      { t: 'msg', m: result('zombie') },
      { t: 'msg', m: text('assistant', 'done') },
    ];
    appendFileSync(store.file('m'), `${JSON.stringify(lines[0])}\n{"t":"msg","m":{"role":"user","content":[{"type":"tool_res\n${lines.slice(1).map((l) => JSON.stringify(l)).join('\n')}\n`);
    const s = await store.load('m');
    assert.equal(s.skipped.length, 1);
    assert.equal(acceptsNextPrompt(s.history), null, JSON.stringify(s.history));
  });
});
