import type { ContextPreview } from '../context/breakdown';
import type { AppState } from '../state/appState';
import type { ContextReport, ContextViewRule } from '../shared/contextView';

/**
 * Builds the Context view's report from the store and the agent's preview of its next request.
 * A failed preview still gives a report (thresholds, usage, rules), with the error named.
 */
export async function buildContextReport(state: AppState, preview: Promise<ContextPreview> | undefined, rules: readonly ContextViewRule[] = []): Promise<ContextReport> {
  let p: ContextPreview | undefined;
  let breakdownError: string | undefined;
  try {
    p = await preview;
  } catch (err) {
    breakdownError = err instanceof Error ? err.message : String(err);
  }
  const t = state.tokens;
  const u = state.lastUsage;
  return {
    model: state.model,
    contextWindow: t.contextWindow,
    used: t.used,
    categories: (p?.categories ?? []).filter((c) => c.tokens > 0).map((c) => ({ name: c.name, tokens: c.tokens })),
    ...(breakdownError ? { breakdownError } : {}),
    thresholds: { warningAt: t.warningAt, autoCompactAt: t.autoCompactAt, blockingAt: t.blockingAt, effectiveWindow: t.effectiveWindow },
    lastResponse: u ? { cacheRead: u.cacheReadInputTokens, cacheWrite: u.cacheCreationInputTokens, uncached: u.inputTokens, output: u.outputTokens } : null,
    instructionFiles: (p?.instructionFiles ?? []).map((f) => ({
      path: f.path,
      kind: f.kind,
      status: f.status,
      detail: [f.why, f.reason, f.warning].filter(Boolean).join('; '),
      tokens: f.tokensEstimate ?? 0,
    })),
    rules: rules.map((r) => ({ behavior: r.behavior, rule: r.rule, source: r.source, active: r.active })),
    messageCount: state.messages.length,
  };
}
