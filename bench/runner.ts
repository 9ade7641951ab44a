// Runs benchmark suites and judges their figures. Every suite runs even when another crashes; a
// suite that crashes, or ends without a figure one of its targets expects, fails the run: a
// benchmark that could not measure must not read as one that passed.
import type { Suite } from './suites';
import { describeTarget, judge, missingFigures, TARGETS, type Target, type Verdict } from './targets';

export interface RunOptions {
  root: string;
  quick: boolean;
  /** Suite names to run (all when empty). */
  only: readonly string[];
  targets?: Record<string, Target>;
  log?(line: string): void;
}

export interface RunOutcome {
  results: Record<string, Record<string, number>>;
  verdicts: Record<string, Verdict>;
  crashed: Record<string, string>;
  /** Targets of suites that ran whose figure was not reported. */
  missing: string[];
  timingsMs: Record<string, number>;
  /** The lines of the closing summary (what failed and why). */
  summary: string[];
  /** 0 when nothing failed, crashed or went missing. */
  code: number;
}

const MARKS: Record<Verdict, string> = { met: 'ok', missed: 'MISSED (a time, within 2x of its target)', failed: 'FAILED', none: '' };

export async function runSuites(suites: readonly Suite[], opts: RunOptions): Promise<RunOutcome> {
  const targets = opts.targets ?? TARGETS;
  const log = opts.log ?? ((line: string) => console.log(line));
  const unknown = opts.only.filter((name) => !suites.some((s) => s.name === name));
  const out: RunOutcome = { results: {}, verdicts: {}, crashed: {}, missing: [], timingsMs: {}, summary: [], code: 0 };
  for (const name of unknown) out.crashed[name] = `no suite is called ${name}; there are ${suites.map((s) => s.name).join(', ')}`;
  for (const suite of suites) {
    if (opts.only.length && !opts.only.includes(suite.name)) continue;
    if (opts.quick && !suite.quick) continue;
    log(`\n## ${suite.name}${opts.quick ? ' (quick)' : ''}`);
    const t0 = performance.now();
    let figures: Record<string, number>;
    try {
      figures = await suite.run({ root: opts.root, quick: opts.quick });
    } catch (err) {
      out.crashed[suite.name] = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`CRASHED: ${out.crashed[suite.name]!.split('\n').slice(0, 6).join('\n  ')}`);
      continue;
    } finally {
      out.timingsMs[suite.name] = Math.round(performance.now() - t0);
    }
    out.results[suite.name] = figures;
    for (const [k, v] of Object.entries(figures)) {
      const key = `${suite.name}.${k}`;
      const target = targets[key];
      const verdict = judge(v, target, opts.quick);
      out.verdicts[key] = verdict;
      log(`${k.padEnd(34)} ${String(v).padStart(12)}  ${describeTarget(target, opts.quick).padEnd(10)} ${MARKS[verdict]}`);
    }
    for (const [key, t] of Object.entries(targets)) {
      if (!key.startsWith(`${suite.name}.`) || key.slice(suite.name.length + 1) in figures || !t.absentWhen) continue;
      log(`${key.slice(suite.name.length + 1).padEnd(34)} ${'n/a'.padStart(12)}  ${describeTarget(t, opts.quick).padEnd(10)} (${t.absentWhen})`);
    }
    const missing = missingFigures(suite.name, figures, targets);
    for (const key of missing) log(`${key.slice(suite.name.length + 1).padEnd(34)} ${'MISSING'.padStart(12)}  ${describeTarget(targets[key], opts.quick).padEnd(10)} FAILED: the suite did not measure it`);
    out.missing.push(...missing);
    log(`(${out.timingsMs[suite.name]} ms)`);
  }
  const failed = Object.entries(out.verdicts).filter(([, v]) => v === 'failed').map(([k]) => k);
  const missed = Object.entries(out.verdicts).filter(([, v]) => v === 'missed').map(([k]) => k);
  if (missed.length) out.summary.push(`missed time targets (within 2x): ${missed.join(', ')}`);
  if (failed.length) out.summary.push(`FAILED targets: ${failed.join(', ')}`);
  if (out.missing.length) out.summary.push(`MISSING figures (their suite ran but did not measure them): ${out.missing.join(', ')}`);
  const crashed = Object.keys(out.crashed);
  if (crashed.length) out.summary.push(`CRASHED suites: ${crashed.map((name) => `${name} (${out.crashed[name]!.split('\n')[0]})`).join('; ')}`);
  out.code = failed.length || out.missing.length || crashed.length ? 1 : 0;
  return out;
}
