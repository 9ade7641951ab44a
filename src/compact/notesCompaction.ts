import { restoreDanglingPointers } from '../conversation/readPointers';
import type { ContentBlockParam, MessageParam } from '../api/types';
import { prependUserContent } from '../conversation/history';
import { estimateTokens } from '../conversation/tokens';
import { compactedHistory, findAnchors, splitRounds, type CompactionResult } from './compact';
import { DEFAULT_COMPACT_LIMITS, type CompactLimits } from './limits';
import { counted, formatTokens } from '../shared/format';

/** Recent messages kept verbatim after a compaction from session notes (sized for a 200k window; kept verbatim so the model sees its latest steps exactly, not through the notes). */
const SM_KEEP_MIN_TEXT_MESSAGES = 5;
export const SM_KEEP_MAX_TOKENS = DEFAULT_COMPACT_LIMITS.keepMaxTokens;

function isTextMessage(m: MessageParam): boolean {
  return typeof m.content === 'string' || m.content.some((b) => b.type === 'text' && !b.text.startsWith('<system-reminder'));
}

/** Where each round starts, and the rounds themselves. */
function roundStarts(history: readonly MessageParam[]): { starts: number[]; rounds: MessageParam[][] } {
  const rounds = splitRounds(history);
  const starts: number[] = [];
  let at = 0;
  for (const r of rounds) {
    starts.push(at);
    at += r.length;
  }
  return { starts, rounds };
}

/**
 * Where the verbatim tail starts when nothing constrains it: the most recent whole rounds with
 * at least 10k tokens and 5 text messages when there are that many, never more than 40k (less
 * on a smaller window: see CompactLimits). A
 * round never splits a tool call from its result.
 */
export function defaultTailStart(history: readonly MessageParam[], limits: CompactLimits = DEFAULT_COMPACT_LIMITS): number {
  const { starts, rounds } = roundStarts(history);
  let tokens = 0;
  let texts = 0;
  let start = history.length;
  for (let i = rounds.length - 1; i >= 0; i--) {
    const cost = estimateTokens(rounds[i]);
    if (tokens + cost > limits.keepMaxTokens && start < history.length) break;
    start = starts[i]!;
    tokens += cost;
    texts += rounds[i]!.filter(isTextMessage).length;
    if (tokens >= limits.keepMinTokens && texts >= SM_KEEP_MIN_TEXT_MESSAGES) break;
  }
  // Keeping everything would free nothing: keep from the second round on.
  return start === 0 && starts.length > 1 ? starts[1]! : start;
}

export type NotesCompaction = { ok: true; result: CompactionResult } | { ok: false; reason: string };

/**
 * Compaction from the session notes, allowed only when the notes cover everything before the
 * tail it keeps verbatim. `covered` is how many leading messages the notes' last successful
 * update saw (0: none, or they no longer line up with this history). The tail starts where
 * the default rule puts it, or earlier, right after what the notes cover, if they lag; when that
 * tail would be over the keep limit (40k on a 200k window) the notes are too stale and the caller falls back to a
 * summary.
 */
export function compactFromNotes(history: readonly MessageParam[], notes: string, covered: number, limits: CompactLimits = DEFAULT_COMPACT_LIMITS): NotesCompaction {
  if (!notes.trim()) return { ok: false, reason: 'the session notes are empty' };
  if (covered < 1) return { ok: false, reason: 'the session notes do not cover this conversation (no successful update since it last changed)' };
  let start = defaultTailStart(history, limits);
  if (start > covered) {
    // Start the tail at the round that holds the first uncovered message.
    const { starts } = roundStarts(history);
    start = Math.max(0, ...starts.filter((s) => s <= covered));
    const tailTokens = estimateTokens(history.slice(start));
    if (tailTokens > limits.keepMaxTokens) {
      return { ok: false, reason: `the session notes stop ${counted(history.length - covered, 'message')} (about ${formatTokens(estimateTokens(history.slice(covered)))} tokens) short of the end` };
    }
  }
  if (start < 1) return { ok: false, reason: 'nothing older than the kept messages to replace' };
  // A kept re-read whose earlier result the notes replace gets that result's text back.
  const kept = restoreDanglingPointers(history, history.slice(start));
  const anchors = findAnchors(history);
  const [head] = compactedHistory(notes, anchors, [], 'session-memory');
  const out = prependUserContent(kept, head!.content as ContentBlockParam[]);
  return {
    ok: true,
    result: {
      history: out,
      summary: notes,
      tokensBefore: estimateTokens(history),
      tokensAfter: estimateTokens(out),
      anchors,
      droppedRounds: 0,
      source: 'session-memory',
      coverage: { summaryCovers: [0, covered], keptFrom: start },
    },
  };
}
