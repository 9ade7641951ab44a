import { useSyncExternalStore } from 'react';
import { formatTokens } from '../../../src/shared/format';
import type { McpServerView } from '../../../src/shared/mcpView';
import type { ViewState } from '../../../src/shared/viewState';
import { useView } from '../useView';
import { post } from '../vscodeApi';

// The window's MCP servers: a project server waiting for the user's approval shows as a banner
// by itself; the full list (state, tools, tokens, the log of a failed one) opens from the header.

const selectServers = (s: ViewState) => s.mcpServers;

let open = false;
const listeners = new Set<() => void>();
function toggle(): void {
  open = !open;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};
const useOpen = () => useSyncExternalStore(subscribe, () => open);

const STATE: Record<McpServerView['state'], string> = {
  starting: 'starting',
  running: 'running',
  failed: 'failed',
  disabled: 'off',
  'awaiting-approval': 'needs approval',
  stopped: 'stopped',
};

/** The header's plug: opens the list; marked when a server failed or waits for an answer. */
export function McpButton() {
  const servers = useView(selectServers) ?? [];
  const isOpen = useOpen();
  if (!servers.length) return null;
  const attention = servers.some((s) => s.state === 'failed' || s.state === 'awaiting-approval');
  return (
    <button className={`icon mcp-button${attention ? ' attention' : ''}${isOpen ? ' active' : ''}`} data-testid="mcp-button" aria-pressed={isOpen} title={`MCP servers (${servers.filter((s) => s.state === 'running').length} of ${servers.length} running)`} onClick={toggle}>
      <span className="codicon codicon-plug" />
    </button>
  );
}

function Approval({ s }: { s: McpServerView }) {
  return (
    <div className="mcp-approval" role="dialog" data-testid="mcp-approval" data-name={s.name} aria-label={`Start the MCP server ${s.name}?`}>
      <div>
        <span className="codicon codicon-plug" /> <strong>{s.source}</strong> defines the MCP server <strong>{s.name}</strong>. Start it? It runs with your permissions:
      </div>
      <pre className="mcp-target">{s.target}</pre>
      <div className="permission-actions">
        <button data-testid="mcp-approve" onClick={() => post({ type: 'mcp/approve', payload: { name: s.name } })}>
          Allow
        </button>
        <button className="secondary" data-testid="mcp-deny" onClick={() => post({ type: 'mcp/deny', payload: { name: s.name } })}>
          Deny
        </button>
      </div>
    </div>
  );
}

function Row({ s }: { s: McpServerView }) {
  return (
    <li className={`mcp-server state-${s.state}`} data-testid="mcp-server" data-name={s.name} data-state={s.state}>
      <div className="mcp-server-head">
        <strong>{s.name}</strong> <span className={`mcp-state state-${s.state}`}>{STATE[s.state]}</span>
        {s.state === 'running' && (
          <span className="muted">
            {s.tools} tools · {formatTokens(s.tokens)} tokens{s.deferred ? ' · deferred' : ''}
          </span>
        )}
        {s.state === 'failed' && (
          <button className="link" data-testid="mcp-retry" onClick={() => post({ type: 'mcp/restart', payload: { name: s.name } })}>
            Retry
          </button>
        )}
      </div>
      <div className="muted">
        {s.scope} · {s.source} · <code>{s.target}</code>
      </div>
      {s.detail && <div className="mcp-detail">{s.detail}</div>}
      {s.logTail && s.state !== 'running' && <pre className="mcp-log">{s.logTail}</pre>}
    </li>
  );
}

/** Approvals always; the list while it is open. */
export function McpPanel() {
  const servers = useView(selectServers) ?? [];
  const isOpen = useOpen();
  const waiting = servers.filter((s) => s.state === 'awaiting-approval');
  return (
    <>
      {waiting.map((s) => (
        <Approval key={s.name} s={s} />
      ))}
      {isOpen && (
        <section className="mcp-view" data-testid="mcp-view">
          <div className="context-toolbar">
            <h2>MCP servers</h2>
            <button className="icon" title="Close" onClick={toggle}>
              <span className="codicon codicon-close" />
            </button>
          </div>
          <ul className="mcp-list">
            {servers.map((s) => (
              <Row key={s.name} s={s} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** In the Context view: what each server's definitions cost, sent in full or deferred. */
export function McpContextSection() {
  const servers = (useView(selectServers) ?? []).filter((s) => s.state === 'running');
  if (!servers.length) return null;
  return (
    <>
      <h3>MCP servers</h3>
      <table className="context-categories" data-testid="context-mcp">
        <tbody>
          {servers.map((s) => (
            <tr key={s.name} data-testid="context-mcp-server" data-name={s.name} data-tokens={s.tokens}>
              <th title={s.source}>{s.name}</th>
              <td className="muted">{s.deferred ? 'deferred: names only until loaded' : 'definitions sent'}</td>
              <td className="num">{s.tools} tools</td>
              <td className="num">{formatTokens(s.tokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
