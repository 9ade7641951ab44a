import { createContext, memo, useCallback, useContext, useRef } from 'react';
import type { ViewMessage, ViewState } from '../../../src/shared/viewState';
import { noticeAction } from '../controls/noticeActions';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { CompactionDivider } from './CompactionDivider';
import { Markdown } from './Markdown';
import type { RowAttributes } from './rowAttributes';
import { ToolCard } from './ToolCard';
import { UserMessageMenu } from './UserMessageMenu';

/** The id of a message just brought into view, so it can be marked for a moment. */
export const FlashContext = createContext<string | undefined>(undefined);

/**
 * Subscribes to one message, so a streamed token re-renders only the message it grows — and
 * while it streams, at most once per frame.
 */
export const MessageRow = memo(function MessageRow({ index }: { index: number }) {
  const select = useCallback((s: ViewState) => s.messages[index], [index]);
  const streaming = useRef(false);
  const message = useView(select, streaming.current);
  streaming.current = message?.kind === 'assistant' && message.streaming;
  const flash = useContext(FlashContext);
  if (!message) return null;
  return (
    <div className={`row${flash === message.id ? ' flash' : ''}`}>
      <MessageView message={message} index={index} />
    </div>
  );
});

const MessageView = memo(function MessageView({ message, index }: { message: ViewMessage; index: number }) {
  const common: RowAttributes = { 'data-testid': 'message', 'data-kind': message.kind, 'data-id': message.id };
  switch (message.kind) {
    case 'user':
      return (
        <div className="message user" {...common}>
          <div className="role">
            <span className="codicon codicon-account" /> You
            <UserMessageMenu id={message.id} rewindable={message.rewindable === true} />
          </div>
          <div className="user-text">{message.text}</div>
        </div>
      );
    case 'assistant':
      return (
        <div className={`message assistant${message.streaming ? ' streaming' : ''}`} {...common}>
          <div className="role">
            <span className="codicon codicon-sparkle" /> Threadline
          </div>
          {message.thinking !== undefined && <ThinkingSection text={message.thinking} live={message.streaming && !message.text} />}
          {message.text && <Markdown text={message.text} streaming={message.streaming} />}
          {message.streaming && <span className="cursor" aria-hidden="true" />}
        </div>
      );
    case 'tool':
      return <ToolCard message={message} common={common} />;
    case 'notice':
      return <Notice message={message} index={index} common={common} />;
    case 'compaction':
      return <CompactionDivider message={message} common={common} />;
  }
});

function Notice({ message, index, common }: { message: Extract<ViewMessage, { kind: 'notice' }>; index: number; common: RowAttributes }) {
  const select = useCallback((s: ViewState) => noticeAction(s, index), [index]);
  const state = useView(select) ?? 'hidden';
  const action = message.action;
  return (
    <div className={`message notice ${message.level}`} {...common} role={message.level === 'error' ? 'alert' : 'status'}>
      <span className={`codicon codicon-${message.level === 'info' ? 'info' : message.level}`} />
      <span className="notice-text">{message.text}</span>
      {action && state !== 'hidden' && (
        <button
          className="secondary"
          data-testid="notice-action"
          disabled={state === 'stale'}
          title={state === 'stale' ? 'This has been answered since' : undefined}
          onClick={() => post(action.command === 'switchModel' ? { type: 'model/switch', payload: { model: action.model } } : { type: 'command/run', payload: { command: action.command } })}
        >
          {action.label}
        </button>
      )}
    </div>
  );
}

/** The model's thinking before an answer: collapsed, the user opens it if they care. */
function ThinkingSection({ text, live }: { text: string; live: boolean }) {
  return (
    <details className="thinking" data-testid="thinking">
      <summary>
        <span className="codicon codicon-lightbulb" /> {live ? 'Thinking…' : 'Thinking'}
      </summary>
      <div className="thinking-text">{text}</div>
    </details>
  );
}
