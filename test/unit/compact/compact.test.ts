import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MessagesClient } from '../../../src/api/messagesClient';
import type { MessageParam } from '../../../src/api/types';
import { compactWithSummary, COMPACT_BOUNDARY, findAnchors, formatSummary, splitRounds } from '../../../src/compact/compact';
import { Compactor, MAX_CONSECUTIVE_FAILURES, splitPendingPrompt } from '../../../src/compact/compactor';
import { computeThresholds } from '../../../src/conversation/thresholds';
import { startStandin, type Standin } from '../../standin/server';
import { validateRequest } from '../../standin/validate';

/** A Stop that never comes. */
const live = new AbortController().signal;

function conversation(rounds: number): MessageParam[] {
  const h: MessageParam[] = [];
  for (let i = 0; i < rounds; i++) {
    h.push({ role: 'user', content: [{ type: 'text', text: i === 2 ? "No, don't use lodash here." : `request ${i}` }] });
    h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `f${i}.ts` } }] });
    h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `contents ${i}`, ...(i === 3 ? { is_error: true } : {}) }] });
    h.push({ role: 'assistant', content: [{ type: 'text', text: i === 4 ? 'Fixed: the import now resolves and the tests pass.' : `answer ${i}` }] });
  }
  return h;
}

const SUMMARY = '<analysis>scratch thoughts</analysis>\n<summary>1. Primary request: build the thing.\n8. Current work: editing f4.ts</summary>';

describe('compaction by LLM summary (against the stand-in)', () => {
  let standin: Standin;
  let client: MessagesClient;
  before(async () => {
    standin = await startStandin();
    client = new MessagesClient({ apiKey: 'k', baseUrl: standin.url, maxRetries: 0 });
  });
  after(() => standin.close());

  it('archives first, asks for the nine sections, strips the analysis and keeps anchors verbatim', async () => {
    standin.reset();
    standin.enqueue({ content: [{ type: 'text', text: SUMMARY }] });
    const history = conversation(6);
    const archived: MessageParam[][] = [];
    const r = await compactWithSummary({
      history,
      client,
      model: 'claude-sonnet-4-6',
      signal: new AbortController().signal,
      focus: 'the build',
      recentFiles: [{ path: 'f4.ts', content: 'export const x = 1;' }],
      archive: async (h) => void archived.push(h.slice()),
    });
    assert.equal(archived.length, 1);
    assert.equal(archived[0]!.length, history.length);
    const req = standin.requests.at(-1)!;
    assert.equal(req.status, 200, req.validationError ?? '');
    const ask = JSON.stringify((req.body as { messages: MessageParam[] }).messages.at(-1));
    for (const section of ['Primary request', 'Key technical concepts', 'Files and code', 'Errors and fixes', 'Problem solving', 'All user messages', 'Pending tasks', 'Current work', 'Next step']) {
      assert.ok(ask.includes(section), section);
    }
    assert.match(ask, /focus on: the build/);
    assert.doesNotMatch(r.summary, /scratch thoughts/);
    assert.match(r.summary, /Primary request: build the thing/);
    assert.equal(r.history.length, 1);
    const text = JSON.stringify(r.history);
    assert.ok(text.includes(COMPACT_BOUNDARY));
    assert.ok(text.includes("No, don't use lodash here."), 'a user correction survives verbatim');
    assert.ok(text.includes('Fixed: the import now resolves'), 'an error resolution survives verbatim');
    assert.ok(text.includes('export const x = 1;'), 'recently read files are put back');
    assert.equal(validateRequest({ model: 'm', max_tokens: 10, messages: r.history }), null, 'the compacted history is a valid request');
    assert.ok(r.tokensAfter < r.tokensBefore * 4);
  });

  it('drops the oldest rounds and retries when the summary request is itself too long', async () => {
    standin.reset();
    const tooLong = { content: [{ type: 'text' as const, text: 'x' }], fault: { kind: 'http' as const, status: 400 as const, message: 'prompt is too long: 210000 tokens > 200000 maximum' } };
    standin.enqueue(tooLong, tooLong, { content: [{ type: 'text', text: SUMMARY }] });
    const r = await compactWithSummary({ history: conversation(10), client, model: 'claude-sonnet-4-6', signal: new AbortController().signal });
    assert.ok(r.droppedRounds >= 2);
    const sizes = standin.requests.map((q) => (q.body as { messages: unknown[] }).messages.length);
    assert.ok(sizes[1]! < sizes[0]! && sizes[2]! < sizes[1]!, `each retry is smaller: ${sizes.join(', ')}`);
  });

  it('gives up after three too-long retries', async () => {
    standin.reset();
    const tooLong = { content: [{ type: 'text' as const, text: 'x' }], fault: { kind: 'http' as const, status: 400 as const, message: 'prompt is too long' } };
    standin.enqueue(tooLong, tooLong, tooLong, tooLong);
    await assert.rejects(compactWithSummary({ history: conversation(10), client, model: 'claude-sonnet-4-6', signal: new AbortController().signal }), /too long/);
    assert.equal(standin.requests.length, 4);
  });
});

describe('compactor guards', () => {
  const t = computeThresholds(200_000, 64_000);
  function make(summarize: () => Promise<never> | Promise<{ history: MessageParam[]; summary: string; tokensBefore: number; tokensAfter: number; anchors: []; droppedRounds: number; source: 'llm'; coverage: { summaryCovers: [number, number]; keptFrom: number } }>) {
    const notices: string[] = [];
    const c = new Compactor({ settings: () => ({ autoCompact: true, microCompact: false }), compactable: new Set<string>(), thresholds: () => t, now: () => 0, summarize });
    c.onNotice((n) => notices.push(n.text));
    return { c, notices };
  }
  const small: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }];
  const coverage = { summaryCovers: [0, 8] as [number, number], keptFrom: 8 };

  it('does nothing below the threshold and compacts above it', async () => {
    let calls = 0;
    const { c } = make(async () => (calls++, { history: small, summary: 's', tokensBefore: 1, tokensAfter: 1, anchors: [], droppedRounds: 0, source: 'llm', coverage }));
    const h = conversation(2);
    assert.equal(await c.beforeRequest(h, { usedTokens: t.autoCompactAt - 1, lastAssistantAt: undefined, signal: live }).then((x) => x.history.length), h.length);
    assert.equal(calls, 0);
    assert.deepEqual((await c.beforeRequest(h, { usedTokens: t.autoCompactAt, lastAssistantAt: undefined, signal: live })).history, small);
    assert.equal(calls, 1);
  });

  it('near the threshold, decides on the exact count from count_tokens rather than the estimate', async () => {
    let calls = 0;
    const counted: number[] = [];
    const make2 = (exact: number) =>
      new Compactor({
        settings: () => ({ autoCompact: true, microCompact: false }),
        compactable: new Set<string>(),
        thresholds: () => t,
        now: () => 0,
        countTokens: async () => (counted.push(exact), exact),
        summarize: async () => (calls++, { history: small, summary: 's', tokensBefore: 1, tokensAfter: 1, anchors: [], droppedRounds: 0, source: 'llm' as const, coverage }),
      });
    await make2(t.autoCompactAt + 500).beforeRequest(conversation(2), { usedTokens: t.autoCompactAt - 1000, lastAssistantAt: undefined, signal: live });
    assert.equal(calls, 1, 'the estimate was low; the exact count is over: compact');
    await make2(t.autoCompactAt - 500).beforeRequest(conversation(2), { usedTokens: t.autoCompactAt + 1000, lastAssistantAt: undefined, signal: live });
    assert.equal(calls, 1, 'the estimate was high; the exact count is under: no compaction');
    await make2(0).beforeRequest(conversation(2), { usedTokens: 1000, lastAssistantAt: undefined, signal: live });
    assert.equal(counted.length, 2, 'far from the threshold, no count is requested');
  });

  it('stops after three consecutive failures (circuit breaker)', async () => {
    let calls = 0;
    const { c, notices } = make(async () => {
      calls++;
      throw new Error('boom');
    });
    for (let i = 0; i < 6; i++) await c.beforeRequest(conversation(2), { usedTokens: t.autoCompactAt + 1, lastAssistantAt: undefined, signal: live });
    assert.equal(calls, MAX_CONSECUTIVE_FAILURES);
    assert.match(notices.at(-1)!, /3 times in a row/);
  });

  it('stops and says so when compaction does not free room (compacting again within 3 turns)', async () => {
    let calls = 0;
    const { c, notices } = make(async () => (calls++, { history: small, summary: 's', tokensBefore: 1, tokensAfter: 1, anchors: [], droppedRounds: 0, source: 'llm', coverage }));
    await c.beforeRequest(conversation(2), { usedTokens: t.autoCompactAt + 1, lastAssistantAt: undefined, signal: live });
    // The summary and one answer on top of it, already over the threshold again.
    const again: MessageParam[] = [...small, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: [{ type: 'text', text: 'more' }] }];
    await c.beforeRequest(again, { usedTokens: t.autoCompactAt + 1, lastAssistantAt: undefined, signal: live });
    await c.beforeRequest(again, { usedTokens: t.autoCompactAt + 1, lastAssistantAt: undefined, signal: live });
    assert.equal(calls, 1);
    assert.match(notices.join('\n'), /Automatic compaction stopped/);
    assert.ok(c.autoDisabledReason);
  });
});

describe('compaction helpers', () => {
  it('splits rounds at user text, keeping tool results with their round', () => {
    const rounds = splitRounds(conversation(3));
    assert.equal(rounds.length, 3);
    assert.ok(rounds.every((r) => r.length === 4));
  });
  it('formats a summary without its analysis, even if the closing tag is missing', () => {
    assert.equal(formatSummary('<analysis>x</analysis><summary>kept'), 'kept');
  });
  it('finds corrections and resolutions', () => {
    const kinds = findAnchors(conversation(6)).map((a) => a.kind);
    assert.deepEqual(kinds, ['correction', 'resolution']);
  });
});

describe('a prompt not yet answered survives compaction word for word', () => {
  it('keeps the trailing prompt after the summary, but not tool results (they need their calls)', () => {
    const q: MessageParam = { role: 'user', content: [{ type: 'text', text: 'Which chapter was last?' }] };
    const h: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'old' }] }, { role: 'assistant', content: [{ type: 'text', text: 'a' }] }, q];
    const split = splitPendingPrompt(h);
    assert.equal(split.head.length, 2);
    assert.deepEqual(split.prompt, q.content);
    const withResults: MessageParam[] = [...h.slice(0, 2), { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] }];
    assert.equal(splitPendingPrompt(withResults).prompt, undefined);
    assert.equal(splitPendingPrompt(h.slice(0, 2)).prompt, undefined, 'an answered history keeps nothing aside');
  });
});

describe('compactor: two triggers at once', () => {
  it('share one run: one summary request, the same result for both', async () => {
    const t = computeThresholds(200_000, 64_000);
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const result = { history: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'summary' }] }], summary: 's', tokensBefore: 10, tokensAfter: 1, anchors: [] as [], droppedRounds: 0, source: 'llm' as const, coverage: { summaryCovers: [0, 1] as [number, number], keptFrom: 1 } };
    const c = new Compactor({
      settings: () => ({ autoCompact: true, microCompact: false }),
      compactable: new Set<string>(),
      thresholds: () => t,
      now: () => 0,
      summarize: async () => {
        calls++;
        await gate;
        return result;
      },
    });
    let fired = 0;
    c.onDidCompact(() => fired++);
    const h = conversation(3);
    const first = c.compact(h, 'auto', live);
    const second = c.compact(h, 'manual', live);
    release();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(calls, 1);
    assert.equal(fired, 1, 'one divider, not two');
    assert.equal(a, b);
    const third = await c.compact(h, 'manual', live).catch(() => undefined);
    assert.equal(calls, 2, 'once finished, the next compaction is a new run');
    assert.ok(third);
  });
});
