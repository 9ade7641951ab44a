import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The compaction validity property at 10,000 generated histories (npm test runs 2,000; the quick
 * variant 2,000). Reports the cases the property says it ran, and any counterexample fast-check
 * found (printed in full).
 */
export function benchValidity(root: string, opts: { quick?: boolean } = {}): Record<string, number> {
  const runs = opts.quick ? 2000 : 10_000;
  const report = join(mkdtempSync(join(tmpdir(), 'tl-bench-validity-')), 'report.jsonl');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', join(root, 'test/unit/compact/validity.property.test.ts')], {
    cwd: root,
    env: { ...process.env, THREADLINE_PROPERTY_RUNS: String(runs), THREADLINE_PROPERTY_REPORT: report },
    encoding: 'utf8',
  });
  const lines = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n').filter(Boolean) : [];
  const cases = lines.map((l) => (JSON.parse(l) as { cases: number }).cases).reduce((a, b) => a + b, 0);
  const counterexample = /Counterexample: .*/.exec(`${r.stdout}\n${r.stderr}`)?.[0];
  if (r.status !== 0) console.log(`validity property failed:\n${(counterexample ?? `${r.stdout}\n${r.stderr}`).slice(0, 4000)}`);
  return { propertyCases: cases, counterexamples: r.status === 0 ? 0 : 1, seconds: +((performance.now() - t0) / 1000).toFixed(1) };
}
