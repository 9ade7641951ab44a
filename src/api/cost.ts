import { resolveModel } from './models';
import type { Usage } from './types';

export function costUsd(modelId: string, usage: Usage): number {
  const p = resolveModel(modelId).price;
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheCreationInputTokens * p.cacheWrite +
      usage.cacheReadInputTokens * p.cacheRead) /
    1_000_000
  );
}

/** What the next request will hold, anchored on the last response (issue: token accounting). */
export function contextTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens + usage.outputTokens;
}
