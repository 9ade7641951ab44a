import { useState } from 'react';
import type { ViewMessage } from '../../../src/shared/viewState';
import { compactionTexts } from '../controls/compactionTexts';
import { post } from '../vscodeApi';
import { Markdown } from './Markdown';
import type { RowAttributes } from './rowAttributes';

export function CompactionDivider({ message, common }: { message: Extract<ViewMessage, { kind: 'compaction' }>; common: RowAttributes }) {
  const [open, setOpen] = useState(false);
  const texts = compactionTexts(message);
  return (
    <div className="message compaction" {...common}>
      <button className="divider" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className={`codicon ${message.undone ? 'codicon-discard' : 'codicon-fold'}`} /> {texts.label}
      </button>
      {open && (
        <div className="compaction-body">
          <Markdown text={message.summary} />
          {message.archive && (
            <button className="secondary" data-testid="compaction-archive" onClick={() => post({ type: 'compaction/openArchive', payload: { id: message.id } })} title="The conversation as it was before this compaction, read-only">
              Open archive
            </button>
          )}
          <button className="secondary" data-testid="compaction-undo" disabled={!message.canUndo} onClick={() => post({ type: 'compaction/undo', payload: { id: message.id } })} title={texts.undoTitle}>
            Undo
          </button>
        </div>
      )}
    </div>
  );
}
