import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The compaction validity property at 10,000 generated histories (npm test runs 2,000). */
export function benchValidity(root: string): Record<string, number> {
  const runs = 10_000;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', join(root, 'test/unit/compact/validity.property.test.ts')], {
    cwd: root,
    env: { ...process.env, THREADLINE_PROPERTY_RUNS: String(runs) },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`validity property failed at ${runs} runs:\n${r.stdout}\n${r.stderr}`);
  return { propertyCases: runs, passed: 1, seconds: +((performance.now() - t0) / 1000).toFixed(1) };
}
