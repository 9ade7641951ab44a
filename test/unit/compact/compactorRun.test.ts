// One compaction run as its callers see it: which source it uses, what it announces, how it
// fails, and that concurrent triggers share it whether it succeeds or fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContentBlockParam, MessageParam } from '../../../src/api/types';
import type { CompactionResult } from '../../../src/compact/compact';
import { Compactor, MAX_CONSECUTIVE_FAILURES, type CompactedEvent, type CompactorDeps } from '../../../src/compact/compactor';
import { computeThresholds } from '../../../src/conversation/thresholds';
import { estimateTokens } from '../../../src/conversation/tokens';

/** A Stop that never comes. */
const live = new AbortController().signal;

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });
/** An answered conversation: nothing is held back as a pending prompt. */
const answered: MessageParam[] = [user('q1'), assistant('a1'), user('q2'), assistant('a2')];

function result(text: string, source: CompactionResult['source']): CompactionResult {
  return { history: [user(text)], summary: text, tokensBefore: 100, tokensAfter: 7, anchors: [], droppedRounds: 0, source, coverage: { summaryCovers: [0, 3], keptFrom: 4 } };
}

function compactor(over: Partial<CompactorDeps>): Compactor {
  return new Compactor({
    settings: () => ({ autoCompact: true, microCompact: false }),
    compactable: new Set<string>(),
    thresholds: () => computeThresholds(200_000, 64_000),
    now: () => 0,
    summarize: async () => result('llm summary', 'llm'),
    ...over,
  });
}

describe('compactor: one run', () => {
  it('uses session memory when there is no focus, and a summary when there is one', async () => {
    const seen: string[] = [];
    const c = compactor({
      fromSessionMemory: async () => (seen.push('memory'), result('notes', 'session-memory')),
      summarize: async (_h, focus) => (seen.push(`summary ${focus}`), result('llm summary', 'llm')),
    });
    assert.equal((await c.compact(answered, 'manual', live)).source, 'session-memory');
    assert.deepEqual(seen, ['memory']);
    // A focus asks for a summary written around it; the notes cannot take one.
    assert.equal((await c.compact(answered, 'manual', live, 'the parser')).source, 'llm');
    assert.deepEqual(seen, ['memory', 'summary the parser']);
  });

  it('falls back to a summary when session memory has nothing usable', async () => {
    const c = compactor({ fromSessionMemory: async () => undefined });
    assert.equal((await c.compact(answered, 'auto', live)).source, 'llm');
  });

  it('announces what it did: the result, the history before it, the trigger and the focus', async () => {
    const c = compactor({});
    const events: CompactedEvent[] = [];
    c.onDidCompact((e) => events.push(e));
    const history = answered.slice();
    const r = await c.compact(history, 'tool', live, 'tests');
    assert.equal(events.length, 1);
    assert.equal(events[0]!.result, r);
    assert.equal(events[0]!.trigger, 'tool');
    assert.equal(events[0]!.focus, 'tests');
    assert.deepEqual(events[0]!.before, answered);
    // The history for Undo is the listener's own: changing it leaves the caller's alone.
    events[0]!.before.push(user('changed by a listener'));
    assert.deepEqual(history, answered);
  });

  it('keeps a pending prompt word for word after the summary, and counts it', async () => {
    const prompt: ContentBlockParam[] = [{ type: 'text', text: 'Now rename the parser, please.' }];
    const summarized: MessageParam[][] = [];
    const c = compactor({ summarize: async (h) => (summarized.push(h.slice()), result('llm summary', 'llm')) });
    const r = await c.compact([...answered, { role: 'user', content: prompt }], 'auto', live);
    assert.deepEqual(summarized, [answered], 'the prompt is not summarised');
    assert.deepEqual(r.history.at(-1)!.content.slice(-1), prompt);
    assert.equal(r.tokensAfter, 7 + estimateTokens(prompt));
    assert.equal(r.summary, 'llm summary');
  });

  it('reports each failure with its reason: warnings first, then an error when automatic compaction gives up', async () => {
    const c = compactor({ summarize: async () => Promise.reject(new Error('overloaded')) });
    const notices: Array<{ level: string; text: string }> = [];
    c.onNotice((n) => notices.push(n));
    for (let i = 0; i < MAX_CONSECUTIVE_FAILURES; i++) await assert.rejects(c.compact(answered, 'manual', live), /overloaded/);
    assert.equal(notices.length, MAX_CONSECUTIVE_FAILURES);
    for (const n of notices.slice(0, -1)) {
      assert.equal(n.level, 'warning');
      assert.equal(n.text, 'Compaction failed: overloaded');
    }
    assert.equal(notices.at(-1)!.level, 'error');
    assert.match(notices.at(-1)!.text, new RegExp(`failed ${MAX_CONSECUTIVE_FAILURES} times in a row \\(overloaded\\)`));
  });

  it('two triggers during a failing run share it: one request, one failure counted, and the next call runs again', async () => {
    let calls = 0;
    let fail!: (e: Error) => void;
    const c = compactor({
      summarize: () => {
        calls++;
        return calls === 1 ? new Promise<CompactionResult>((_r, reject) => (fail = reject)) : Promise.resolve(result('second', 'llm'));
      },
    });
    const notices: string[] = [];
    c.onNotice((n) => notices.push(n.level));
    const first = c.compact(answered, 'auto', live);
    const second = c.compact(answered, 'manual', live);
    await new Promise((r) => setImmediate(r));
    fail(new Error('stream dropped'));
    await assert.rejects(first, /stream dropped/);
    await assert.rejects(second, /stream dropped/);
    assert.equal(calls, 1);
    assert.deepEqual(notices, ['warning'], 'one failure, reported once');
    assert.equal((await c.compact(answered, 'manual', live)).summary, 'second');
    assert.equal(calls, 2);
  });
});
