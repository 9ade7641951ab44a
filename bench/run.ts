// `npm run bench [-- --quick] [suite ...]`: every suite runs even when another crashes; each figure
// is printed beside its target; bench-results/latest.json gets figures, verdicts and crashes.
// Exit 1 when a suite crashed or a figure is more than 2x past its target. `--quick` runs the
// small variants meant for CI (well under a minute in all).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITES } from './suites';
import { describeTarget, judge, TARGETS, type Verdict } from './targets';

const root = join(__dirname, '..');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = args.filter((a) => !a.startsWith('--'));
  const results: Record<string, Record<string, number>> = {};
  const verdicts: Record<string, Verdict> = {};
  const crashed: Record<string, string> = {};
  const timings: Record<string, number> = {};
  for (const suite of SUITES) {
    if (only.length && !only.includes(suite.name)) continue;
    if (quick && !suite.quick) continue;
    console.log(`\n## ${suite.name}${quick ? ' (quick)' : ''}`);
    const t0 = performance.now();
    try {
      results[suite.name] = await suite.run({ root, quick });
    } catch (err) {
      crashed[suite.name] = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.log(`CRASHED: ${crashed[suite.name]!.split('\n').slice(0, 6).join('\n  ')}`);
      continue;
    } finally {
      timings[suite.name] = Math.round(performance.now() - t0);
    }
    for (const [k, v] of Object.entries(results[suite.name]!)) {
      const key = `${suite.name}.${k}`;
      const target = TARGETS[key];
      const verdict = judge(v, target, quick);
      verdicts[key] = verdict;
      const mark = verdict === 'met' ? 'ok' : verdict === 'missed' ? 'MISSED' : verdict === 'failed' ? 'FAILED (over 2x the target)' : '';
      console.log(`${k.padEnd(34)} ${String(v).padStart(12)}  ${describeTarget(target, quick).padEnd(10)} ${mark}`);
    }
    console.log(`(${timings[suite.name]} ms)`);
  }
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  const file = join(root, 'bench-results', quick ? 'quick.json' : 'latest.json');
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), quick, results, verdicts, crashed, timingsMs: timings }, null, 2));
  const failed = Object.entries(verdicts).filter(([, v]) => v === 'failed').map(([k]) => k);
  const missed = Object.entries(verdicts).filter(([, v]) => v === 'missed').map(([k]) => k);
  console.log(`\nwritten to ${file}`);
  if (missed.length) console.log(`missed targets (within 2x): ${missed.join(', ')}`);
  if (failed.length) console.log(`FAILED (over 2x the target): ${failed.join(', ')}`);
  if (Object.keys(crashed).length) console.log(`CRASHED suites: ${Object.keys(crashed).join(', ')}`);
  return failed.length || Object.keys(crashed).length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
