import { randomUUID } from 'node:crypto';
import type { UsageRecord } from './appState';

/**
 * Process-level facts that outlive any one session view and that nothing renders
 * directly: where we started, which session is live, what it has cost. Kept small on
 * purpose (process-wide facts fixed at start-up, not UI state): anything the UI reacts to belongs in AppState.
 * One instance is made by each composition root (extension, CLI); tests make their own.
 */
export class RuntimeState {
  readonly startedAt = Date.now();
  sessionId: string;
  /** The cost of the requests whose price is known (see unpricedRequests). */
  totalCostUsd = 0;
  /** Requests to models without a known price: their cost is not in totalCostUsd. */
  unpricedRequests = 0;
  readonly modelUsage = new Map<string, UsageRecord & { costUsd: number | undefined; requests: number }>();

  constructor(readonly originalCwd: string, sessionId: string = randomUUID()) {
    this.sessionId = sessionId;
  }

  /** `costUsd` undefined: the model's price is not known. */
  recordUsage(model: string, usage: UsageRecord, costUsd: number | undefined): void {
    const prev = this.modelUsage.get(model) ?? {
      inputTokens: 0,
      outputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
      costUsd: 0,
      requests: 0,
    };
    this.modelUsage.set(model, {
      inputTokens: prev.inputTokens + usage.inputTokens,
      outputTokens: prev.outputTokens + usage.outputTokens,
      cacheCreationInputTokens: prev.cacheCreationInputTokens + usage.cacheCreationInputTokens,
      cacheReadInputTokens: prev.cacheReadInputTokens + usage.cacheReadInputTokens,
      costUsd: prev.costUsd === undefined || costUsd === undefined ? undefined : prev.costUsd + costUsd,
      requests: prev.requests + 1,
    });
    if (costUsd === undefined) this.unpricedRequests++;
    else this.totalCostUsd += costUsd;
  }

  startSession(sessionId: string = randomUUID()): void {
    this.sessionId = sessionId;
  }
}
