import { formatTokens } from '../../../src/shared/format';
import type { ViewState } from '../../../src/shared/viewState';
import { useEscToStop } from '../controls/useEscToStop';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { toggleContext, useContextChannel } from '../contextChannel';
import { Composer } from './Composer';
import { ContextView } from './ContextView';
import { EmptyState } from './EmptyState';
import { HistoryView } from './History';
import { McpButton, McpPanel } from './McpServers';
import { MessageList } from './MessageList';
import { ModelButton } from './ModelButton';
import { PermissionPrompt } from './PermissionPrompt';
import { RestorePanel } from './RestorePanel';
import { RetryLine } from './RetryLine';
import { SummarizePanel } from './SummarizePanel';

// Any snapshot at all means the host has answered the ready handshake.
const selectLoaded = (_s: ViewState) => true as const;
const selectTitle = (s: ViewState) => s.sessionTitle;
const selectTokens = (s: ViewState) => s.tokens;
const selectEmpty = (s: ViewState) => s.messages.length === 0;
const selectTrusted = (s: ViewState) => s.workspaceTrusted;
const selectHistoryOpen = (s: ViewState) => s.history !== null;

/** The meter is the Context view's toggle: what the figure is made of is one click away. */
function TokenMeter({ open }: { open: boolean }) {
  const t = useView(selectTokens);
  if (!t) return null;
  const pct = t.contextWindow ? Math.min(100, Math.round((t.used / t.contextWindow) * 100)) : 0;
  return (
    <button
      className={`token-meter level-${t.level}${open ? ' active' : ''}`}
      data-testid="context-button"
      aria-pressed={open}
      title={`${t.used} of ${t.contextWindow} tokens (${pct}%): ${open ? 'close' : 'show'} Context`}
      onClick={toggleContext}
    >
      <span className="bar" data-testid="token-meter">
        <span className="fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="figures">
        {formatTokens(t.used)}/{formatTokens(t.contextWindow)}
      </span>
    </button>
  );
}

export function App() {
  const loaded = useView(selectLoaded);
  const title = useView(selectTitle);
  const empty = useView(selectEmpty);
  const trusted = useView(selectTrusted);
  const historyOpen = useView(selectHistoryOpen);
  const contextOpen = useContextChannel().open;
  useEscToStop();
  if (!loaded) return <div className="loading" data-testid="loading">Loading…</div>;
  return (
    <div className="app" data-testid="app">
      <header className="header">
        <span className="title" data-testid="session-title" title={title}>
          {title}
        </span>
        <ModelButton />
        <TokenMeter open={contextOpen} />
        <McpButton />
        <button className="icon session-diff" data-testid="session-diff-button" title="Changes in this session: every file the agent changed, against its first snapshot" onClick={() => post({ type: 'session/diff', payload: {} })}>
          <span className="codicon codicon-diff-multiple" />
        </button>
        <button className="icon" data-testid="history-button" title="Session history" onClick={() => post({ type: historyOpen ? 'history/hide' : 'history/show', payload: {} })}>
          <span className="codicon codicon-history" />
        </button>
      </header>
      {!trusted && (
        <div className="banner" role="status">
          <span className="codicon codicon-workspace-untrusted" /> Restricted Mode: Threadline can read and answer, but it does not load project instruction files, edit files or run commands until you trust this folder.
        </div>
      )}
      <McpPanel />
      {contextOpen ? <ContextView /> : historyOpen ? <HistoryView /> : empty ? <EmptyState /> : <MessageList />}
      <RetryLine />
      <RestorePanel />
      <SummarizePanel />
      <PermissionPrompt />
      <Composer />
    </div>
  );
}
