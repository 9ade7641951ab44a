import type { AppState } from '../state/appState';
import { formatTokens } from '../shared/format';
import { renderPreview, type ContextPreview } from './breakdown';

/**
 * A plain-text account of what the next request holds, shared by "Show Context" and
 * `threadline context`. Grows as the context services land.
 */
export function renderContextReport(state: AppState, preview?: ContextPreview, windowFrom?: string): string {
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
    ...(windowFrom ? ['', `The context window is from ${windowFrom}.`] : []),
    '',
    `Messages in the conversation: ${state.messages.length}`,
  ];
  if (preview) lines.push('', ...renderPreview(preview, t.contextWindow));
  const mcp = state.mcpServers.filter((s) => s.state === 'running');
  if (mcp.length) {
    lines.push('', '## MCP servers', '', '| server | tools | definition tokens | sent |', '|---|---:|---:|---|');
    for (const s of mcp) lines.push(`| ${s.name} | ${s.tools} | ${formatTokens(s.tokens)} | ${s.deferred ? 'deferred (names only until loaded)' : 'in full'} |`);
  }
  const u = state.lastUsage;
  if (u) {
    const input = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
    const share = (n: number) => (input ? `${((n / input) * 100).toFixed(0)}%` : '-');
    lines.push(
      '',
      '## Last response',
      '',
      `| input tokens | count | share |`,
      `|---|---:|---:|`,
      `| read from cache | ${u.cacheReadInputTokens} | ${share(u.cacheReadInputTokens)} |`,
      `| written to cache | ${u.cacheCreationInputTokens} | ${share(u.cacheCreationInputTokens)} |`,
      `| uncached | ${u.inputTokens} | ${share(u.inputTokens)} |`,
      '',
      `Output: ${u.outputTokens} tokens.`,
    );
  } else {
    lines.push('', 'No response yet in this session.');
  }
  return lines.join('\n') + '\n';
}
