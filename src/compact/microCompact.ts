import type { NameSet } from '../tools/registry';
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

const DEFAULT_MICRO_COMPACT: MicroCompactConfig = {
  keepRecent: 3,
  expectedFutureTurns: 8,
  cacheTtlMs: 5 * 60_000,
  workingSetWindow: 12,
};

/** The batch floor's bounds: the seeds' 20k at 100k windows and below, up to 40k. */
const MIN_BATCH_TOKENS = 20_000;
const MAX_BATCH_TOKENS = 40_000;

/**
 * The smallest batch worth a cache rewrite: a quarter of the warning threshold, between 20k
 * and 40k. On a 200k window this is 40k, the best fixed batch of the cost benchmark's sweep
 * (bench/cost/batchSweep.ts); with the cost model on, the main loops billed 1,160k against
 * 1,240k at 20k on the chat, 1,074k against 1,180k on 60 new files and 294k against 294k on
 * the working set (23 November, with the clearing breakpoints). Windows of 100k and below keep
 * the 20k they had.
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

function candidates(history: readonly MessageParam[], compactable: NameSet): { list: Candidate[]; tokensBefore: number[] } {
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
      // The call just before names what it was for (path, command); the placeholder need not repeat it in every request.
      const placeholder = `${CLEARED_PREFIX}. Call ${call.name} again if you need it.]`;
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

/** Which candidates a clearing may take. A pointer is a few dozen tokens: it goes only with its target (whatever its size), never alone. */
function clearable(list: readonly Candidate[], cfg: MicroCompactConfig): (c: Candidate) => boolean {
  // A recent re-read that points at an older result keeps that result too: it is the text.
  const window = Math.max(Math.max(1, cfg.keepRecent), cfg.workingSetWindow);
  const inUse = new Set(list.slice(Math.max(0, list.length - window)).flatMap((c) => (c.pointsTo ? [c.pointsTo] : [])));
  return (c) => c.worthClearing && !inUse.has(c.id) && c.pointsTo === undefined;
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
  compactable: NameSet;
  config?: Partial<MicroCompactConfig>;
}

/** What a clearing would take now, or with `ahead` more results like the latest one added. */
function plan(input: MicroCompactInput, ahead: 0 | 1, found = candidates(input.history, input.compactable)): { old: Candidate[]; reason: Exclude<MicroCompactDecision['reason'], 'none'> | undefined } {
  const cfg = { ...DEFAULT_MICRO_COMPACT, ...input.config };
  const keep = Math.max(1, cfg.keepRecent);
  const { list, tokensBefore } = found;
  const none = { old: [], reason: undefined };
  if (list.length + ahead <= keep) return none;
  // The latest few stay whatever their size; of the older ones only those worth replacing go.
  const older = list.slice(0, list.length + ahead - keep);
  const chosen = older.filter(clearable(list, cfg));
  const gone = new Set(chosen.map((c) => c.id));
  const old = older.filter((c) => chosen.includes(c) || (c.pointsTo !== undefined && gone.has(c.pointsTo)));
  if (!old.length) return none;
  const saved = old.reduce((n, c) => n + Math.max(0, c.tokens), 0);
  // A result to come is guessed at the size of the latest one.
  const coming = ahead * Math.max(0, list.at(-1)!.tokens);
  if (ahead === 0 && input.lastAssistantAt !== undefined && input.now - input.lastAssistantAt > cfg.cacheTtlMs) return { old, reason: 'time-gap' };
  if (saved < (cfg.clearAtLeastTokens ?? batchFloor(input.warningAt))) return none;
  if (input.usedTokens + coming >= input.warningAt) return { old, reason: 'pressure' };
  const total = tokensBefore[input.history.length]! + coming;
  const rewritten = total - tokensBefore[old[0]!.message]! - saved;
  const extraWriteCost = Math.max(0, rewritten) * (WRITE - READ) + 0;
  const savedReads = saved * READ * cfg.expectedFutureTurns;
  return savedReads > extraWriteCost ? { old, reason: 'cost' } : none;
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
  const { old, reason } = plan(input, 0);
  if (!reason) return { history: input.history.slice(), cleared: 0, tokensSaved: 0, reason: 'none' };
  // The guard of last resort: nothing may point at a result that is no longer there.
  const history = restoreDanglingPointers(input.history, clear(input.history, old));
  // Report what the request really loses, not the sum of per-block guesses.
  return { history, cleared: old.length, tokensSaved: Math.max(0, estimateTokens(input.history) - estimateTokens(history)), reason };
}

/** Where the main loop's cache breakpoints pay for the clearings to come. */
export interface CacheHints {
  /**
   * The result the next clearing will replace first: the oldest one a clearing may take (worth
   * replacing, not a pointer, not the text of a recent re-read). Everything before it is the
   * same after that clearing, so a cache breakpoint just before it lets the clearing request
   * read that prefix back instead of writing it again. Undefined when nothing is clearable.
   */
  frontier: string | undefined;
  /**
   * The request after this one is expected to clear: one more result like the latest would tip
   * the decision. That request rewrites everything from the first cleared result on, this
   * request's new tail included, so writing the tail to the cache now (1.25x) would be paid for
   * nothing; sent uncached it costs 1x. The guess holds only if the model calls another tool; if
   * it answers in words and the turn ends, the next request writes the tail it would have read,
   * so the guess is made only when the session so far says the model goes on often enough
   * (continuationOdds over GUESS_BREAK_EVEN).
   */
  clearsNext: boolean;
}

/** Both hints from one pass over the history: this runs before every request. */
export function cacheHints(input: MicroCompactInput): CacheHints {
  const cfg = { ...DEFAULT_MICRO_COMPACT, ...input.config };
  const found = candidates(input.history, input.compactable);
  const frontier = found.list.find(clearable(found.list, cfg))?.id;
  // Only mid-task, after a tool result. After a prompt the model may well answer in words.
  const last = input.history.at(-1);
  if (!last || !isToolRound(last) || continuationOdds(input.history) < GUESS_BREAK_EVEN) return { frontier, clearsNext: false };
  return { frontier, clearsNext: plan(input, 1, found).reason !== undefined && plan(input, 0, found).reason === undefined };
}

/**
 * Right, the guess saves 0.25x of the tail (uncached 1x instead of written 1.25x); wrong, it
 * costs 0.9x (written at the next request, 1.25x, instead of read, 0.1x, after 1x now).
 */
export const GUESS_BREAK_EVEN = (1 - READ) / (1 - READ + (WRITE - 1));

const isToolRound = (m: MessageParam): boolean => m.role === 'user' && typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result');

/**
 * How likely the model is to call another tool now, after the k-th round of tool results of
 * this turn: of the earlier turns that reached k rounds, the share that went on to k + 1, with
 * four in five as the prior (one earlier turn that stopped at k outweighs it).
 */
export function continuationOdds(history: readonly MessageParam[]): number {
  const rounds: number[] = [];
  let current = 0;
  for (const m of history) {
    if (m.role !== 'user') continue;
    if (isToolRound(m)) current++;
    else {
      rounds.push(current);
      current = 0;
    }
  }
  // The first entry is the count before the first prompt (0), not a turn; the current turn is open.
  const turns = rounds.slice(1);
  const reached = turns.filter((n) => n >= current).length;
  const wentOn = turns.filter((n) => n > current).length;
  return (wentOn + 4) / (reached + 5);
}
