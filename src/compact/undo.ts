import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ContentBlockParam, MessageParam } from '../api/types';
import type { CompactionRecord, PromptRef } from '../conversation/undoRecords';
import type { CompactionResult } from './compact';

export type { CompactionRecord, PromptRef } from '../conversation/undoRecords';

const blocksOf = (m: MessageParam): ContentBlockParam[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);

/**
 * The record of a compaction that turned `before` into `result.history`, and that history to
 * apply. The block is the first block of the message at `keptBefore` (a summary is always put
 * there); the kept messages are compared with the originals to find the ones it changed. A block
 * whose text another compaction's block already has (two truncations that carried nothing) is
 * made distinct with a counter, so that each undo finds its own.
 */
export function recordCompaction(id: string, before: readonly MessageParam[], result: Pick<CompactionResult, 'history' | 'coverage'>, existing: readonly CompactionRecord[] = []): { record: CompactionRecord; history: MessageParam[] } {
  const at = result.coverage.keptBefore ?? 0;
  const holder = result.history[at];
  const first = holder && typeof holder.content !== 'string' ? holder.content[0] : undefined;
  if (first?.type !== 'text') throw new Error('a compaction result starts its summary with a text block');
  const taken = (t: string) => existing.some((r) => r.block === t) || locate(result.history, t).length > 1;
  let block = first.text;
  for (let n = 2; taken(block); n++) block = `${first.text}\n\n(Compaction ${n} with this text.)`;
  const rest = blocksOf(holder!).slice(1);
  const history = block === first.text ? result.history : result.history.map((m, i) => (i === at ? ({ ...m, content: [{ ...first, text: block }, ...rest] } as MessageParam) : m));
  const kept = before.slice(result.coverage.keptFrom);
  const merged = rest.length > 0;
  const after: MessageParam[] = merged ? [{ role: 'user', content: rest }, ...history.slice(at + 1)] : history.slice(at + 1);
  const fixed: CompactionRecord['fixed'] = [];
  kept.forEach((was, k) => {
    const now = after[k];
    if (now && !isDeepStrictEqual(was, now)) fixed.push({ k, was, now });
  });
  return { record: { id, block, replaced: before.slice(at, result.coverage.keptFrom), merged, fixed }, history };
}

/** Where a record's block is: [message, block] of each place it is found. */
function locate(history: readonly MessageParam[], block: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  history.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    m.content.forEach((b, j) => {
      if (b.type === 'text' && b.text === block) out.push([i, j]);
    });
  });
  return out;
}

/** `a` then `b`, a user message meeting a user message merged into one (tool results first). */
function concat(a: readonly MessageParam[], b: readonly MessageParam[]): MessageParam[] {
  const last = a.at(-1);
  const next = b[0];
  if (last?.role !== 'user' || next?.role !== 'user') return [...a, ...b];
  const merged = [...blocksOf(last), ...blocksOf(next)];
  merged.sort((x, y) => Number(y.type === 'tool_result') - Number(x.type === 'tool_result'));
  return [...a.slice(0, -1), { role: 'user', content: merged }, ...b.slice(1)];
}

/** The compactions that can be undone now: their block is in the history, once. */
export function undoableCompactions(history: readonly MessageParam[], records: readonly CompactionRecord[]): string[] {
  return records.filter((r) => locate(history, r.block).length === 1).map((r) => r.id);
}

/**
 * The history with one compaction undone, wherever it is: its block replaced by the messages
 * it stood for, everything around it kept (messages added since, later compactions). Undefined
 * when the block is not there (a later compaction covers it: undo that one first).
 */
export function undoCompaction(history: readonly MessageParam[], record: CompactionRecord): MessageParam[] | undefined {
  const hits = locate(history, record.block);
  if (hits.length !== 1) return undefined;
  const [i, j] = hits[0]!;
  const blocks = blocksOf(history[i]!);
  const lead = blocks.slice(0, j);
  const restBlocks = blocks.slice(j + 1);
  let rest: MessageParam | undefined = restBlocks.length ? { role: 'user', content: restBlocks } : undefined;
  const tail = history.slice(i + 1);
  for (const f of record.fixed) {
    if (record.merged && f.k === 0) {
      if (rest && isDeepStrictEqual(rest, f.now)) rest = f.was;
      continue;
    }
    const idx = record.merged ? f.k - 1 : f.k;
    if (isDeepStrictEqual(tail[idx], f.now)) tail[idx] = f.was;
  }
  let out = history.slice(0, i);
  if (lead.length) out = concat(out, [{ role: 'user', content: lead }]);
  out = concat(out, record.replaced);
  if (rest) out = concat(out, [rest]);
  return concat(out, tail);
}

/** Whether a record's originals hold the target, directly or inside a compaction they hold. */
function holds(record: CompactionRecord, records: readonly CompactionRecord[], isTarget: (b: ContentBlockParam) => boolean, seen = new Set<string>()): boolean {
  if (seen.has(record.id)) return false;
  seen.add(record.id);
  return record.replaced.some((m) => blocksOf(m).some((b) => isTarget(b) || (b.type === 'text' && records.some((r) => r.block === b.text && holds(r, records, isTarget, seen)))));
}

/**
 * Rewind across compactions: the history just before the block `isTarget` picks (a user
 * message's text). Compactions before it stay as they are; a compaction whose summary hides it
 * is undone first (and one hiding that one). Undefined when the target is nowhere.
 */
export function historyBefore(history: readonly MessageParam[], records: readonly CompactionRecord[], isTarget: (b: ContentBlockParam) => boolean): { history: MessageParam[]; undone: string[] } | undefined {
  let h = history.slice();
  const undone: string[] = [];
  for (;;) {
    for (let i = 0; i < h.length; i++) {
      const blocks = blocksOf(h[i]!);
      const j = blocks.findIndex(isTarget);
      if (j < 0) continue;
      const out = h.slice(0, i);
      if (j > 0) out.push({ ...h[i]!, content: blocks.slice(0, j) } as MessageParam);
      return { history: out, undone };
    }
    const r = [...records].reverse().find((x) => !undone.includes(x.id) && locate(h, x.block).length === 1 && holds(x, records, isTarget));
    const next = r && undoCompaction(h, r);
    if (!r || !next) return undefined;
    h = next;
    undone.push(r.id);
  }
}

// --- Naming a user message across compactions ---

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** Matches the text a PromptRef names; hashes only blocks of the right length. */
function matcher(len: number, hash: string): (text: string) => boolean {
  return (text) => text.length === len && hashOf(text) === hash;
}

/** The user text blocks a record's originals hold that match, those of compactions inside them counted in. */
function hiddenMatches(record: CompactionRecord, byBlock: ReadonlyMap<string, CompactionRecord>, matches: (t: string) => boolean, seen: Set<string>): number {
  if (seen.has(record.id)) return 0;
  seen.add(record.id);
  let n = 0;
  for (const m of record.replaced) {
    if (m.role !== 'user') continue;
    for (const b of blocksOf(m)) {
      if (b.type !== 'text') continue;
      if (matches(b.text)) n++;
      else {
        const inner = byBlock.get(b.text);
        if (inner) n += hiddenMatches(inner, byBlock, matches, seen);
      }
    }
  }
  return n;
}

type Found = { at: [number, number] } | { hiddenIn: CompactionRecord };

/**
 * Walks the history's user text blocks in order, each compaction block standing for the
 * matching blocks it replaced: `visit` gets each match (its place, or the compaction hiding it)
 * with its number, and stops the walk by returning a value. Returns the count otherwise.
 */
function walk<T>(history: readonly MessageParam[], records: readonly CompactionRecord[], matches: (t: string) => boolean, visit: (n: number, where: Found, hidden: number) => T | undefined): T | number {
  const byBlock = new Map(records.map((r) => [r.block, r]));
  let count = 0;
  for (let i = 0; i < history.length; i++) {
    const m = history[i]!;
    if (m.role !== 'user') continue;
    const blocks = blocksOf(m);
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j]!;
      if (b.type !== 'text') continue;
      if (matches(b.text)) {
        const hit = visit(count, { at: [i, j] }, 1);
        if (hit !== undefined) return hit;
        count++;
        continue;
      }
      const r = byBlock.get(b.text);
      if (!r) continue;
      const n = hiddenMatches(r, byBlock, matches, new Set());
      if (n === 0) continue;
      const hit = visit(count, { hiddenIn: r }, n);
      if (hit !== undefined) return hit;
      count += n;
    }
  }
  return count;
}

/** The reference of a prompt with this text about to be appended to the history. */
export function promptRef(history: readonly MessageParam[], records: readonly CompactionRecord[], text: string): PromptRef {
  const len = text.length;
  const hash = hashOf(text);
  const nth = walk(history, records, matcher(len, hash), () => undefined) as number;
  return { len, hash, nth };
}

/** Where the message a reference names is: its [message, block], the compaction hiding it, or nowhere. */
export function findPrompt(history: readonly MessageParam[], records: readonly CompactionRecord[], ref: PromptRef): Found | undefined {
  const r = walk<Found>(history, records, matcher(ref.len, ref.hash), (n, where, hidden) => (ref.nth < n + hidden ? where : undefined));
  return typeof r === 'number' ? undefined : r;
}

/**
 * Rewind and Fork across compactions: the history just before the message a reference names.
 * Compactions before it stay as they are; a compaction whose summary hides it is undone first
 * (and one hiding that one). Undefined when the message is nowhere (it was rewound away, or
 * a compaction from before records were kept hides it).
 */
export function historyBeforePrompt(history: readonly MessageParam[], records: readonly CompactionRecord[], ref: PromptRef): { history: MessageParam[]; undone: string[] } | undefined {
  let h = history.slice();
  const undone: string[] = [];
  for (let guard = 0; guard <= records.length; guard++) {
    const found = findPrompt(h, records, ref);
    if (!found) return undefined;
    if ('at' in found) {
      const [i, j] = found.at;
      const out = h.slice(0, i);
      if (j > 0) out.push({ ...h[i]!, content: blocksOf(h[i]!).slice(0, j) } as MessageParam);
      return { history: out, undone };
    }
    const next = undoCompaction(h, found.hiddenIn);
    if (!next) return undefined;
    h = next;
    undone.push(found.hiddenIn.id);
  }
  return undefined;
}
