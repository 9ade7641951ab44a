import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The compaction properties at 10,000 generated histories each (npm test runs 2,000): requests stay
 * valid, and every path keeps the coverage contract.
 */
export function benchValidity(root: string): Record<string, number> {
  const runs = 10_000;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', join(root, 'test/unit/compact/validity.property.test.ts')], {
    cwd: root,
    env: { ...process.env, THREADLINE_PROPERTY_RUNS: String(runs) },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`validity property failed at ${runs} runs:\n${r.stdout}\n${r.stderr}`);
  const passed = Number(/^# pass (\d+)/m.exec(r.stdout)?.[1] ?? 0);
  if (passed < 2) throw new Error(`expected both properties to pass, saw ${passed}:\n${r.stdout}`);
  return { propertyCases: runs, propertiesPassed: passed, seconds: +((performance.now() - t0) / 1000).toFixed(1) };
}
