// A benchmark that cannot measure must fail the run, not pass it by saying nothing: a suite that
// crashes or leaves out a figure its targets expect fails `npm run bench`, and so does a ratio or
// cost target missed by any margin (only an absolute time keeps a warning band).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSuites } from '../../../bench/runner';
import type { Suite } from '../../../bench/suites';
import type { Target } from '../../../bench/targets';

const root = join(__dirname, '..', '..', '..');

const TARGETS: Record<string, Target> = {
  'panel.frames': { max: 10, why: 'a figure the suite may fail to measure' },
  'ratio.ours': { max: 1.3, why: 'a ratio measured in the same run' },
  'timed.ms': { max: 50, time: true, why: 'an absolute time' },
  'share.read': { min: 0.9, why: 'a share that may have nothing to judge', absentWhen: 'no request to judge' },
};

async function run(suites: Suite[], only: string[] = []) {
  const lines: string[] = [];
  const outcome = await runSuites(suites, { root, quick: false, only, targets: TARGETS, log: (l) => lines.push(l) });
  return { ...outcome, text: lines.concat(outcome.summary).join('\n') };
}

describe('the bench runner', () => {
  it('fails a suite that ran but did not report a figure one of its targets expects, naming it', async () => {
    const r = await run([{ name: 'panel', quick: false, run: () => ({}) }]);
    assert.deepEqual(r.missing, ['panel.frames']);
    assert.equal(r.code, 1);
    assert.match(r.text, /frames\s+MISSING.*FAILED/);
    assert.match(r.text, /MISSING figures .*panel\.frames/);
  });

  it('lets a figure be absent only where its target says when, and prints why', async () => {
    const r = await run([{ name: 'share', quick: false, run: () => ({}) }]);
    assert.equal(r.code, 0);
    assert.match(r.text, /read\s+n\/a .*no request to judge/);
  });

  it('fails a ratio missed by any margin; an absolute time only past twice its target', async () => {
    assert.equal((await run([{ name: 'ratio', quick: false, run: () => ({ ours: 1.31 }) }])).code, 1, '1.31 against 1.3 fails');
    assert.equal((await run([{ name: 'ratio', quick: false, run: () => ({ ours: 1.3 }) }])).code, 0);
    const slow = await run([{ name: 'timed', quick: false, run: () => ({ ms: 90 }) }]);
    assert.equal(slow.code, 0, 'a time within 2x warns');
    assert.match(slow.text, /MISSED/);
    assert.equal((await run([{ name: 'timed', quick: false, run: () => ({ ms: 101 }) }])).code, 1);
    assert.equal((await run([{ name: 'ratio', quick: false, run: () => ({ ours: Number.NaN }) }])).code, 1, 'nothing measured is no pass');
  });

  it('fails a crashed suite and an unknown suite name, and still runs the others', async () => {
    const ran: string[] = [];
    const r = await run(
      [
        { name: 'panel', quick: false, run: () => { throw new Error('no browser'); } },
        { name: 'ratio', quick: false, run: () => (ran.push('ratio'), { ours: 1 }) },
      ],
      ['panel', 'ratio', 'nonesuch'],
    );
    assert.deepEqual(ran, ['ratio']);
    assert.equal(r.code, 1);
    assert.match(r.text, /CRASHED suites: .*panel \(Error: no browser\)/);
    assert.match(r.text, /nonesuch \(no suite is called nonesuch/);
  });
});

describe('npm run bench with suites that cannot produce their figures', () => {
  it('exits non-zero, naming the chat-panel bench without Chromium and the cost bench without its reference file', () => {
    const out = mkdtempSync(join(tmpdir(), 'tl-bench-out-'));
    const env = { ...process.env, THREADLINE_CHROMIUM: join(out, 'no-chromium'), THREADLINE_BENCH_REFERENCE: join(out, 'no-reference.json'), THREADLINE_BENCH_RESULTS: out };
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'webview', 'cost'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /CRASHED suites: webview \(Error: cannot measure the chat panel: no Chromium at .*no-chromium.*\); cost \(Error: no reference figures: .*no-reference\.json is missing/);
    const saved = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as { crashed: Record<string, string> };
    assert.deepEqual(Object.keys(saved.crashed).sort(), ['cost', 'webview']);
  });

  it('exits non-zero when the stored reference figures were measured on other session scripts', () => {
    const out = mkdtempSync(join(tmpdir(), 'tl-bench-out-'));
    const file = JSON.parse(readFileSync(join(root, 'bench', 'reference-costs.json'), 'utf8')) as { agents: Record<string, { inputs?: { sessions: string } }> };
    file.agents['claude-code']!.inputs = { ...file.agents['claude-code']!.inputs!, sessions: '0000000000000000' };
    writeFileSync(join(out, 'stale.json'), JSON.stringify(file));
    const env = { ...process.env, THREADLINE_BENCH_REFERENCE: join(out, 'stale.json'), THREADLINE_BENCH_RESULTS: out };
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', 'cost'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /CRASHED suites: cost \(Error: the stored Claude Code \S+ figures in .*stale\.json are stale: the session scripts \(0000000000000000 then, \w+ now\) (and the stand-in \(\w+ then, \w+ now\) )?changed since they were measured/);
  });
});
