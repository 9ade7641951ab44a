import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../api/types';
import { pointerTarget, restoreDanglingPointers } from '../conversation/readPointers';
import { estimateTokens } from '../conversation/tokens';

export const CLEARED_PREFIX = '[Old tool result cleared';
/** A result this short costs less to keep than the cache rewrite and the re-call it invites. */
export const MIN_CLEARABLE_CHARS = 100;

export interface MicroCompactConfig {
  /** The most recent compactable results always stay (never fewer than 1). */
  keepRecent: number;
  /**
   * Clear only in batches of at least this many tokens: each clearing rewrites the cache.
   * Not given: batchFloor(warningAt), which grows with the window.
   */
  clearAtLeastTokens?: number;
  /** How many more requests the session is expected to make; the saving repeats on each. */
  expectedFutureTurns: number;
  /** The prompt cache's lifetime: after a longer gap the cache is cold and clearing is free. */
  cacheTtlMs: number;
  /**
   * The working set: a result that one of this many latest results re-reads (a pointer names it)
   * stays word for word, since clearing it would only bring the text back at full price.
   */
  workingSetWindow: number;
}

export const DEFAULT_MICRO_COMPACT: MicroCompactConfig = {
  keepRecent: 3,
  expectedFutureTurns: 8,
  cacheTtlMs: 5 * 60_000,
  workingSetWindow: 12,
};

/** The batch floor's bounds: the seeds' 20k at 100k windows and below, up to 40k. */
export const MIN_BATCH_TOKENS = 20_000;
export const MAX_BATCH_TOKENS = 40_000;

/**
 * The smallest batch worth a cache rewrite: a quarter of the warning threshold, between 20k
 * and 40k. On a 200k window this is 40k, the best fixed batch of the cost benchmark's sweep
 * (bench/cost/batchSweep.ts); with the cost model on, the main loops billed 1,209k against
 * 1,240k at 20k on the chat, 1,118k against 1,138k on 60 new files and 296k against 294k on
 * the working set. Windows of 100k and below keep the 20k they had.
 */
export function batchFloor(warningAt: number): number {
  return Math.min(MAX_BATCH_TOKENS, Math.max(MIN_BATCH_TOKENS, Math.floor(warningAt / 4)));
}

// Relative prices from Anthropic's pricing: a cache write costs 1.25x base input, a read 0.1x.
const WRITE = 1.25;
const READ = 0.1;

export interface MicroCompactDecision {
  history: MessageParam[];
  cleared: number;
  tokensSaved: number;
  reason: 'none' | 'time-gap' | 'cost' | 'pressure';
}


interface Candidate {
  message: number;
  block: number;
  id: string;
  /** For a re-read pointer: the result it names. */
  pointsTo: string | undefined;
  /** Tokens the placeholder saves over the result it replaces. */
  tokens: number;
  placeholder: string;
  /** Over the size floor and longer than its placeholder: replacing it frees room. */
  worthClearing: boolean;
}

function describeCall(name: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const target = i.file_path ?? i.command ?? i.pattern ?? i.path;
  const s = typeof target === 'string' ? target : '';
  return s ? `${name} ${s.length > 120 ? `${s.slice(0, 117)}...` : s}` : name;
}

function candidates(history: readonly MessageParam[], compactable: ReadonlySet<string>): { list: Candidate[]; tokensBefore: number[] } {
  const calls = new Map<string, { name: string; input: unknown }>();
  const list: Candidate[] = [];
  const tokensBefore: number[] = [];
  let running = 0;
  history.forEach((m, mi) => {
    tokensBefore[mi] = running;
    if (typeof m.content === 'string') {
      running += estimateTokens(m.content);
      return;
    }
    m.content.forEach((b, bi) => {
      running += estimateTokens(b.type === 'text' ? b.text : b);
      if (b.type === 'tool_use') calls.set(b.id, { name: b.name, input: b.input });
      if (b.type !== 'tool_result') return;
      const call = calls.get(b.tool_use_id);
      if (!call || !compactable.has(call.name)) return;
      const content = typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? '');
      if (content.startsWith(CLEARED_PREFIX)) return;
      const placeholder = `${CLEARED_PREFIX}: ${describeCall(call.name, call.input)}. Call the tool again if you need it.]`;
      const tokens = estimateTokens(content) - estimateTokens(placeholder);
      const worthClearing = content.length > MIN_CLEARABLE_CHARS && placeholder.length < content.length && tokens > 0;
      list.push({ message: mi, block: bi, id: b.tool_use_id, pointsTo: pointerTarget(content), tokens, placeholder, worthClearing });
    });
  });
  tokensBefore[history.length] = running;
  return { list, tokensBefore };
}

function clear(history: readonly MessageParam[], chosen: readonly Candidate[]): MessageParam[] {
  const byMessage = new Map<number, Candidate[]>();
  for (const c of chosen) byMessage.set(c.message, [...(byMessage.get(c.message) ?? []), c]);
  return history.map((m, mi) => {
    const cs = byMessage.get(mi);
    if (!cs || typeof m.content === 'string') return m;
    const content = m.content.slice() as ContentBlockParam[];
    for (const c of cs) {
      const b = content[c.block] as ToolResultBlockParam;
      // The tool_use / tool_result pairing stays exactly as it was; only the bulk goes.
      content[c.block] = { ...b, content: c.placeholder };
    }
    return { ...m, content } as MessageParam;
  });
}

export interface MicroCompactInput {
  history: readonly MessageParam[];
  /** When the last assistant message arrived (ms since epoch); undefined: no gap known. */
  lastAssistantAt: number | undefined;
  now: number;
  /** Tokens in use against the warning threshold: above it, room matters more than cache. */
  usedTokens: number;
  warningAt: number;
  /** Tools whose old output can be had again by calling them again (the registry's `compactable`). */
  compactable: ReadonlySet<string>;
  config?: Partial<MicroCompactConfig>;
}

/**
 * Decides whether to clear old tool results before the next request, and clears them.
 * - After a gap longer than the cache lifetime the cache is cold: clear all but the most
 *   recent few, at once (there is nothing warm to lose).
 * - Otherwise clearing rewrites the cached suffix from the first cleared result on; do it
 *   only in batches, and only when the reads saved over the coming turns outweigh that write,
 *   or when the window is under pressure.
 */
export function microCompact(input: MicroCompactInput): MicroCompactDecision {
  const cfg = { ...DEFAULT_MICRO_COMPACT, ...input.config };
  const keep = Math.max(1, cfg.keepRecent);
  const { list, tokensBefore } = candidates(input.history, input.compactable);
  const none: MicroCompactDecision = { history: input.history.slice(), cleared: 0, tokensSaved: 0, reason: 'none' };
  if (list.length <= keep) return none;
  // The latest few stay whatever their size; of the older ones only those worth replacing go.
  // A recent re-read that points at an older result keeps that result too: it is the text.
  const older = list.slice(0, list.length - keep);
  const window = Math.max(keep, cfg.workingSetWindow);
  const inUse = new Set(list.slice(Math.max(0, list.length - window)).flatMap((c) => (c.pointsTo ? [c.pointsTo] : [])));
  // A pointer is a few dozen tokens: it goes only with its target (whatever its size), never alone.
  const chosen = older.filter((c) => c.worthClearing && !inUse.has(c.id) && c.pointsTo === undefined);
  const gone = new Set(chosen.map((c) => c.id));
  const old = older.filter((c) => chosen.includes(c) || (c.pointsTo !== undefined && gone.has(c.pointsTo)));
  if (!old.length) return none;
  const saved = old.reduce((n, c) => n + Math.max(0, c.tokens), 0);
  const apply = (reason: MicroCompactDecision['reason']): MicroCompactDecision => {
    // The guard of last resort: nothing may point at a result that is no longer there.
    const history = restoreDanglingPointers(input.history, clear(input.history, old));
    // Report what the request really loses, not the sum of per-block guesses.
    return { history, cleared: old.length, tokensSaved: Math.max(0, estimateTokens(input.history) - estimateTokens(history)), reason };
  };

  if (input.lastAssistantAt !== undefined && input.now - input.lastAssistantAt > cfg.cacheTtlMs) return apply('time-gap');
  if (saved < (cfg.clearAtLeastTokens ?? batchFloor(input.warningAt))) return none;
  if (input.usedTokens >= input.warningAt) return apply('pressure');
  const total = tokensBefore[input.history.length]!;
  const rewritten = total - tokensBefore[old[0]!.message]! - saved;
  const extraWriteCost = Math.max(0, rewritten) * (WRITE - READ) + 0;
  const savedReads = saved * READ * cfg.expectedFutureTurns;
  return savedReads > extraWriteCost ? apply('cost') : none;
}
