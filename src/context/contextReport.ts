import type { AppState } from '../state/appState';
import { formatTokens } from '../shared/format';

/**
 * A plain-text account of what the next request holds, shared by "Show Context" and
 * `threadline context`. Grows as the context services land.
 */
export function renderContextReport(state: AppState): string {
  const t = state.tokens;
  const pct = (n: number) => (t.contextWindow ? `${((n / t.contextWindow) * 100).toFixed(1)}%` : '-');
  const lines = [
    '# Threadline context',
    '',
    `Session: ${state.sessionTitle} (${state.sessionId})`,
    `Model: ${state.model}`,
    '',
    '| | tokens | share of window |',
    '|---|---:|---:|',
    `| In use | ${formatTokens(t.used)} | ${pct(t.used)} |`,
    `| Context window | ${formatTokens(t.contextWindow)} | 100% |`,
    `| Effective window (less output room) | ${formatTokens(t.effectiveWindow)} | ${pct(t.effectiveWindow)} |`,
    `| Warning from | ${formatTokens(t.warningAt)} | ${pct(t.warningAt)} |`,
    `| Auto-compact at | ${formatTokens(t.autoCompactAt)} | ${pct(t.autoCompactAt)} |`,
    `| New prompts blocked at | ${formatTokens(t.blockingAt)} | ${pct(t.blockingAt)} |`,
    '',
    `Messages in the conversation: ${state.messages.length}`,
  ];
  const u = state.lastUsage;
  if (u) {
    lines.push(
      '',
      '## Last response',
      '',
      `Input ${u.inputTokens}, cache read ${u.cacheReadInputTokens}, cache write ${u.cacheCreationInputTokens}, output ${u.outputTokens}.`,
    );
  }
  return lines.join('\n') + '\n';
}
