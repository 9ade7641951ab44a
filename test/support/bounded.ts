import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/**
 * Runs an ES module snippet in a child Node (with tsx) and returns what it printed. A hang in
 * synchronous code cannot be interrupted by the test runner's own timeout, so it runs apart and
 * is killed after `timeoutMs`: the test then fails with a clear message instead of never ending.
 * In the snippet, `await load('tools/glob.ts')` gives a module under src/ with its exports.
 */
export function runBounded(snippet: string, timeoutMs = 30_000): string {
  const loader = `const load = async (p) => { const m = await import(${JSON.stringify(`${join(ROOT, 'src')}/`)} + p); return m.default ?? m; };`;
  const code = `${loader}\n${snippet}`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, timeout: timeoutMs, encoding: 'utf8' });
  if (r.error || r.signal) throw new Error(`did not finish within ${timeoutMs / 1000} s (${r.error?.message ?? r.signal}): it hangs`);
  if (r.status !== 0) throw new Error(`the snippet failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}
