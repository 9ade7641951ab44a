import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import { computeThresholds } from '../../../src/conversation/thresholds';
import { compactLimits } from '../../../src/compact/limits';

// Mutation testing found that no test pinned these figures: each could be raised to its uncapped
// share, or the cap turned into a floor, and every compaction test still passed.
describe('compaction limits follow the window', () => {
  it("are the seeds' figures on a 200k window", () => {
    assert.deepEqual(compactLimits(computeThresholds(200_000, 64_000)), {
      keepMinTokens: 10_000,
      keepMaxTokens: 40_000,
      carryTokens: 16_000,
      summaryMaxTokens: 20_000,
      requestMaxTokens: 150_450, // 85 % of the 177k blocking limit
      requestHardMaxTokens: 177_000, // the blocking limit itself, for a newest round alone
      fileBudgetTokens: 50_000,
      fileMaxTokens: 5_000,
    });
  });

  it('shrink to their shares of the auto-compact threshold on a 32k window', () => {
    const t = computeThresholds(32_768, 32_000);
    assert.equal(t.autoCompactAt, 27_361);
    assert.deepEqual(compactLimits(t), {
      keepMinTokens: 1_641, // 6 %
      keepMaxTokens: 6_840, // 25 %
      carryTokens: 2_736, // 10 %
      summaryMaxTokens: 5_407, // what the window leaves above the threshold
      requestMaxTokens: 24_649, // 85 % of the blocking limit
      requestHardMaxTokens: 28_999,
      fileBudgetTokens: 8_208, // 30 %
      fileMaxTokens: 1_641, // 6 %
    });
  });

  it('give a summary at least 256 tokens even when the threshold sits at the window', () => {
    const t = { ...computeThresholds(32_768, 32_000), autoCompactAt: 32_700 };
    assert.equal(compactLimits(t).summaryMaxTokens, 256);
  });

  it("never exceed the seeds' figures nor their share of the threshold, 8k to 1M (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: 1_000_000 }), fc.integer({ min: 1, max: 200_000 }), (window, maxOutput) => {
        const t = computeThresholds(window, maxOutput);
        const l = compactLimits(t);
        const shares = { keepMinTokens: [10_000, 0.06], keepMaxTokens: [40_000, 0.25], carryTokens: [16_000, 0.1], fileBudgetTokens: [50_000, 0.3], fileMaxTokens: [5_000, 0.06] } as const;
        for (const [k, [seed, share]] of Object.entries(shares)) {
          const v = l[k as keyof typeof shares];
          assert.equal(v, Math.min(seed, Math.floor(t.autoCompactAt * share)), `${k} on window ${window}`);
        }
        assert.ok(l.keepMinTokens <= l.keepMaxTokens);
        assert.ok(l.summaryMaxTokens >= 256 && l.summaryMaxTokens <= 20_000);
      }),
      { numRuns: 300 },
    );
  });
});
