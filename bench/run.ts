// `npm run bench [-- --quick] [suite ...]`: every suite runs even when another crashes; each figure
// is printed beside its target; bench-results/latest.json gets figures, verdicts, crashes and
// missing figures. Exit 1 when a suite crashed, a target's figure is missing, or a figure is past
// its target (an absolute time only when more than 2x past it; see bench/targets.ts). `--quick`
// runs the small variants meant for CI (well under a minute in all). THREADLINE_BENCH_RESULTS names
// another folder for the results (the bench's own tests use it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSuites } from './runner';
import { SUITES } from './suites';

const root = join(__dirname, '..');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = args.filter((a) => !a.startsWith('--'));
  const outcome = await runSuites(SUITES, { root, quick, only });
  const dir = process.env.THREADLINE_BENCH_RESULTS ?? join(root, 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, quick ? 'quick.json' : 'latest.json');
  const { results, verdicts, crashed, missing, timingsMs } = outcome;
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), quick, results, verdicts, crashed, missing, timingsMs }, null, 2));
  console.log(`\nwritten to ${file}`);
  for (const line of outcome.summary) console.log(line);
  return outcome.code;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
