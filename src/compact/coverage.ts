import { createHash } from 'node:crypto';
import type { ContentBlockParam, MessageParam } from '../api/types';

/**
 * How far a summary of the conversation reaches: the first `count` messages of the history,
 * identified by a hash chained over them. The hash leaves out what micro-compaction changes
 * (the text of tool results) and what is added per request (cache breakpoints, reminders at
 * the head), so it survives both, and a resume (the transcript stores the messages as they
 * were). Anything that rewrites the prefix (a compaction, a rewind) makes it no longer match.
 */
export interface CoverageMarker {
  count: number;
  hash: string;
}

function blockMaterial(b: ContentBlockParam): unknown {
  switch (b.type) {
    case 'text':
      // Reminders are re-applied per request; the stored history never holds the head ones.
      return b.text.startsWith('<system-reminder') ? null : ['t', b.text];
    case 'tool_use':
      return ['u', b.id, b.name];
    case 'tool_result':
      return ['r', b.tool_use_id, b.is_error === true];
    case 'thinking':
    case 'redacted_thinking':
      return null;
    default:
      return [b.type];
  }
}

/** What identifies one message for coverage purposes. */
function messageMaterial(m: MessageParam): string {
  const blocks = typeof m.content === 'string' ? [['t', m.content]] : m.content.map(blockMaterial).filter((x) => x !== null);
  return JSON.stringify([m.role, blocks]);
}

/** The chained hashes of every prefix: hashes[i] covers messages [0, i). */
function prefixHashes(history: readonly MessageParam[], upTo = history.length): string[] {
  const out: string[] = [''];
  let h = '';
  for (let i = 0; i < Math.min(upTo, history.length); i++) {
    h = createHash('sha256').update(h).update('\n').update(messageMaterial(history[i]!)).digest('hex');
    out.push(h);
  }
  return out;
}

export function markerFor(history: readonly MessageParam[]): CoverageMarker {
  return { count: history.length, hash: prefixHashes(history).at(-1)! };
}

/**
 * How many leading messages of `history` the marker covers: its count when the history still
 * starts with exactly those messages, else 0 (the notes no longer line up with it).
 */
export function coveredCount(history: readonly MessageParam[], marker: CoverageMarker | undefined): number {
  if (!marker || marker.count < 1 || marker.count > history.length) return 0;
  return prefixHashes(history, marker.count)[marker.count] === marker.hash ? marker.count : 0;
}

/**
 * The contract every compaction result states: which messages of the history it was given are
 * inside its summary or notes block (`summaryCovers`, a half-open range), and from which
 * message on the history is kept word for word (`keptFrom`; the length when nothing is kept).
 * A partial compaction "from here" also keeps the messages before `keptBefore` word for word,
 * at the start (0 or unset: none). User messages and error/fix anchors outside all of these are
 * carried word for word in the summary block.
 */
export interface CompactionCoverage {
  summaryCovers: [number, number] | null;
  keptFrom: number;
  keptBefore?: number;
}
