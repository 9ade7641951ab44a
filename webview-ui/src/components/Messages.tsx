import { memo, useCallback, useEffect, useRef, useState } from 'react';
import type { ViewMessage, ViewState } from '../../../src/shared/viewState';
import { formatTokens } from '../../../src/shared/format';
import { post } from '../vscodeApi';
import { useView } from '../useView';
import { Markdown } from './Markdown';

const selectCount = (s: ViewState) => s.messages.length;

export function MessageList() {
  const count = useView(selectCount) ?? 0;
  const ref = useRef<HTMLDivElement>(null);
  useStickToBottom(ref);
  const rows = [];
  for (let i = 0; i < count; i++) rows.push(<MessageRow key={i} index={i} />);
  return (
    <div className="message-list" data-testid="message-list" role="log" aria-live="polite" ref={ref}>
      {rows}
    </div>
  );
}

/** Follows new output while the reader is at the bottom; leaves them be once they scroll up. */
function useStickToBottom(ref: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let atBottom = true;
    const onScroll = () => {
      atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    };
    const observer = new ResizeObserver(() => {
      if (atBottom) el.scrollTop = el.scrollHeight;
    });
    for (const child of Array.from(el.children)) observer.observe(child);
    const mutations = new MutationObserver((records) => {
      for (const r of records) r.addedNodes.forEach((n) => n instanceof Element && observer.observe(n));
      if (atBottom) el.scrollTop = el.scrollHeight;
    });
    mutations.observe(el, { childList: true });
    el.addEventListener('scroll', onScroll);
    el.scrollTop = el.scrollHeight;
    return () => {
      observer.disconnect();
      mutations.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [ref]);
}

/** Subscribes to one message, so a streamed token re-renders only the message it grows. */
function MessageRow({ index }: { index: number }) {
  const select = useCallback((s: ViewState) => s.messages[index], [index]);
  const message = useView(select);
  return message ? <MessageView message={message} /> : null;
}

const MessageView = memo(function MessageView({ message }: { message: ViewMessage }) {
  const common = { 'data-testid': 'message', 'data-kind': message.kind, 'data-id': message.id };
  switch (message.kind) {
    case 'user':
      return (
        <div className="message user" {...common}>
          <div className="role">
            <span className="codicon codicon-account" /> You
            {message.rewindable && (
              <span className="message-actions">
                <button className="icon" data-testid="message-rewind" title="Rewind to here: drop this message and everything after it (files on disk are not changed)" onClick={() => post({ type: 'chat/rewind', payload: { id: message.id } })}>
                  <span className="codicon codicon-discard" />
                </button>
                <button className="icon" data-testid="message-fork" title="Fork from here: a new session with the conversation up to this message" onClick={() => post({ type: 'chat/fork', payload: { id: message.id } })}>
                  <span className="codicon codicon-repo-forked" />
                </button>
              </span>
            )}
          </div>
          <div className="user-text">{message.text}</div>
        </div>
      );
    case 'assistant':
      return (
        <div className={`message assistant${message.streaming ? ' streaming' : ''}`} {...common}>
          <div className="role"><span className="codicon codicon-sparkle" /> Threadline</div>
          <Markdown text={message.text} />
          {message.streaming && <span className="cursor" aria-hidden="true" />}
        </div>
      );
    case 'tool':
      return <ToolCard message={message} common={common} />;
    case 'notice':
      return (
        <div className={`message notice ${message.level}`} {...common} role={message.level === 'error' ? 'alert' : 'status'}>
          <span className={`codicon codicon-${message.level === 'info' ? 'info' : message.level}`} />
          <span className="notice-text">{message.text}</span>
          {message.action && (
            <button className="secondary" data-testid="notice-action" onClick={() => post({ type: 'command/run', payload: { command: message.action!.command } })}>
              {message.action.label}
            </button>
          )}
        </div>
      );
    case 'compaction':
      return <CompactionDivider message={message} common={common} />;
  }
});

type Common = Record<string, string>;

const STATUS_ICON: Record<Extract<ViewMessage, { kind: 'tool' }>['status'], string> = {
  pending: 'circle-large-outline',
  'awaiting-permission': 'shield',
  running: 'loading codicon-modifier-spin',
  done: 'check',
  error: 'error',
  denied: 'circle-slash',
  interrupted: 'debug-stop',
};

function ToolCard({ message, common }: { message: Extract<ViewMessage, { kind: 'tool' }>; common: Common }) {
  const [open, setOpen] = useState(false);
  return (
    <div className={`message tool status-${message.status}`} {...common}>
      <div className="tool-card" data-testid="tool-card" data-status={message.status}>
        <button className="tool-head" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className={`codicon codicon-chevron-${open ? 'down' : 'right'}`} />
          <span className="tool-name">{message.name}</span>
          <span className="tool-summary">{message.summary}</span>
          <span className="tool-status" title={message.status}>
            <span className={`codicon codicon-${STATUS_ICON[message.status]}`} />
            {message.durationMs !== undefined && <span className="duration">{(message.durationMs / 1000).toFixed(1)} s</span>}
          </span>
        </button>
        {open && (
          <div className="tool-body">
            <div className="label">Input</div>
            <pre>{message.input}</pre>
            {message.result !== undefined && (
              <>
                <div className="label">Result</div>
                <pre className={message.status === 'error' || message.status === 'denied' ? 'error' : ''}>{message.result}</pre>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

function CompactionDivider({ message, common }: { message: Extract<ViewMessage, { kind: 'compaction' }>; common: Common }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="message compaction" {...common}>
      <button className="divider" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="codicon codicon-fold" /> Compacted: {formatTokens(message.tokensBefore)} → {formatTokens(message.tokensAfter)} tokens
      </button>
      {open && (
        <div className="compaction-body">
          <Markdown text={message.summary} />
          {message.archive && (
            <button className="secondary" data-testid="compaction-archive" onClick={() => post({ type: 'compaction/openArchive', payload: { id: message.id } })} title="The conversation as it was before this compaction, read-only">
              Open archive
            </button>
          )}
          <button className="secondary" data-testid="compaction-undo" disabled={!message.canUndo} onClick={() => post({ type: 'compaction/undo', payload: { id: message.id } })} title={message.canUndo ? 'Restore the conversation as it was before' : 'Undo is not available for this compaction'}>
            Undo
          </button>
        </div>
      )}
    </div>
  );
}
