import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ViewState } from '../../../src/shared/viewState';
import { fuzzyFiles } from '../controls/fuzzy';
import { useView } from '../useView';
import { post } from '../vscodeApi';

const selectAttachments = (s: ViewState) => s.attachments;
const selectChoices = (s: ViewState) => s.fileChoices;

/** The files and selections that go with the next message, each removable before sending. */
export function AttachmentChips() {
  const attachments = useView(selectAttachments) ?? [];
  if (!attachments.length) return null;
  return (
    <div className="attachments" data-testid="attachments">
      {attachments.map((a) => {
        const label = a.kind === 'file' ? a.path : `${a.path}:${a.startLine === a.endLine ? a.startLine : `${a.startLine}-${a.endLine}`}`;
        return (
          <span key={a.id} className="chip" data-testid="attachment-chip" data-kind={a.kind} title={label}>
            <span className={`codicon codicon-${a.kind === 'file' ? 'file' : 'selection'}`} />
            <span className="chip-label">{label}</span>
            <button className="icon chip-remove" aria-label={`Remove ${label}`} data-testid="attachment-remove" onClick={() => post({ type: 'attach/remove', payload: { id: a.id } })}>
              <span className="codicon codicon-close" />
            </button>
          </span>
        );
      })}
    </div>
  );
}

/** The `@` picker: the host lists the workspace's files once, the filtering happens here as you type. */
export function FilePicker({ onDone }: { onDone(): void }) {
  const choices = useView(selectChoices);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => fuzzyFiles(choices ?? [], query), [choices, query]);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => setActive(0), [query]);
  if (choices === null || choices === undefined) return null;
  const pick = (path: string | undefined) => {
    if (path) post({ type: 'attach/file', payload: { path } });
    else post({ type: 'attach/cancel', payload: {} });
    onDone();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive((i) => Math.min(shown.length - 1, i + 1));
    else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
    else if (e.key === 'Enter') pick(shown[active]);
    else if (e.key === 'Escape') pick(undefined);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div className="file-picker" data-testid="file-picker" role="dialog" aria-label="Attach a file">
      <input ref={input} data-testid="file-picker-input" placeholder="Attach a file: type to filter" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={onKeyDown} />
      <ul role="listbox">
        {shown.map((path, i) => (
          <li key={path} role="option" aria-selected={i === active} className={i === active ? 'active' : ''} data-testid="file-choice" onMouseDown={(e) => (e.preventDefault(), pick(path))}>
            {path}
          </li>
        ))}
        {!shown.length && <li className="empty">{choices.length ? 'No file matches' : 'Listing files…'}</li>}
      </ul>
    </div>
  );
}
