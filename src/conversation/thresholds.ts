import { tableModels, type ModelSource } from '../api/models';
import type { TokenLevel, TokenView } from '../shared/viewState';

// Buffers below the effective window (seed 000 §6, seed 004 §14.5.1).
export const MAX_OUTPUT_TOKENS_FOR_SUMMARY = 20_000;
export const AUTOCOMPACT_BUFFER_TOKENS = 13_000;
export const WARNING_THRESHOLD_BUFFER_TOKENS = 20_000;
export const ERROR_THRESHOLD_BUFFER_TOKENS = 20_000;
export const BLOCKING_BUFFER_TOKENS = 3_000;

export interface Thresholds {
  contextWindow: number;
  effectiveWindow: number;
  warningAt: number;
  errorAt: number;
  autoCompactAt: number;
  blockingAt: number;
}

export function computeThresholds(contextWindow: number, maxOutputTokens: number): Thresholds {
  const effectiveWindow = contextWindow - Math.min(maxOutputTokens, MAX_OUTPUT_TOKENS_FOR_SUMMARY);
  return {
    contextWindow,
    effectiveWindow,
    warningAt: effectiveWindow - WARNING_THRESHOLD_BUFFER_TOKENS,
    errorAt: effectiveWindow - ERROR_THRESHOLD_BUFFER_TOKENS,
    autoCompactAt: effectiveWindow - AUTOCOMPACT_BUFFER_TOKENS,
    blockingAt: effectiveWindow - BLOCKING_BUFFER_TOKENS,
  };
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

/** The thresholds of the model the settings name (its window, or the user's override), as the catalog knows it. */
export function thresholdsFor(settings: { model: string; contextWindow: number }, models: ModelSource = tableModels): Thresholds {
  const model = models.current(settings.model, { contextWindow: settings.contextWindow });
  return computeThresholds(model.contextWindow, model.maxOutputTokens);
}
