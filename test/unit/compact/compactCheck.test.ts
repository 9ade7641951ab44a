import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { CompactionResult } from '../../../src/compact/compact';
import { Compactor } from '../../../src/compact/compactor';
import { computeThresholds } from '../../../src/conversation/thresholds';
import { estimateTokens } from '../../../src/conversation/tokens';

/** A Stop that never comes. */
const live = new AbortController().signal;

const text = (role: 'user' | 'assistant', t: string): MessageParam => ({ role, content: [{ type: 'text', text: t }] });
const words = (tokens: number) => 'word '.repeat(Math.ceil((tokens * 4) / 5));
const t = computeThresholds(32_768, 32_000);
// Rounds of about 4k tokens each, past the auto-compact threshold in all.
const history: MessageParam[] = Array.from({ length: 8 }, (_, i) => [text('user', `question ${i} ${words(2000)}`), text('assistant', `answer ${i} ${words(2000)}`)]).flat();

function result(h: MessageParam[], extra: Partial<CompactionResult> = {}): CompactionResult {
  return { history: h, summary: 's', tokensBefore: estimateTokens(history), tokensAfter: estimateTokens(h), anchors: [], droppedRounds: 0, source: 'llm', coverage: { summaryCovers: [0, history.length], keptFrom: history.length }, ...extra };
}

function compactor(summary: CompactionResult, measure?: (h: readonly MessageParam[]) => number) {
  const notices: string[] = [];
  const c = new Compactor({ settings: () => ({ autoCompact: true, microCompact: false }), thresholds: () => t, compactable: new Set(), now: () => 0, summarize: async () => summary, ...(measure ? { measure } : {}) });
  c.onNotice((n) => notices.push(n.text));
  return { c, notices };
}

describe('a compaction is checked against the threshold', () => {
  it('files put back that take it over the threshold are dropped', async () => {
    const big = result([text('user', `summary ${words(t.autoCompactAt)}`)], { withoutFiles: [text('user', 'summary')] });
    const r = await compactor(big).c.compact(history, 'auto', live);
    assert.deepEqual(r.history, [text('user', 'summary')]);
    assert.ok(estimateTokens(r.history) < t.autoCompactAt);
  });

  it('a summary over the threshold falls back to keeping the latest rounds, and says so', async () => {
    const r = await compactor(result([text('user', `summary ${words(t.autoCompactAt + 5000)}`)])).c.compact(history, 'auto', live);
    assert.equal(r.source, 'truncation');
    assert.ok(estimateTokens(r.history) < t.autoCompactAt, `${estimateTokens(r.history)} of ${t.autoCompactAt}`);
    // The notice the user reads in place of a summary.
    assert.match(r.summary, /still too large/);
    assert.match(r.summary, /oldest part was dropped/);
  });

  it('a result that lands exactly on the threshold is not below it: the files are dropped', async () => {
    const atLimit = result([text('user', 'summary with files')], { withoutFiles: [text('user', 'summary')] });
    const first = (h: readonly MessageParam[]) => ((h[0]?.content as Array<{ text?: string }>)[0]?.text ?? '');
    const r = await compactor(atLimit, (h) => (first(h) === 'summary with files' ? t.autoCompactAt : estimateTokens(h))).c.compact(history, 'auto', live);
    assert.deepEqual(r.history, [text('user', 'summary')]);
  });

  it('nothing small enough: it fails with a notice and the history is not replaced', async () => {
    // One round bigger than the threshold: truncation keeps it whole, so it cannot help.
    const one = [text('user', words(t.autoCompactAt + 2000)), text('assistant', 'ok')];
    const { c, notices } = compactor(result([text('user', `summary ${words(t.autoCompactAt + 5000)}`)]));
    let fired = 0;
    c.onDidCompact(() => fired++);
    await assert.rejects(c.compact(one, 'auto', live), /not below/);
    assert.equal(fired, 0);
    assert.match(notices.at(-1) ?? '', /Compaction failed/);
  });
});
