import type { ModelInfo } from '../api/models';
import type { TokenLevel, TokenView } from '../shared/viewState';

// Buffers below the effective window, sized for a 200k window: room for the summary's own
// answer, and for the warning to show before the automatic compaction starts.
const MAX_OUTPUT_TOKENS_FOR_SUMMARY = 20_000;
const AUTOCOMPACT_BUFFER_TOKENS = 13_000;
const WARNING_THRESHOLD_BUFFER_TOKENS = 20_000;
const ERROR_THRESHOLD_BUFFER_TOKENS = 20_000;
const BLOCKING_BUFFER_TOKENS = 3_000;

/**
 * The small-window rule. The seeds' buffers are fixed token counts sized for a 200k window: on
 * a 32k window they add up to more than the window (the auto-compact threshold came out at
 * -232). Below this window every buffer (the output reserve too) shrinks in proportion to the
 * window, so a 100k window keeps half of each and an 8k window 4%; at and above it the seeds'
 * figures apply unchanged. The order warning < auto-compact < blocking < effective window <=
 * window then holds for any window, and the warning never starts before 80% of it.
 */
export const SCALE_BELOW_WINDOW = 200_000;

/**
 * The smallest context window an override may set. The system prompt and tool definitions
 * take about 3k tokens and a small window keeps a few hundred more for the answer and the
 * estimate's margin, so below 8k almost every request would be refused as too long; a value
 * like 200 is more likely 200k mistyped than a real model.
 */
export const MIN_CONTEXT_WINDOW = 8_192;

/** The `threadline.contextWindow` setting as used: 0 (or nothing usable) keeps the model's window; a smaller override than the minimum counts as the minimum. */
export function contextWindowOverride(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return 0;
  return Math.max(MIN_CONTEXT_WINDOW, Math.floor(v));
}

export interface Thresholds {
  contextWindow: number;
  effectiveWindow: number;
  warningAt: number;
  errorAt: number;
  autoCompactAt: number;
  blockingAt: number;
}

export function computeThresholds(contextWindow: number, maxOutputTokens: number): Thresholds {
  if (!Number.isFinite(contextWindow) || contextWindow < 1) throw new RangeError(`a context window must be a positive number of tokens, not ${contextWindow}`);
  const window = Math.floor(contextWindow);
  const scale = Math.min(1, window / SCALE_BELOW_WINDOW);
  const buffer = (tokens: number) => Math.max(1, Math.round(tokens * scale));
  const outputReserve = Math.min(Math.max(0, Math.floor(maxOutputTokens) || 0), buffer(MAX_OUTPUT_TOKENS_FOR_SUMMARY));
  const effectiveWindow = window - outputReserve;
  return {
    contextWindow: window,
    effectiveWindow,
    warningAt: effectiveWindow - buffer(WARNING_THRESHOLD_BUFFER_TOKENS),
    errorAt: effectiveWindow - buffer(ERROR_THRESHOLD_BUFFER_TOKENS),
    autoCompactAt: effectiveWindow - buffer(AUTOCOMPACT_BUFFER_TOKENS),
    // Below the blocking limit an answer of at least the floor always fits beside the request,
    // estimate error included (this only bites on small windows).
    blockingAt: Math.min(effectiveWindow - buffer(BLOCKING_BUFFER_TOKENS), window - floorFor(outputReserve) - marginFor(window)),
  };
}

/** The smallest max_tokens worth sending: below it an answer is cut off before it says much. */
export const OUTPUT_FLOOR_TOKENS = 3_000;

const floorFor = (outputReserve: number) => Math.max(1, Math.min(OUTPUT_FLOOR_TOKENS, outputReserve));
// The estimate counts characters, not tokens: leave it room to be wrong (2% of the window).
const marginFor = (window: number) => Math.min(8_000, Math.max(256, Math.round(window * 0.02)));

/**
 * The max_tokens a request of about `usedTokens` can ask for: the model's cap, or what the
 * window leaves beside the input less the estimate's margin, whichever is smaller; never
 * below the floor (a request that cannot have the floor is over the blocking limit).
 */
export function fitOutputTokens(t: Thresholds, usedTokens: number, cap: number): number {
  const floor = Math.min(cap, floorFor(t.contextWindow - t.effectiveWindow));
  const room = t.contextWindow - Math.max(0, Math.ceil(usedTokens)) - marginFor(t.contextWindow);
  return Math.max(floor, Math.min(cap, room));
}

/**
 * The seeds put warning and error at the same point, which would leave the warning colour
 * never seen. We show warning from there, and error once the next request would cross the
 * auto-compact threshold (compaction is imminent, or, with it off, the wall is near).
 */
export function tokenLevel(used: number, t: Thresholds): TokenLevel {
  if (used >= t.blockingAt) return 'blocking';
  if (used >= t.autoCompactAt) return 'error';
  if (used >= t.warningAt) return 'warning';
  return 'ok';
}

export function tokenView(used: number, t: Thresholds): TokenView {
  return { used, ...t, level: tokenLevel(used, t) };
}

/** The thresholds of a model (its window, or the user's override already applied; see currentModel). */
export function thresholdsOf(model: Pick<ModelInfo, 'contextWindow' | 'maxOutputTokens'>): Thresholds {
  return computeThresholds(model.contextWindow, model.maxOutputTokens);
}
