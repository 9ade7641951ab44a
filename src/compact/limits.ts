import type { Thresholds } from '../conversation/thresholds';

/**
 * How much a compaction may keep, sized to the window. The seeds' figures (keep 10k-40k tokens
 * verbatim, summaries up to 20k) are for a 200k window; on a 32k window they would keep more
 * than the whole conversation and free nothing. Each is capped by a share of the auto-compact
 * threshold, so a compacted history always lands well below it.
 */
export interface CompactLimits {
  /** The verbatim tail: at least this many tokens when the history has them... */
  keepMinTokens: number;
  /** ...and never more than this. Also the truncation fallback's budget. */
  keepMaxTokens: number;
  /** User messages and fixes carried word for word when no summary covers them. */
  carryTokens: number;
  /** The summary request's max_tokens: what the window leaves above the threshold. */
  summaryMaxTokens: number;
  /**
   * The most the summary request's messages may hold by estimate: a request over the blocking
   * limit is never sent, the summary request included (undefined: not checked).
   */
  requestMaxTokens?: number;
  /**
   * The blocking limit itself. When even the newest round alone is over `requestMaxTokens` (the
   * share left for system, tools and instructions is an estimate), it is still sent up to this,
   * which no request ever passes.
   */
  requestHardMaxTokens?: number;
  /** Files put back after a summary, all together (the 200k figure when not given)... */
  fileBudgetTokens?: number;
  /** ...and each (a longer one is cut). */
  fileMaxTokens?: number;
}

/** The seeds' figures for the files put back after a summary, for a 200k window. */
const FILE_BUDGET_TOKENS = 50_000;
const FILE_MAX_TOKENS = 5_000;

export const DEFAULT_COMPACT_LIMITS: Required<Omit<CompactLimits, 'requestMaxTokens' | 'requestHardMaxTokens'>> = { keepMinTokens: 10_000, keepMaxTokens: 40_000, carryTokens: 16_000, summaryMaxTokens: 20_000, fileBudgetTokens: FILE_BUDGET_TOKENS, fileMaxTokens: FILE_MAX_TOKENS };

/** Of the blocking limit, what the summary request's messages may fill. */
const SUMMARY_REQUEST_SHARE = 0.85;

export function compactLimits(t: Thresholds): CompactLimits {
  const room = Math.max(1, t.autoCompactAt);
  return {
    keepMinTokens: Math.min(DEFAULT_COMPACT_LIMITS.keepMinTokens, Math.floor(room * 0.06)),
    keepMaxTokens: Math.min(DEFAULT_COMPACT_LIMITS.keepMaxTokens, Math.floor(room * 0.25)),
    carryTokens: Math.min(DEFAULT_COMPACT_LIMITS.carryTokens, Math.floor(room * 0.1)),
    summaryMaxTokens: Math.max(256, Math.min(DEFAULT_COMPACT_LIMITS.summaryMaxTokens, t.contextWindow - t.autoCompactAt)),
    // The messages alone: the system prompt, the tools and the instructions ride along, so a
    // share of the blocking limit is left for them.
    requestMaxTokens: Math.floor(t.blockingAt * SUMMARY_REQUEST_SHARE),
    requestHardMaxTokens: t.blockingAt,
    // The seeds' 5 x 5k (50k at most) is 30% of a 200k window's threshold: the same share below.
    fileBudgetTokens: Math.min(DEFAULT_COMPACT_LIMITS.fileBudgetTokens, Math.floor(room * 0.3)),
    fileMaxTokens: Math.min(DEFAULT_COMPACT_LIMITS.fileMaxTokens, Math.floor(room * 0.06)),
  };
}
