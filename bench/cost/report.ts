// The reference figures on disk, the figures `npm run bench` judges, and the tables.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TARGETS } from '../targets';
import type { BackgroundKind } from './accounting';
import { staleness, type Fingerprint } from './fingerprint';
import type { RunFigures } from './measure';
import type { SessionName, Variant } from './session';

/** Issue 15's goal for a session's billed ratio to the reference (bench/targets.ts). */
export const ratioTarget = (name: SessionName): number => TARGETS[`cost.${name}.ratioToReference`]?.max ?? NaN;
/** Background (fork) requests should read at least this share of their prompt from the cache. */
export const forkReadTarget = (name: SessionName): number => TARGETS[`cost.${name}.backgroundReadShare`]?.min ?? NaN;

export type StoredFigures = Pick<
  RunFigures,
  'billed' | 'billedMain' | 'billedBackground' | 'requestsMain' | 'requestsBackground' | 'refusedTooLong' | 'verbatimMisses' | 'mainChecked' | 'peakPrompt' | 'backgroundReadShare' | 'completed' | 'floor'
> & { notes?: string[] };

export interface AgentFigures {
  label: string;
  version: string;
  /** The session scripts and the stand-in the figures were measured with (fingerprint.ts). */
  inputs?: Fingerprint;
  sessions: Record<string, StoredFigures>;
  /** Sessions the agent's CLI cannot play here, with the reason. */
  unplayable?: Record<string, string>;
}

export interface ReferenceFile {
  measuredAt: string;
  model: string;
  window: number;
  formula: string;
  howMeasured: string;
  agents: Record<string, AgentFigures>;
}

export const REFERENCE_AGENT = 'claude-code';
/** The stored figures; THREADLINE_BENCH_REFERENCE names another file (the bench's own tests use it). */
export const REFERENCE_FILE = process.env.THREADLINE_BENCH_REFERENCE ?? join(__dirname, '..', 'reference-costs.json');

export const sessionKey = (variant: Variant, name: SessionName) => `${variant}.${name}`;

export function loadReference(path = REFERENCE_FILE): ReferenceFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ReferenceFile;
  } catch {
    return undefined;
  }
}

/**
 * Why the reference's stored figures cannot be compared with a run of these sessions today
 * (no file, no figure for a session, or measured on other scripts or another stand-in), with
 * how to measure them again; undefined when they can.
 */
export function referenceProblem(file: ReferenceFile | undefined, variant: Variant, names: readonly SessionName[], now: Fingerprint, path = REFERENCE_FILE): string | undefined {
  const refresh = `measure them again with \`npm run build && node scripts/compareCost.mjs --install DIR --agents ${REFERENCE_AGENT} --write\``;
  if (!file) return `no reference figures: ${path} is missing or not JSON; ${refresh}`;
  const ref = file.agents[REFERENCE_AGENT];
  if (!ref) return `${path} holds no figures of the reference (${REFERENCE_AGENT}); ${refresh}`;
  const absent = names.filter((n) => !ref.sessions[sessionKey(variant, n)]);
  if (absent.length) return `${path} holds no ${ref.label} ${ref.version} figures for ${absent.map((n) => sessionKey(variant, n)).join(', ')}; ${refresh}`;
  const stale = staleness(ref.inputs, now);
  return stale ? `the stored ${ref.label} ${ref.version} figures in ${path} are stale: ${stale}; ${refresh}` : undefined;
}

export function stored(f: RunFigures, notes: string[] = []): StoredFigures {
  const round = (x: number) => (Number.isFinite(x) ? Math.round(x) : x);
  return {
    billed: round(f.billed),
    billedMain: round(f.billedMain),
    billedBackground: round(f.billedBackground),
    requestsMain: f.requestsMain,
    requestsBackground: f.requestsBackground,
    refusedTooLong: f.refusedTooLong,
    verbatimMisses: f.verbatimMisses,
    mainChecked: f.mainChecked,
    peakPrompt: f.peakPrompt,
    backgroundReadShare: Number.isFinite(f.backgroundReadShare) ? Math.round(f.backgroundReadShare * 1000) / 1000 : f.backgroundReadShare,
    completed: f.completed,
    floor: round(f.floor),
    ...(notes.length ? { notes } : {}),
  };
}

export interface SessionOutcome {
  variant: Variant;
  name: SessionName;
  threadline: RunFigures;
  baseline: RunFigures;
  reference?: StoredFigures;
  /** Threadline's background requests by purpose. */
  kinds?: BackgroundKind[];
}

const k = (x: number) => `${(x / 1000).toFixed(0)}k`;
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : 'n/a');
const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a');

/** A readable block per session: every figure, with its target beside it. */
export function describe(o: SessionOutcome, title: string): string {
  const t = o.threadline;
  const b = o.baseline;
  const ref = o.reference;
  const lines = [
    `### ${sessionKey(o.variant, o.name)}: ${title}`,
    `billed tokens     Threadline ${k(t.billed)} (main ${k(t.billedMain)}, background ${k(t.billedBackground)})   baseline ${k(b.billed)}   floor ${k(t.floor)}${ref ? `   reference ${k(ref.billed)}` : ''}`,
    `input split       uncached ${k(t.uncached)}, cache written ${k(t.written)}, cache read ${k(t.read)}; output ${k(t.output)}`,
    `requests          main ${t.requestsMain}, background ${t.requestsBackground}; refused as too long ${t.refusedTooLong} (target 0)`,
    `background reads  ${pct(t.backgroundReadShare)} of their prompt from the cache (target ≥ ${pct(forkReadTarget(o.name))})`,
    ...(o.kinds ?? []).map((g) => `  ${String(g.requests).padStart(3)} × ${g.kind}: billed ${k(g.billed)} (${pct(g.billed / t.billed)} of the total), ${pct(g.readShare)} read from the cache`),
    `peak prompt       ${k(t.peakPrompt)}   three latest reads verbatim in ${t.mainChecked - t.verbatimMisses} of ${t.mainChecked} main requests (target all)`,
    `ratios            to baseline ${ratio(t.billed / b.billed)}, to floor ${ratio(t.billed / t.floor)}${ref ? `, to reference ${ratio(t.billed / ref.billed)} (target ≤ ${ratio(ratioTarget(o.name))}), main loop alone ${ratio(t.billedMain / ref.billedMain)}` : ', to reference n/a (no stored figure)'}`,
  ];
  return lines.join('\n');
}

/**
 * The numbers `npm run bench` records and judges for one session, keyed `SESSION.figure` for
 * both variants (the quick run judges its own small sessions against the reference's).
 */
export function flatten(o: SessionOutcome): Record<string, number> {
  const p = o.name;
  const t = o.threadline;
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const out: Record<string, number> = {
    [`${p}.billedK`]: Math.round(t.billed / 1000),
    [`${p}.billedMainK`]: Math.round(t.billedMain / 1000),
    [`${p}.billedBackgroundK`]: Math.round(t.billedBackground / 1000),
    [`${p}.uncachedK`]: Math.round(t.uncached / 1000),
    [`${p}.writtenK`]: Math.round(t.written / 1000),
    [`${p}.readK`]: Math.round(t.read / 1000),
    [`${p}.outputK`]: Math.round(t.output / 1000),
    [`${p}.requestsMain`]: t.requestsMain,
    [`${p}.requestsBackground`]: t.requestsBackground,
    [`${p}.peakPromptK`]: Math.round(t.peakPrompt / 1000),
    [`${p}.refusedTooLong`]: t.refusedTooLong,
    [`${p}.verbatimMisses`]: t.verbatimMisses,
    [`${p}.completed`]: t.completed,
    [`${p}.baselineBilledK`]: Math.round(o.baseline.billed / 1000),
    [`${p}.floorK`]: Math.round(t.floor / 1000),
    [`${p}.ratioToBaseline`]: r3(t.billed / o.baseline.billed),
    [`${p}.ratioToFloor`]: r3(t.billed / t.floor),
  };
  // No background request, no share to judge.
  if (Number.isFinite(t.backgroundReadShare)) out[`${p}.backgroundReadShare`] = r3(t.backgroundReadShare);
  if (o.reference) {
    out[`${p}.ratioToReference`] = r3(t.billed / o.reference.billed);
    out[`${p}.mainRatioToReference`] = r3(t.billedMain / o.reference.billedMain);
  }
  return out;
}

/** The issue's table: each agent's billed tokens as a ratio to the reference, per session. */
export function agentTable(file: ReferenceFile, variant: Variant, names: readonly SessionName[], titles: Record<SessionName, string>, now?: Fingerprint): string {
  const ref = file.agents[REFERENCE_AGENT];
  const others = Object.entries(file.agents).filter(([id]) => id !== REFERENCE_AGENT);
  // A peer measured on other scripts or another stand-in is shown, marked: its ratio is not today's.
  const stale = (a: AgentFigures) => (now && staleness(a.inputs, now) ? ' (stale)' : '');
  const head = `| session | ${ref ? `${ref.label} ${ref.version} (billed)` : 'reference'} | ${others.map(([, a]) => `${a.label} ${a.version}${stale(a)}`).join(' | ')} |`;
  const rows = names.map((n) => {
    const key = sessionKey(variant, n);
    const base = ref?.sessions[key];
    const cells = others.map(([, a]) => {
      const f = a.sessions[key];
      if (a.unplayable?.[key]) return 'cannot run (see notes)';
      if (!f || !base) return 'n/a';
      const flags = [f.refusedTooLong ? `${f.refusedTooLong} refused` : '', f.verbatimMisses ? `${f.verbatimMisses} missed` : '', f.completed ? '' : 'unfinished'].filter(Boolean);
      return `${ratio(f.billed / base.billed)}${flags.length ? ` (${flags.join(', ')})` : ''}`;
    });
    const refCell = base ? `${k(base.billed)}${base.verbatimMisses ? ` (${base.verbatimMisses} missed)` : ''}${base.refusedTooLong ? ` (${base.refusedTooLong} refused)` : ''}` : 'n/a';
    return `| ${titles[n]} | ${refCell} | ${cells.join(' | ')} |`;
  });
  return [head, `| --- | --- | ${others.map(() => '---').join(' | ')} |`, ...rows].join('\n');
}
