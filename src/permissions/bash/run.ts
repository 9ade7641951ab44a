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
 * Asks one decision may make of bash, and the time they may take together. Each ask blocks the
 * host (a synchronous spawn): 60 glob words climbing `..` at 3 s each froze the CLI for 170 s, past
 * Ctrl+C. Past the budget bash is not asked, and the word counts as unknown (the command asks).
 */
export const DECISION_ASKS = 32;
export const DECISION_ASK_MS = 4_000;

let budget: { asks: number; until: number } | undefined;

/** Runs `fn` (one permission decision) with a fresh budget of asks; nested calls share the outer one. */
export function withAskBudget<T>(fn: () => T): T {
  const outer = budget;
  budget = outer ?? { asks: DECISION_ASKS, until: Date.now() + DECISION_ASK_MS };
  try {
    return fn();
  } finally {
    budget = outer;
  }
}

/**
 * What `script` prints as NUL-ended raw names, or undefined when bash could not answer (missing,
 * failed, too slow, too much output, or the decision's budget of asks spent). Empty output is []
 * only if bash exited cleanly.
 */
export function askBash(script: string, o: AskBash): Buffer[] | undefined {
  const bash = findProgram('bash');
  if (!bash) return undefined;
  let timeoutMs = o.timeoutMs;
  if (budget) {
    const left = budget.until - Date.now();
    if (budget.asks <= 0 || left <= 0) return undefined;
    budget.asks--;
    timeoutMs = Math.min(timeoutMs, left);
  }
  const r = spawnSync(bash, ['--noprofile', '--norc', '-c', script, 'threadline-ask', ...(o.args ?? [])], {
    cwd: o.cwd,
    env: { PATH: absolutePath(process.env.PATH ?? '/usr/bin:/bin'), ...o.env },
    timeout: timeoutMs,
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
