import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Attachment, ViewMessage } from '../../../src/shared/viewState';
import { userMessageActions } from '../controls/messageActions';
import { post } from '../vscodeApi';
import type { RowAttributes } from './rowAttributes';

type UserViewMessage = Extract<ViewMessage, { kind: 'user' }>;

export const attachmentLabel = (a: Attachment) => (a.kind === 'file' ? a.path : `${a.path}:${a.startLine === a.endLine ? a.startLine : `${a.startLine}-${a.endLine}`}`);

/** What the user sent: their words, with chips for the files and selections that went with them. */
export function UserMessage({ message, common }: { message: UserViewMessage; common: RowAttributes }) {
  return (
    <div className="message user" {...common}>
      <div className="role">
        <span className="codicon codicon-account" /> You
        {message.rewindable && <MessageMenu id={message.id} />}
      </div>
      {message.attachments && message.attachments.length > 0 && (
        <div className="attachments sent" data-testid="sent-attachments">
          {message.attachments.map((a) => (
            <span key={a.id} className="chip" data-testid="sent-attachment" data-kind={a.kind} title={attachmentLabel(a)}>
              <span className={`codicon codicon-${a.kind === 'file' ? 'file' : 'selection'}`} />
              <span className="chip-label">{attachmentLabel(a)}</span>
            </span>
          ))}
        </div>
      )}
      <div className="user-text">{message.text}</div>
    </div>
  );
}

/** Rewind and Fork behind one button: a menu that says what each does before anything happens. */
function MessageMenu({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const actions = userMessageActions(id);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) opener.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') close(true);
    else if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
    else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <span className="message-actions">
      <button
        ref={opener}
        className="icon"
        data-testid="message-menu"
        title="Rewind or fork from here…"
        aria-label="Rewind or fork from here"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="codicon codicon-discard" />
      </button>
      {open && (
        <div
          ref={menu}
          className="message-menu"
          role="menu"
          data-testid="message-menu-list"
          onKeyDown={onKeyDown}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null) && e.relatedTarget !== opener.current) setOpen(false);
          }}
        >
          {actions.map((a) => (
            <button
              key={a.key}
              role="menuitem"
              className="menu-item"
              data-testid={`message-${a.key}`}
              onClick={() => {
                close(false);
                post(a.message);
              }}
            >
              <span className={`codicon codicon-${a.icon}`} />
              <span className="menu-text">
                <span className="menu-label">{a.label}</span>
                <span className="menu-detail">{a.detail}</span>
              </span>
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
