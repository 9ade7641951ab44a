import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namespacePrefix } from '../src/base/userNamespace';
import { createTools } from '../src/tools/builtin';
import type { Tool } from '../src/tools/types';
import { median } from './stats';

// What the user namespace each Bash command starts in (base/userNamespace.ts) costs: the same
// short command through the Bash tool with it and without it, alternated in one run.

/** Pairs of runs; each run is one whole Bash tool call (guard snapshot, spawn, supervisor, exit). */
const PAIRS = 30;

export async function benchBashLaunch(opts: { quick: boolean }): Promise<Record<string, number>> {
  if (!namespacePrefix()) return {};
  const bash = createTools().find((t) => t.name === 'Bash') as Tool;
  const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-bash-'));
  const parsed = bash.parse({ command: 'echo ok' });
  if (!parsed.ok) throw new Error(parsed.error);
  const once = async (off: boolean): Promise<number> => {
    if (off) process.env.THREADLINE_BASH_ISOLATION = 'off';
    else delete process.env.THREADLINE_BASH_ISOLATION;
    const t0 = process.hrtime.bigint();
    const r = await bash.call(parsed.value, { cwd, signal: new AbortController().signal });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.isError || !String(r.content).includes('ok')) throw new Error(`the Bash tool failed: ${String(r.content)}`);
    return ms;
  };
  const inNamespace: number[] = [];
  const plain: number[] = [];
  const was = process.env.THREADLINE_BASH_ISOLATION;
  try {
    await once(false);
    await once(true);
    for (let i = 0; i < (opts.quick ? 10 : PAIRS); i++) {
      inNamespace.push(await once(false));
      plain.push(await once(true));
    }
  } finally {
    if (was === undefined) delete process.env.THREADLINE_BASH_ISOLATION;
    else process.env.THREADLINE_BASH_ISOLATION = was;
  }
  const ns = median(inNamespace);
  const base = median(plain);
  return { namespaceMs: Math.round(ns * 100) / 100, plainMs: Math.round(base * 100) / 100, namespaceRatio: Math.round((ns / base) * 100) / 100 };
}
