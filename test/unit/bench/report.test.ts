import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunFigures } from '../../../bench/cost/measure';
import { failures, flatten, stored, type SessionOutcome } from '../../../bench/cost/report';
import { billedOf } from '../../../bench/cost/accounting';

const figures = (over: Partial<RunFigures> = {}): RunFigures => ({
  billed: 1_000_000,
  billedMain: 800_000,
  billedBackground: 200_000,
  uncached: 0,
  written: 100_000,
  read: 1_000_000,
  output: 1_000,
  requestsMain: 61,
  requestsBackground: 3,
  refusedTooLong: 0,
  backgroundReadShare: 0.95,
  peakPrompt: 120_000,
  mainChecked: 61,
  verbatimMisses: 0,
  completed: 1,
  floor: 900_000,
  floorClearings: 8,
  ...over,
});

const outcome = (t: Partial<RunFigures>, referenceBilled?: number): SessionOutcome => ({
  variant: 'full',
  name: 'chat',
  threadline: figures(t),
  baseline: figures({ billed: 2_000_000 }),
  ...(referenceBilled ? { reference: stored(figures({ billed: referenceBilled, billedMain: referenceBilled })) } : {}),
});

describe('cost benchmark targets', () => {
  it('passes figures within twice their targets', () => {
    // chat target 0.80: 1.5× the reference is under 1.6.
    assert.deepEqual(failures(outcome({ billed: 1_500_000 }, 1_000_000)), []);
  });

  it('names each figure more than twice over its target', () => {
    const f = failures(outcome({ billed: 1_700_000, backgroundReadShare: 0.35, refusedTooLong: 2, verbatimMisses: 4, completed: 0 }, 1_000_000));
    assert.equal(f.length, 5);
    assert.match(f[0]!, /full\.chat: billed ratio to the reference 1\.70× is more than twice its target 0\.80×/);
    assert.match(f[1]!, /read 35% of their prompt from the cache/);
    assert.match(f[2]!, /2 request\(s\) refused as too long/);
    assert.match(f[3]!, /4 of 61 main requests lacked/);
    assert.match(f[4]!, /did not finish/);
  });

  it('does not judge a ratio it has no reference for, nor a fork share with no forks', () => {
    assert.deepEqual(failures(outcome({ billed: 9_000_000, backgroundReadShare: NaN })), []);
    assert.equal(flatten(outcome({}))['full.chat.ratioToReference'], undefined);
    assert.equal(flatten(outcome({}, 2_000_000))['full.chat.ratioToReference'], 0.5);
  });

  it('bills by the stated formula, at the model\'s own price', () => {
    const u = { uncached: 1000, written: 2000, read: 10_000, output: 100 };
    const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-6, `${a} ≠ ${b}`);
    near(billedOf(u, 'claude-sonnet-4-6'), 1000 + 2500 + 1000 + 500);
    near(billedOf(u, 'claude-haiku-4-5-20251001'), (1000 + 2500 + 1000 + 500) / 3);
  });
});
