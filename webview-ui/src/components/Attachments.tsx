import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { ViewState } from '../../../src/shared/viewState';
import { fuzzyFiles } from '../controls/fuzzy';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { attachmentLabel } from './UserMessage';

const selectAttachments = (s: ViewState) => s.attachments;
const selectChoices = (s: ViewState) => s.fileChoices;

/** The files and selections that go with the next message, each removable before sending. */
export function AttachmentChips() {
  const attachments = useView(selectAttachments) ?? [];
  if (!attachments.length) return null;
  return (
    <div className="attachments" data-testid="attachments">
      {attachments.map((a) => {
        const label = attachmentLabel(a);
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

/**
 * The `@` picker: the host lists the workspace's files once, the filtering happens here as you
 * type. It opens (and takes the keyboard) at the `@` itself, before the list arrives: what is
 * typed right after the `@` filters the list instead of landing in the message.
 */
export function FilePicker({ onDone }: { onDone(): void }) {
  const choices = useView(selectChoices);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const shown = useMemo(() => fuzzyFiles(choices ?? [], query), [choices, query]);
  // Focused as it is attached, in the same commit as the `@`: an effect runs a moment later,
  // and a key pressed in between went to the message box.
  const focusOnMount = useCallback((el: HTMLInputElement | null) => el?.focus(), []);
  useEffect(() => setActive(0), [query]);
  const pick = (path: string | undefined) => {
    if (path) post({ type: 'attach/file', payload: { path } });
    else post({ type: 'attach/cancel', payload: {} });
    onDone();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive((i) => Math.min(shown.length - 1, i + 1));
    else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
    else if (e.key === 'Enter') {
      // Still listing: Enter waits for the list rather than cancelling what was typed.
      if (choices === null || choices === undefined) return e.preventDefault();
      pick(shown[active]);
    } else if (e.key === 'Escape') pick(undefined);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const listing = choices === null || choices === undefined;
  return (
    <div className="file-picker" data-testid="file-picker" role="dialog" aria-label="Attach a file">
      <input
        ref={focusOnMount}
        data-testid="file-picker-input"
        placeholder="Attach a file: type to filter"
        aria-label="Attach a file: type to filter"
        aria-controls="file-choices"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <ul role="listbox" id="file-choices">
        {shown.map((path, i) => (
          <li key={path} role="option" aria-selected={i === active} className={i === active ? 'active' : ''} data-testid="file-choice" onMouseDown={(e) => (e.preventDefault(), pick(path))}>
            {path}
          </li>
        ))}
        {!shown.length && <li className="empty">{listing ? 'Listing files…' : choices.length ? 'No file matches' : 'No files in this workspace'}</li>}
      </ul>
    </div>
  );
}
