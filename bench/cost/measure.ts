// One agent playing one session against a fresh stand-in, and the figures that come out of it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandin } from '../../test/standin/server';
import { blockTokens } from '../../test/standin/tokens';
import { RunLedger } from './accounting';
import { floorCost } from './floor';
import { SessionPlayer } from './player';
import { writeWorkspace, type SessionSpec } from './session';

export const WINDOW = 200_000;
export const MODEL = 'claude-sonnet-4-6';

export interface PlayContext {
  session: SessionSpec;
  url: string;
  /** The workspace: the session's files in a git repository. */
  cwd: string;
  /** An empty home folder for the agent (no user settings, no memories from elsewhere). */
  home: string;
  /** A scratch folder for the agent's own state. */
  state: string;
  window: number;
}

/** Plays the session; returns notes worth printing (exit codes, errors). */
export type Play = (ctx: PlayContext) => Promise<string[]>;

/** Thrown by a Play that cannot play this session at all, with the reason. */
export class CannotPlay extends Error {}

export interface RunFigures {
  billed: number;
  billedMain: number;
  billedBackground: number;
  uncached: number;
  written: number;
  read: number;
  output: number;
  requestsMain: number;
  requestsBackground: number;
  refusedTooLong: number;
  /** Cache-read share of the background requests' prompts (NaN when there were none). */
  backgroundReadShare: number;
  peakPrompt: number;
  /** Main requests checked for the three latest reads, and those where one was not there in full. */
  mainChecked: number;
  verbatimMisses: number;
  /** 1 when every prompt got its final scripted answer. */
  completed: number;
  floor: number;
  floorClearings: number;
}

export interface RunResult {
  figures: RunFigures;
  notes: string[];
  wallMs: number;
  ledger: RunLedger;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

export function figuresOf(ledger: RunLedger, finished: boolean, window: number): RunFigures {
  const rs = ledger.requests;
  const answered = rs.filter((r) => r.usage);
  const main = rs.filter((r) => r.kind === 'main');
  const bg = rs.filter((r) => r.kind === 'background');
  const u = (pick: (x: NonNullable<(typeof rs)[number]['usage']>) => number, list = answered) => sum(list.map((r) => (r.usage ? pick(r.usage) : 0)));
  const bgAnswered = bg.filter((r) => r.usage);
  const bgPrompt = u((x) => x.uncached + x.written + x.read, bgAnswered);
  const floor = ledger.prefixTokens === undefined ? { billed: NaN, clearings: [] } : floorCost({ prefix: ledger.prefixTokens, steps: ledger.floorSteps(), smallTokens: PLACEHOLDER_TOKENS, window });
  const checked = main.filter((r) => r.missing !== undefined);
  return {
    billed: sum(rs.map((r) => r.billed)),
    billedMain: sum(main.map((r) => r.billed)),
    billedBackground: sum(bg.map((r) => r.billed)),
    uncached: u((x) => x.uncached),
    written: u((x) => x.written),
    read: u((x) => x.read),
    output: u((x) => x.output),
    requestsMain: main.length,
    requestsBackground: bg.length,
    refusedTooLong: rs.filter((r) => r.tooLong).length,
    backgroundReadShare: bgPrompt > 0 ? u((x) => x.read, bgAnswered) / bgPrompt : NaN,
    peakPrompt: Math.max(0, ...answered.map((r) => r.usage!.uncached + r.usage!.written + r.usage!.read)),
    mainChecked: checked.length,
    verbatimMisses: checked.filter((r) => r.missing!.length > 0).length,
    completed: finished ? 1 : 0,
    floor: floor.billed,
    floorClearings: floor.clearings.length,
  };
}

/** The smallest stand-in for a cleared result the floor allows: a tool_result saying only that. */
export const PLACEHOLDER_TOKENS = blockTokens({ type: 'tool_result', tool_use_id: 'x', content: '[cleared]' });

export async function measure(session: SessionSpec, play: Play, opts: { window?: number; keep?: boolean } = {}): Promise<RunResult> {
  const window = opts.window ?? WINDOW;
  const root = mkdtempSync(join(tmpdir(), `tl-cost-${session.name}-`));
  const ctx = { session, cwd: join(root, 'work'), home: join(root, 'home'), state: join(root, 'state'), window };
  writeWorkspace(session, ctx.cwd);
  mkdirSync(ctx.home, { recursive: true });
  mkdirSync(ctx.state, { recursive: true });
  const player = new SessionPlayer(session, ctx.cwd);
  const ledger = new RunLedger(player);
  const standin = await startStandin({
    contextWindow: window,
    recordBodies: false,
    respond: (body, rec) => player.respond(body, rec),
    onRequest: (rec) => ledger.record(rec),
  });
  const started = performance.now();
  try {
    const notes = await play({ ...ctx, url: standin.url });
    return { figures: figuresOf(ledger, player.finished, window), notes, wallMs: performance.now() - started, ledger };
  } finally {
    await standin.close();
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
  }
}
