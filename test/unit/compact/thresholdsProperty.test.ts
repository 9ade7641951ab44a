import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import type { MessageParam } from '../../../src/api/types';
import { Compactor } from '../../../src/compact/compactor';
import { computeThresholds, fitOutputTokens, OUTPUT_FLOOR_TOKENS, SCALE_BELOW_WINDOW } from '../../../src/conversation/thresholds';
import { estimateTokens } from '../../../src/conversation/tokens';
import { truncateWithCoverage } from '../../../src/compact/compact';
import { compactLimits } from '../../../src/compact/limits';
import { compactFromNotes } from '../../../src/compact/notesCompaction';

/** A Stop that never comes. */
const live = new AbortController().signal;

describe('thresholds hold for every window (property)', () => {
  it('are never negative and keep warning < auto-compact < blocking < effective window <= window, 8k to 1M', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: 1_000_000 }), fc.integer({ min: 1, max: 200_000 }), (window, maxOutput) => {
        const t = computeThresholds(window, maxOutput);
        for (const [k, v] of Object.entries(t)) assert.ok(Number.isInteger(v) && v >= 0, `${k} = ${v} for window ${window}, output ${maxOutput}`);
        assert.ok(t.warningAt < t.autoCompactAt, `warning ${t.warningAt} < auto ${t.autoCompactAt}`);
        assert.ok(t.autoCompactAt < t.blockingAt, `auto ${t.autoCompactAt} < blocking ${t.blockingAt}`);
        assert.ok(t.blockingAt < t.effectiveWindow, `blocking ${t.blockingAt} < effective ${t.effectiveWindow}`);
        assert.ok(t.effectiveWindow <= window);
        assert.ok(t.errorAt <= t.autoCompactAt);
        // Room enough to work in: the warning starts past half of the window.
        assert.ok(t.warningAt >= window / 2, `warning at ${t.warningAt} of ${window}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('leave room for an answer below the blocking limit: input + the max_tokens asked stays inside the window, 8k to 1M', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: 1_000_000 }), fc.integer({ min: 1, max: 200_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (window, maxOutput, share) => {
        const t = computeThresholds(window, maxOutput);
        const cap = Math.min(maxOutput, 32_000);
        const used = Math.floor(share * (t.blockingAt - 1));
        const out = fitOutputTokens(t, used, cap);
        assert.ok(out >= 1 && out <= cap, `max_tokens ${out}, cap ${cap}`);
        assert.ok(used + out <= window, `${used} + ${out} > ${window}`);
        assert.ok(out >= Math.min(cap, OUTPUT_FLOOR_TOKENS, window - t.effectiveWindow), `max_tokens ${out} under the floor at ${used} of ${window}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('keep the seeds\' figures from the scaling window up', () => {
    const t = computeThresholds(SCALE_BELOW_WINDOW, 64_000);
    assert.deepEqual([t.effectiveWindow, t.warningAt, t.autoCompactAt, t.blockingAt], [180_000, 160_000, 167_000, 177_000]);
    const m = computeThresholds(1_000_000, 64_000);
    assert.deepEqual([m.effectiveWindow, m.autoCompactAt, m.blockingAt], [980_000, 967_000, 977_000]);
  });

  it('scale the buffers down in proportion below it (32k window: auto-compact at 27k, not -232)', () => {
    const t = computeThresholds(32_768, 32_000);
    assert.ok(t.autoCompactAt > 20_000, `auto-compact at ${t.autoCompactAt}`);
    const half = computeThresholds(100_000, 64_000);
    assert.equal(half.effectiveWindow, 90_000);
    assert.equal(half.autoCompactAt, 83_500);
    assert.equal(half.blockingAt, 88_500);
  });

  it('refuse nonsense input instead of computing negative limits', () => {
    assert.throws(() => computeThresholds(0, 1000), /context window/);
    assert.throws(() => computeThresholds(Number.NaN, 1000), /context window/);
    const t = computeThresholds(8_000, 0);
    assert.ok(t.effectiveWindow > 0 && t.effectiveWindow <= 8_000);
  });
});

describe('the first prompt never compacts', () => {
  it('a lone first prompt over the threshold on a 32k window goes out as it is', async () => {
    let summaries = 0;
    const c = new Compactor({
      settings: () => ({ autoCompact: true, microCompact: true }),
      thresholds: () => computeThresholds(32_768, 32_000),
      compactable: new Set<string>(),
      now: () => 0,
      summarize: async () => {
        summaries++;
        throw new Error('must not be called');
      },
    });
    const first: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'hi there' }] }];
    for (const used of [10, 28_000, 31_000, 40_000]) {
      const out = await c.beforeRequest(first, { usedTokens: used, lastAssistantAt: undefined, signal: live });
      assert.deepEqual(out.history, first);
    }
    assert.equal(summaries, 0);
    assert.equal(c.autoDisabledReason, undefined, 'the thrash guard was not tripped');
  });
});

describe('compaction frees room on every window (property)', () => {
  it('a history just over the auto-compact threshold compacts to well below it, by notes or by truncation, 8k to 1M', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: 1_000_000 }), fc.integer({ min: 200, max: 8_000 }), (window, resultChars) => {
        const t = computeThresholds(window, 32_000);
        const limits = compactLimits(t);
        assert.ok(limits.summaryMaxTokens + t.autoCompactAt <= window, 'the summary request fits the window');
        const h: MessageParam[] = [];
        const result = 'x'.repeat(resultChars);
        for (let i = 0, total = 0; total <= t.autoCompactAt; i++) {
          const round: MessageParam[] = [
            { role: 'user', content: [{ type: 'text', text: `request ${i}` }] },
            { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `f${i}` } }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: result }] },
            { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] },
          ];
          h.push(...round);
          total += estimateTokens(round);
        }
        const truncated = truncateWithCoverage(h, limits.keepMaxTokens, limits.carryTokens);
        assert.ok(estimateTokens(truncated.history) < t.autoCompactAt * 0.75, `truncation: ${estimateTokens(truncated.history)} of ${t.autoCompactAt}`);
        const notes = compactFromNotes(h, '# Session notes\nthe work so far', h.length, limits);
        assert.ok(notes.ok, notes.ok ? '' : notes.reason);
        if (notes.ok) assert.ok(notes.result.tokensAfter < t.autoCompactAt * 0.75, `notes: ${notes.result.tokensAfter} of ${t.autoCompactAt}`);
      }),
      { numRuns: 40 },
    );
  });

  it('Compactor.isBlocked holds at the blocking limit for any window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: 1_000_000 }), (window) => {
        const t = computeThresholds(window, 32_000);
        const c = new Compactor({ settings: () => ({ autoCompact: true, microCompact: true }), compactable: new Set<string>(), thresholds: () => t, now: () => 0, summarize: () => Promise.reject(new Error('unused')) });
        assert.equal(c.isBlocked(t.blockingAt), true);
        assert.equal(c.isBlocked(t.blockingAt - 1), false);
        assert.equal(c.isBlocked(t.autoCompactAt), false, 'auto-compaction comes before blocking');
      }),
      { numRuns: 300 },
    );
  });
});
