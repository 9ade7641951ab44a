import { spawnSync } from 'node:child_process';
import { absolutePath, findProgram } from '../../base/programs';

// The checks ask bash itself what a word becomes (glob.ts, braces.ts): its reading is the one the
// command gets. Each ask is one short bash with no profile, a bare environment and a time limit.

export interface AskBash {
  /** Arguments after the script: $1 … */
  args?: readonly string[];
  cwd?: string;
  /** Added to a bare PATH; nothing else of ours reaches the script. */
  env?: Record<string, string>;
  timeoutMs: number;
}

/**
 * What `script` prints as NUL-ended raw names, or undefined when bash could not answer (missing,
 * failed, too slow, too much output). Empty output is [] only if bash exited cleanly.
 */
export function askBash(script: string, o: AskBash): Buffer[] | undefined {
  const bash = findProgram('bash');
  if (!bash) return undefined;
  const r = spawnSync(bash, ['--noprofile', '--norc', '-c', script, 'threadline-ask', ...(o.args ?? [])], {
    cwd: o.cwd,
    env: { PATH: absolutePath(process.env.PATH ?? '/usr/bin:/bin'), ...o.env },
    timeout: o.timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  if (r.error || r.status !== 0 || !r.stdout) return undefined;
  const out: Buffer[] = [];
  let start = 0;
  for (let i = r.stdout.indexOf(0, start); i >= 0; i = r.stdout.indexOf(0, start)) {
    out.push(r.stdout.subarray(start, i));
    start = i + 1;
  }
  return out;
}
