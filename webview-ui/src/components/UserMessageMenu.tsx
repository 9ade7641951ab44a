import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { userMessageActions } from '../controls/undoMenu';
import { post } from '../vscodeApi';

/**
 * The menu on a user message: restore code, conversation or both, fork, summarise. One button
 * opens it; nothing happens on that first click, and each entry says what it does.
 */
export function UserMessageMenu({ id, rewindable }: { id: string; rewindable: boolean }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const actions = userMessageActions(id, { rewindable });
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
        title="Restore, fork or summarise from here…"
        aria-label="Restore, fork or summarise from here"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="codicon codicon-history" />
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
