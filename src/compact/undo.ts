import { isDeepStrictEqual } from 'node:util';
import type { ContentBlockParam, MessageParam } from '../api/types';
import type { CompactionResult } from './compact';

/**
 * What undoing one compaction needs, whenever it is undone: the summary block it put in the
 * history (where that block is now is where the originals go back), the messages the block
 * stands for, word for word, and the kept messages it changed (a re-read pointer given its
 * target's text), to change them back. Records are data: they go in the transcript with the
 * session, so a compaction stays undoable after a resume.
 */
export interface CompactionRecord {
  id: string;
  block: string;
  replaced: MessageParam[];
  /** The first kept message was merged into the block's message. */
  merged: boolean;
  /** Kept messages the compaction changed: k-th kept message, as it was and as the compaction left it. */
  fixed: Array<{ k: number; was: MessageParam; now: MessageParam }>;
}

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
