import { useMemo, useState } from 'react';
import { counted, formatWhen } from '../../../src/shared/format';
import type { HistoryItem, ViewState } from '../../../src/shared/viewState';
import { post } from '../vscodeApi';
import { useView } from '../useView';

const selectHistory = (s: ViewState) => s.history;

/** The saved sessions of this workspace, in the panel: search, resume, rename, export, delete. */
export function HistoryView() {
  const items = useView(selectHistory);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (items ?? []).filter((i) => !q || i.title.toLowerCase().includes(q) || i.preview.toLowerCase().includes(q) || i.id.includes(q));
  }, [items, query]);
  if (!items) return null;
  return (
    <div className="history" data-testid="history">
      <div className="history-head">
        <input
          data-testid="history-search"
          aria-label="Search sessions"
          placeholder="Search titles and what you asked"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoFocus
        />
        <button className="secondary" data-testid="history-close" onClick={() => post({ type: 'history/hide', payload: {} })}>
          Back to chat
        </button>
      </div>
      {shown.length === 0 && <p className="history-empty">{items.length ? 'No session matches.' : 'No saved sessions yet.'}</p>}
      <ul className="history-list">
        {shown.map((i) => (
          <HistoryRow key={i.id} item={i} />
        ))}
      </ul>
    </div>
  );
}

function HistoryRow({ item }: { item: HistoryItem }) {
  const send = (type: 'history/rename' | 'history/delete' | 'history/export') => post({ type, payload: { id: item.id } });
  return (
    <li className={`history-row${item.current ? ' current' : ''}`} data-testid="history-row" data-id={item.id}>
      <button className="history-open" title={item.current ? 'The open session' : 'Resume this session'} onClick={() => post({ type: 'history/resume', payload: { id: item.id } })}>
        <span className="history-title">{item.title}</span>
        <span className="history-meta">
          {formatWhen(item.updatedAt)} · {counted(item.messageCount, 'message')}{item.current ? ' · open' : ''}
        </span>
      </button>
      <span className="history-actions">
        <button className="icon" data-testid="history-rename" title="Rename" onClick={() => send('history/rename')}>
          <span className="codicon codicon-edit" />
        </button>
        <button className="icon" data-testid="history-export" title="Export as Markdown" onClick={() => send('history/export')}>
          <span className="codicon codicon-markdown" />
        </button>
        {!item.current && (
          <button className="icon" data-testid="history-delete" title="Delete (can be undone)" onClick={() => send('history/delete')}>
            <span className="codicon codicon-trash" />
          </button>
        )}
      </span>
    </li>
  );
}
