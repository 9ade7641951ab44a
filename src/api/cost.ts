import { requestPrice } from './prices';
import type { Usage } from './types';

/** What one response cost, or undefined when the model's price is not known (see prices.ts). */
export function costUsd(modelId: string, usage: Usage): number | undefined {
  const input = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
  const p = requestPrice(modelId, input);
  if (!p) return undefined;
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
