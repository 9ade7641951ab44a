import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { billedOf } from '../../../bench/cost/accounting';
import type { RunFigures } from '../../../bench/cost/measure';
import { currentFingerprint, staleness } from '../../../bench/cost/fingerprint';
import { flatten, referenceProblem, stored, type ReferenceFile, type SessionOutcome } from '../../../bench/cost/report';
import { judge, TARGETS } from '../../../bench/targets';

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

/** What `npm run bench` would say of each judged figure of the cost suite. */
const verdicts = (o: SessionOutcome) =>
  Object.fromEntries(
    Object.entries(flatten(o))
      .filter(([k]) => TARGETS[`cost.${k}`])
      .map(([k, v]) => [k, judge(v, TARGETS[`cost.${k}`])]),
  );

describe('cost benchmark figures and their targets', () => {
  it('meets every target with figures inside them', () => {
    const v = verdicts(outcome({ billed: 700_000 }, 1_000_000));
    assert.deepEqual(Object.keys(v).sort(), ['chat.backgroundReadShare', 'chat.completed', 'chat.ratioToReference', 'chat.refusedTooLong', 'chat.verbatimMisses']);
    assert.ok(Object.values(v).every((x) => x === 'met'), JSON.stringify(v));
  });

  it('fails the figures of today\'s chat: 2.28x the reference, forks reading 35% from the cache', () => {
    const v = verdicts(outcome({ billed: 2_280_000, backgroundReadShare: 0.35 }, 1_000_000));
    assert.equal(v['chat.ratioToReference'], 'failed');
    assert.equal(v['chat.backgroundReadShare'], 'failed');
    const target = TARGETS['cost.chat.ratioToReference']!.max!;
    assert.equal(verdicts(outcome({ billed: (target + 0.01) * 1_000_000 }, 1_000_000))['chat.ratioToReference'], 'failed', 'a cost target is met or failed: no band of twice the target');
  });

  it('fails any refusal, any missing latest read and an unfinished session', () => {
    const v = verdicts(outcome({ refusedTooLong: 1, verbatimMisses: 2, completed: 0 }, 1_000_000));
    assert.equal(v['chat.refusedTooLong'], 'failed');
    assert.equal(v['chat.verbatimMisses'], 'failed');
    assert.equal(v['chat.completed'], 'failed');
  });

  it('judges no ratio without a stored reference (the suite fails first), and no fork share without forks', () => {
    const f = flatten(outcome({ backgroundReadShare: NaN }));
    assert.equal(f['chat.ratioToReference'], undefined);
    assert.equal(f['chat.backgroundReadShare'], undefined);
    assert.equal(flatten(outcome({}, 2_000_000))['chat.ratioToReference'], 0.5);
  });

  it('bills by the stated formula, at the model\'s own price', () => {
    const u = { uncached: 1000, written: 2000, read: 10_000, output: 100 };
    const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-6, `${a} ≠ ${b}`);
    near(billedOf(u, 'claude-sonnet-4-6'), 1000 + 2500 + 1000 + 500);
    near(billedOf(u, 'claude-haiku-4-5-20251001'), (1000 + 2500 + 1000 + 500) / 3);
  });
});

describe('stored reference figures carry what they were measured on', () => {
  const now = currentFingerprint();
  const file = (inputs?: { sessions: string; standin: string }): ReferenceFile => ({
    measuredAt: '2026-11-26',
    model: 'claude-sonnet-4-6',
    window: 200_000,
    formula: '',
    howMeasured: '',
    agents: { 'claude-code': { label: 'Claude Code', version: '9.9.9', ...(inputs ? { inputs } : {}), sessions: { 'quick.chat': stored(figures()) } } },
  });

  it('are usable when measured on today\'s session scripts and stand-in', () => {
    assert.equal(referenceProblem(file(now), 'quick', ['chat'], now, 'ref.json'), undefined);
  });

  it('are refused, with how to measure them again, when missing, incomplete, unhashed or stale', () => {
    assert.match(referenceProblem(undefined, 'quick', ['chat'], now, 'ref.json')!, /ref\.json is missing.*compareCost\.mjs/);
    assert.match(referenceProblem(file(now), 'quick', ['chat', 'newFiles'], now, 'ref.json')!, /no Claude Code 9\.9\.9 figures for quick\.newFiles/);
    assert.match(referenceProblem(file(now), 'full', ['chat'], now, 'ref.json')!, /for full\.chat/);
    assert.match(referenceProblem(file(), 'quick', ['chat'], now, 'ref.json')!, /stale: they carry no hash/);
    assert.match(referenceProblem(file({ ...now, standin: 'feedfacefeedface' }), 'quick', ['chat'], now, 'ref.json')!, /stale: the stand-in \(feedfacefeedface then, \w+ now\) changed/);
  });

  it('hash code, not comments: rewording a comment in the stand-in keeps the figures current, a change of code does not', () => {
    const base = mkdtempSync(join(tmpdir(), 'tl-fingerprint-'));
    const root = join(__dirname, '..', '..', '..');
    for (const dir of ['bench/cost', 'test/standin']) mkdirSync(join(base, dir), { recursive: true });
    for (const f of ['bench/cost/player.ts', 'bench/cost/accounting.ts', ...readdirSync(join(root, 'test/standin')).map((n) => `test/standin/${n}`)]) copyFileSync(join(root, f), join(base, f));
    assert.deepEqual(currentFingerprint(base), now);
    const cache = join(base, 'test/standin/cache.ts');
    const text = readFileSync(cache, 'utf8');
    writeFileSync(cache, `// A comment reworded.\n${text.replace(/\n/g, '\n\n')}`);
    assert.deepEqual(currentFingerprint(base), now, 'comments and blank lines do not count');
    writeFileSync(cache, `${text}\nexport const changed = 1;\n`);
    assert.equal(currentFingerprint(base).sessions, now.sessions);
    assert.notEqual(currentFingerprint(base).standin, now.standin);
  });

  it('hash the played script and the stand-in apart, from the files on disk', () => {
    assert.match(now.sessions, /^[0-9a-f]{16}$/);
    assert.match(now.standin, /^[0-9a-f]{16}$/);
    assert.notEqual(now.sessions, now.standin);
    assert.deepEqual(currentFingerprint(), now, 'the same tree hashes the same');
    assert.equal(staleness(now, now), undefined);
    assert.match(staleness({ sessions: 'x', standin: now.standin }, now)!, /the session scripts \(x then/);
  });
});
