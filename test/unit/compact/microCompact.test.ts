import assert from 'node:assert/strict';
import { createToolRegistry } from '../../../src/tools/builtin';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { batchFloor, CLEARED_PREFIX, cacheHints, continuationOdds, GUESS_BREAK_EVEN, microCompact } from '../../../src/compact/microCompact';

/** A session of `n` Read calls, each returning `size` characters. */
function session(n: number, size: number, tool = 'Read'): MessageParam[] {
  const h: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
  for (let i = 0; i < n; i++) {
    h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: tool, input: { file_path: `src/f${i}.ts` } }] });
    h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${i}:`.padEnd(size, 'x') }] });
  }
  h.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
  return h;
}

const results = (h: MessageParam[]) =>
  h.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result') as Array<{ tool_use_id: string; content: string }>;

const base = { now: 1_000_000, lastAssistantAt: 1_000_000 - 1000, usedTokens: 10_000, warningAt: 150_000, compactable: createToolRegistry().names('compactable') };

describe('micro-compaction', () => {
  it('leaves a small session alone', () => {
    const d = microCompact({ ...base, history: session(4, 50_000) });
    assert.equal(d.cleared, 0);
    assert.equal(d.reason, 'none');
  });

  it('clears old results in one batch when the reads saved outweigh the cache rewrite, keeping pairs intact', () => {
    // 20 results of ~12.5k tokens: clearing the 17 oldest saves ~212k tokens on each of the
    // coming turns, against rewriting the ~37k after them once. The three latest stay.
    const h = session(20, 50_000);
    const d = microCompact({ ...base, history: h });
    assert.equal(d.reason, 'cost');
    assert.equal(d.cleared, 17);
    const r = results(d.history);
    assert.equal(r.length, 20, 'every tool_use still has its tool_result');
    for (const x of r.slice(0, 17)) {
      assert.ok(x.content.startsWith(CLEARED_PREFIX));
      assert.match(x.content, /Call Read again/, 'the placeholder names the tool to call again');
      assert.doesNotMatch(x.content, /src\/f/, 'not the target: the call just before names it, and every request would carry it twice');
    }
    const calls = d.history.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_use');
    assert.deepEqual(calls, h.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_use'), 'every call, with its target, is as it was');
    for (const x of r.slice(17)) assert.ok(!x.content.startsWith(CLEARED_PREFIX));
    assert.equal(d.history.length, h.length);
    // Idempotent: a second pass finds nothing new to clear below the batch size.
    assert.equal(microCompact({ ...base, history: d.history }).cleared, 0);
  });

  it('does not clear when a small saving would rewrite a large cached suffix', () => {
    // Old results are small; the recent ones (which would be rewritten) are huge.
    const h = session(8, 200);
    for (let i = 0; i < 5; i++) {
      h.push({ role: 'user', content: [{ type: 'text', text: 'more' }] });
      h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `big${i}`, name: 'Read', input: { file_path: `big${i}` } }] });
      h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `big${i}`, content: 'y'.repeat(400_000) }] });
      h.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    }
    const d = microCompact({ ...base, history: h, config: { clearAtLeastTokens: 100 } });
    assert.equal(d.cleared, 0);
  });

  it('after a gap longer than the cache lifetime, clears all but the most recent few at once', () => {
    const h = session(8, 400);
    const d = microCompact({ ...base, lastAssistantAt: base.now - 6 * 60_000, history: h });
    assert.equal(d.reason, 'time-gap');
    assert.equal(d.cleared, 5, 'all but the three latest');
    const one = microCompact({ ...base, lastAssistantAt: base.now - 6 * 60_000, history: h, config: { keepRecent: 0 } });
    assert.equal(one.cleared, 7, 'never clears the last one');
  });

  it('waits for a batch of a quarter of the warning threshold, between 20k and 40k (40k on a 200k window)', () => {
    assert.deepEqual([batchFloor(26_214), batchFloor(80_000), batchFloor(160_000), batchFloor(960_000)], [20_000, 20_000, 40_000, 40_000]);
    // Old results worth ~30k tokens, and a future long enough that the reads saved always win.
    const h = session(8, 24_000);
    const config = { expectedFutureTurns: 1_000 };
    const saved = microCompact({ ...base, warningAt: 80_000, history: h, config });
    assert.equal(saved.reason, 'cost', 'a 100k window clears it');
    assert.ok(saved.tokensSaved > 20_000 && saved.tokensSaved < 40_000, `saved ${saved.tokensSaved}`);
    assert.equal(microCompact({ ...base, warningAt: 160_000, history: h, config }).cleared, 0, 'a 200k window waits for 40k');
  });

  it('under pressure near the window, clears regardless of cache cost', () => {
    const d = microCompact({ ...base, usedTokens: 160_000, history: session(12, 20_000), config: { expectedFutureTurns: 0 } });
    assert.equal(d.reason, 'pressure');
    assert.ok(d.tokensSaved > 20_000);
  });

  it('never touches results of tools that are not compactable', () => {
    const d = microCompact({ ...base, lastAssistantAt: 0, history: session(10, 400, 'AskUser') });
    assert.equal(d.cleared, 0);
  });

  it('expects a clearing at the next request only mid-task, when one more result like the latest tips the decision', () => {
    // session() ends with the model's words; mid-task the history ends with a tool result.
    const midTask = (n: number) => session(n, 20_000).slice(0, -1);
    let n = 4;
    while (microCompact({ ...base, history: midTask(n) }).cleared === 0) n++;
    assert.equal(cacheHints({ ...base, history: midTask(n - 1) }).clearsNext, true, `the request before the first clearing (${n - 1} results) expects it`);
    assert.equal(cacheHints({ ...base, history: midTask(n - 2) }).clearsNext, false, 'two results short: not yet');
    assert.equal(cacheHints({ ...base, history: midTask(n) }).clearsNext, false, 'this request clears itself');
    const afterPrompt: MessageParam[] = [...session(n - 1, 20_000), { role: 'user', content: [{ type: 'text', text: 'and now?' }] }];
    assert.equal(cacheHints({ ...base, history: afterPrompt }).clearsNext, false, 'after a prompt the model may answer in words: no guess');
    // An earlier turn of small results: one that stopped at this many rounds forbids the guess, one that went on allows it.
    const earlier = (rounds: number): MessageParam[] => [
      { role: 'user', content: [{ type: 'text', text: 'earlier' }] },
      ...Array.from({ length: rounds }, (_, i): MessageParam[] => [
        { role: 'assistant', content: [{ type: 'tool_use', id: `e${i}`, name: 'Read', input: { file_path: `e${i}` } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `e${i}`, content: 'small' }] },
      ]).flat(),
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ];
    assert.equal(cacheHints({ ...base, history: [...earlier(n - 1), ...midTask(n - 1)] }).clearsNext, false);
    assert.equal(cacheHints({ ...base, history: [...earlier(n), ...midTask(n - 1)] }).clearsNext, true);
  });

  it('the next clearing starts at the oldest result it may take', () => {
    assert.equal(cacheHints({ ...base, history: session(6, 20_000) }).frontier, 't0');
    const d = microCompact({ ...base, history: session(20, 50_000) });
    assert.equal(cacheHints({ ...base, history: d.history }).frontier, 't17', 'after a clearing: the oldest result still whole');
    assert.equal(cacheHints({ ...base, history: session(6, 50) }).frontier, undefined, 'nothing worth clearing');
  });

  it('guesses only where earlier turns say the model goes on: the share of turns that reached this many tool rounds and went further', () => {
    const prompt = (t: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text: t }] });
    const call = (id: string): MessageParam[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: id } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] },
    ];
    const words: MessageParam = { role: 'assistant', content: [{ type: 'text', text: 'done' }] };
    // Two earlier turns of three rounds each, then a turn two rounds in.
    const h: MessageParam[] = [prompt('a'), ...call('a1'), ...call('a2'), ...call('a3'), words, prompt('b'), ...call('b1'), ...call('b2'), ...call('b3'), words, prompt('c'), ...call('c1'), ...call('c2')];
    assert.ok(continuationOdds(h) >= GUESS_BREAK_EVEN, 'both earlier turns went past two rounds');
    assert.ok(continuationOdds([...h, ...call('c3')]) < GUESS_BREAK_EVEN, 'neither went past three');
    assert.equal(continuationOdds([prompt('a'), ...call('a1')]), 0.8, 'no earlier turn: the prior');
    assert.ok(GUESS_BREAK_EVEN > 0.75 && GUESS_BREAK_EVEN < 0.8);
  });
});
