import type { MessageParam } from '../api/types';
import { DEFAULT_MICRO_COMPACT, microCompact, type MicroCompactConfig, type MicroCompactDecision } from './microCompact';

/** What a saved transcript's panel messages carry; enough to find the last answer's time. */
export interface TimedViewMessage {
  kind: string;
  createdAt: number;
}

/**
 * When the model last produced something in a saved session: the newest assistant text or
 * tool call in the panel's messages (tool calls are part of an assistant turn). Undefined when
 * the transcript has none.
 */
export function lastAssistantTimestamp(view: readonly TimedViewMessage[]): number | undefined {
  let last: number | undefined;
  for (const m of view) {
    if ((m.kind === 'assistant' || m.kind === 'tool') && Number.isFinite(m.createdAt)) last = Math.max(last ?? m.createdAt, m.createdAt);
  }
  return last;
}

export interface TimeClearingInput {
  history: readonly MessageParam[];
  /** The last assistant message's time, from the transcript (see `lastAssistantTimestamp`). */
  lastAssistantAt: number | undefined;
  now: number;
  config?: Partial<MicroCompactConfig>;
}

/**
 * Micro-compaction's time path on its own, for a resumed session: once the prompt cache has
 * expired there is no warm prefix to protect, so every old tool result worth replacing goes at
 * once; the latest few stay. Anything short of the gap leaves the history as it is (the
 * cost-based path then decides per request, as in a live session).
 */
export function timeBasedClearing(input: TimeClearingInput): MicroCompactDecision {
  const cfg = { ...DEFAULT_MICRO_COMPACT, ...input.config };
  if (input.lastAssistantAt === undefined || input.now - input.lastAssistantAt <= cfg.cacheTtlMs) {
    return { history: input.history.slice(), cleared: 0, tokensSaved: 0, reason: 'none' };
  }
  // Far below any threshold and with no batch minimum: only the gap decides.
  return microCompact({ history: input.history, lastAssistantAt: input.lastAssistantAt, now: input.now, usedTokens: 0, warningAt: Number.POSITIVE_INFINITY, config: cfg });
}
