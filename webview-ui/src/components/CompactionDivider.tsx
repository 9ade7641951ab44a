import { useState } from 'react';
import type { ViewMessage } from '../../../src/shared/viewState';
import { compactionTexts } from '../controls/compactionTexts';
import { post } from '../vscodeApi';
import { Markdown } from './Markdown';
import type { RowAttributes } from './rowAttributes';

/**
 * The line a compaction leaves in the conversation. Undo sits on the line itself, folded or not:
 * the compaction prompt promises it until the next message, and a folded divider hid it.
 */
export function CompactionDivider({ message, common }: { message: Extract<ViewMessage, { kind: 'compaction' }>; common: RowAttributes }) {
  const [open, setOpen] = useState(false);
  const texts = compactionTexts(message);
  return (
    <div className="message compaction" {...common}>
      <div className="divider-row">
        <button className="divider" aria-expanded={open} title={open ? 'Hide the summary' : 'Show the summary'} onClick={() => setOpen(!open)}>
          <span className={`codicon ${message.undone ? 'codicon-discard' : 'codicon-fold'}`} /> {texts.label}
        </button>
        {message.canUndo && !message.undone && (
          <button className="secondary compaction-undo" data-testid="compaction-undo" onClick={() => post({ type: 'compaction/undo', payload: { id: message.id } })} title={texts.undoTitle}>
            <span className="codicon codicon-discard" /> Undo
          </button>
        )}
      </div>
      {open && (
        <div className="compaction-body">
          <Markdown text={message.summary} />
          {message.archive && (
            <button className="secondary" data-testid="compaction-archive" onClick={() => post({ type: 'compaction/openArchive', payload: { id: message.id } })} title="The conversation as it was before this compaction, read-only">
              Open archive
            </button>
          )}
          {!message.canUndo && !message.undone && <div className="compaction-note">{texts.undoTitle}.</div>}
        </div>
      )}
    </div>
  );
}
