import { useEffect } from 'react';
import type { ContextReport } from '../../../src/shared/contextView';
import { formatTokens } from '../../../src/shared/format';
import type { ViewState } from '../../../src/shared/viewState';
import { closeContext, requestContext, useContextChannel } from '../contextChannel';
import { useView } from '../useView';
import { McpContextSection } from './McpServers';
import { post } from '../vscodeApi';

// What changes the next request: a reply (status back to idle, new figures), a compaction
// (fewer tokens), a model switch (another window). The view asks again when any of them moves.
const selectFreshness = (s: ViewState) => `${s.status}|${s.tokens.used}|${s.tokens.contextWindow}|${s.model}|${s.messages.length}|${s.sessionId}`;

const pct = (n: number, of: number) => (of > 0 ? Math.min(100, (n / of) * 100) : 0);

function Thresholds({ r }: { r: ContextReport }) {
  const marks = [
    { name: 'warning', at: r.thresholds.warningAt },
    { name: 'auto-compact', at: r.thresholds.autoCompactAt },
    { name: 'blocking', at: r.thresholds.blockingAt },
  ].filter((m) => m.at > 0);
  return (
    <>
      {marks.map((m) => (
        <span key={m.name} className={`threshold threshold-${m.name}`} data-testid={`context-threshold-${m.name}`} style={{ left: `${pct(m.at, r.contextWindow)}%` }} title={`${m.name} at ${formatTokens(m.at)}`} />
      ))}
    </>
  );
}

function Overview({ r }: { r: ContextReport }) {
  const estimated = r.categories.reduce((n, c) => n + c.tokens, 0);
  const free = Math.max(0, r.contextWindow - estimated);
  return (
    <div className="context-overview">
      <div className="context-stack" data-testid="context-stack" title={`${formatTokens(estimated)} of ${formatTokens(r.contextWindow)} estimated`}>
        {r.categories.map((c, i) => (
          <span key={c.name} className={`segment seg-${i % 6}`} style={{ width: `${pct(c.tokens, r.contextWindow)}%` }} />
        ))}
        <Thresholds r={r} />
      </div>
      <div className="context-legend">
        <span>{r.model}</span>
        <span data-testid="context-free">Free {formatTokens(free)} ({pct(free, r.contextWindow).toFixed(1)}%)</span>
        <span>
          Warning {formatTokens(r.thresholds.warningAt)} · Auto-compact {formatTokens(r.thresholds.autoCompactAt)} · Blocking {formatTokens(r.thresholds.blockingAt)}
        </span>
      </div>
    </div>
  );
}

function Categories({ r }: { r: ContextReport }) {
  const sorted = [...r.categories].sort((a, b) => b.tokens - a.tokens);
  return (
    <table className="context-categories">
      <tbody>
        {sorted.map((c) => (
          <tr key={c.name} data-testid="context-category" data-name={c.name} data-tokens={c.tokens}>
            <th title={c.name}>{c.name}</th>
            <td className="bar-cell">
              <span className="bar" style={{ width: `${pct(c.tokens, r.contextWindow)}%` }} />
            </td>
            <td className="num">{formatTokens(c.tokens)}</td>
            <td className="num">{pct(c.tokens, r.contextWindow).toFixed(1)}%</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LastResponse({ r }: { r: ContextReport }) {
  const u = r.lastResponse;
  if (!u) return <p className="muted">No response yet in this session.</p>;
  const input = u.cacheRead + u.cacheWrite + u.uncached;
  const rows = [
    ['Read from cache', u.cacheRead],
    ['Written to cache', u.cacheWrite],
    ['Uncached', u.uncached],
  ] as const;
  return (
    <table className="context-usage" data-testid="context-usage">
      <tbody>
        {rows.map(([name, n]) => (
          <tr key={name}>
            <th>{name}</th>
            <td className="bar-cell">
              <span className="bar" style={{ width: `${pct(n, input)}%` }} />
            </td>
            <td className="num">{n}</td>
          </tr>
        ))}
        <tr>
          <th>Output</th>
          <td />
          <td className="num">{u.output}</td>
        </tr>
      </tbody>
    </table>
  );
}

function Sources({ r }: { r: ContextReport }) {
  return (
    <>
      <h3>Instruction files</h3>
      {r.instructionFiles.length === 0 ? (
        <p className="muted">None found.</p>
      ) : (
        <ul className="context-files">
          {r.instructionFiles.map((f) => (
            <li key={`${f.kind}:${f.path}`} className={`file-${f.status}`} title={f.detail}>
              <code>{f.path}</code> <span className="muted">({f.kind}) {f.status}{f.tokens ? `, ${formatTokens(f.tokens)}` : ''}</span>
              {f.detail && <div className="muted detail">{f.detail}</div>}
            </li>
          ))}
        </ul>
      )}
      <h3>Permission rules</h3>
      {r.rules.length === 0 ? (
        <p className="muted">No rules: every tool that changes something asks.</p>
      ) : (
        <ul className="context-rules">
          {r.rules.map((x, i) => (
            <li key={i} className={x.active ? '' : 'inactive'}>
              <span className={`behavior behavior-${x.behavior}`}>{x.behavior}</span> <code>{x.rule}</code> <span className="muted">{x.source}{x.active ? '' : ' (not in force: folder not trusted)'}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The Context view: what the next request holds, drawn to scale, asked for while it is open. */
export function ContextView() {
  const { report, loading } = useContextChannel();
  const freshness = useView(selectFreshness);
  useEffect(() => requestContext(), [freshness]);
  return (
    <section className="context-view" data-testid="context-view" aria-busy={loading}>
      <div className="context-toolbar">
        <h2>Context</h2>
        <button className="secondary" data-testid="context-markdown" onClick={() => post({ type: 'command/run', payload: { command: 'showContextMarkdown' } })}>
          Open as Markdown
        </button>
        <button className="icon" title="Close" data-testid="context-close" onClick={closeContext}>
          <span className="codicon codicon-close" />
        </button>
      </div>
      {!report ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <Overview r={report} />
          {report.breakdownError && <p className="muted">The breakdown could not be built: {report.breakdownError}</p>}
          <Categories r={report} />
          <McpContextSection />
          <h3>Last response</h3>
          <LastResponse r={report} />
          <Sources r={report} />
        </>
      )}
    </section>
  );
}
