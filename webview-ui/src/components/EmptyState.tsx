import { useEffect } from 'react';
import { counted, formatWhen } from '../../../src/shared/format';
import type { ViewState } from '../../../src/shared/viewState';
import { useView } from '../useView';
import { post } from '../vscodeApi';

const selectKey = (s: ViewState) => s.apiKeySet;
const selectRecent = (s: ViewState) => s.recent;

/** The latest sessions, one click from being resumed (like Cline's home). */
function RecentSessions() {
  const recent = useView(selectRecent) ?? [];
  useEffect(() => post({ type: 'history/recent', payload: {} }), []);
  if (!recent.length) return null;
  return (
    <div className="recent" data-testid="recent-sessions">
      <h3>Recent sessions</h3>
      <ul>
        {recent.map((h) => (
          <li key={h.id}>
            <button className="link recent-item" data-testid="recent-session" title={`Resume “${h.title}”`} onClick={() => post({ type: 'history/resume', payload: { id: h.id } })}>
              <span className="recent-title">{h.title}</span>
              <span className="recent-meta">
                {formatWhen(h.updatedAt)} · {counted(h.messageCount, 'message')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function EmptyState() {
  const keySet = useView(selectKey);
  return (
    <div className="empty" data-testid="empty-state">
      <span className="codicon codicon-sparkle big" />
      {keySet ? (
        <>
          <h2>What are we working on?</h2>
          <p>Ask about this workspace, or describe a change. Threadline reads files freely and asks before it edits or runs anything.</p>
          <RecentSessions />
        </>
      ) : (
        <>
          <h2>Set an API key first</h2>
          <p>
            Threadline talks to Anthropic's Messages API with your own key. Press the button (or run <b>Threadline: Set API Key</b> from the command palette) to keep it in VS Code's secret storage, or start the editor with <code>ANTHROPIC_API_KEY</code> in its environment.
          </p>
          <button onClick={() => post({ type: 'command/run', payload: { command: 'setApiKey' } })}>
            <span className="codicon codicon-key" /> Set API Key
          </button>
        </>
      )}
    </div>
  );
}
