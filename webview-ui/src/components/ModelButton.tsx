import type { ViewState } from '../../../src/shared/viewState';
import { formatTokens } from '../../../src/shared/format';
import { useView } from '../useView';
import { post } from '../vscodeApi';

const selectModel = (s: ViewState) => s.modelView;

/** "Claude Opus 5.5" → "Opus 5.5": the sidebar is narrow and every model is Claude. */
function shortModelName(displayName: string): string {
  return displayName.replace(/^Claude\s+/i, '') || displayName;
}

/** The header's model: its display name; a click opens the Select Model picker. */
export function ModelButton() {
  const m = useView(selectModel);
  if (!m) return null;
  const deprecated = m.lifecycle === 'deprecated';
  const title =
    `Model: ${m.displayName} (${m.id}), ${formatTokens(m.contextWindow)} window; thinking ${m.thinking ? 'on' : 'off'}` +
    (deprecated ? `. Deprecated${m.retiresAt ? `: retires on ${m.retiresAt.slice(0, 10)}` : ''}` : '') +
    '. Click to switch (or type /model).';
  return (
    <button
      className={`model-button${deprecated ? ' deprecated' : ''}`}
      data-testid="model-button"
      data-model-id={m.id}
      title={title}
      aria-label={title}
      onClick={() => post({ type: 'command/run', payload: { command: 'selectModel' } })}
    >
      {deprecated && <span className="codicon codicon-warning" />}
      <span className="model-name">{shortModelName(m.displayName)}</span>
      {m.thinking && <span className="codicon codicon-lightbulb" data-testid="thinking-on" />}
      <span className="codicon codicon-chevron-down" />
    </button>
  );
}
