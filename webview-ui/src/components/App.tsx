import type { ViewState } from '../../../src/shared/viewState';
import { formatTokens } from '../../../src/shared/format';
import { post } from '../vscodeApi';
import { useView } from '../useView';
import { Composer } from './Composer';
import { MessageList } from './Messages';
import { PermissionPrompt } from './PermissionPrompt';
import { HistoryView } from './History';

// Any snapshot at all means the host has answered the ready handshake.
const selectLoaded = (_s: ViewState) => true as const;
const selectTitle = (s: ViewState) => s.sessionTitle;
const selectTokens = (s: ViewState) => s.tokens;
const selectEmpty = (s: ViewState) => s.messages.length === 0;
const selectKey = (s: ViewState) => s.apiKeySet;
const selectTrusted = (s: ViewState) => s.workspaceTrusted;
const selectHistoryOpen = (s: ViewState) => s.history !== null;

function TokenMeter() {
  const t = useView(selectTokens);
  if (!t) return null;
  const pct = t.contextWindow ? Math.min(100, Math.round((t.used / t.contextWindow) * 100)) : 0;
  return (
    <div className={`token-meter level-${t.level}`} data-testid="token-meter" title={`${t.used} of ${t.contextWindow} tokens`}>
      <div className="bar"><div className="fill" style={{ width: `${pct}%` }} /></div>
      <span>{formatTokens(t.used)} / {formatTokens(t.contextWindow)}</span>
    </div>
  );
}

function EmptyState() {
  const keySet = useView(selectKey);
  return (
    <div className="empty" data-testid="empty-state">
      <span className="codicon codicon-sparkle big" />
      {keySet ? (
        <>
          <h2>What are we working on?</h2>
          <p>Ask about this workspace, or describe a change. Threadline reads files freely and asks before it edits or runs anything.</p>
        </>
      ) : (
        <>
          <h2>Set an API key first</h2>
          <p>Threadline talks to Anthropic's Messages API with your own key. Press the button (or run <b>Threadline: Set API Key</b> from the command palette) to keep it in VS Code's secret storage, or start the editor with <code>ANTHROPIC_API_KEY</code> in its environment.</p>
          <button onClick={() => post({ type: 'command/run', payload: { command: 'setApiKey' } })}>
            <span className="codicon codicon-key" /> Set API Key
          </button>
        </>
      )}
    </div>
  );
}

export function App() {
  const loaded = useView(selectLoaded);
  const title = useView(selectTitle);
  const empty = useView(selectEmpty);
  const trusted = useView(selectTrusted);
  const historyOpen = useView(selectHistoryOpen);
  if (!loaded) return <div className="loading" data-testid="loading">Loading…</div>;
  return (
    <div className="app" data-testid="app">
      <header className="header">
        <span className="title" title={title}>{title}</span>
        <TokenMeter />
        <button className="icon" data-testid="history-button" title="Session history" onClick={() => post({ type: historyOpen ? 'history/hide' : 'history/show', payload: {} })}>
          <span className="codicon codicon-history" />
        </button>
      </header>
      {!trusted && (
        <div className="banner" role="status">
          <span className="codicon codicon-workspace-untrusted" /> Restricted Mode: Threadline can read and answer, but it does not load project instruction files, edit files or run commands until you trust this folder.
        </div>
      )}
      {historyOpen ? <HistoryView /> : empty ? <EmptyState /> : <MessageList />}
      <PermissionPrompt />
      <Composer />
    </div>
  );
}
