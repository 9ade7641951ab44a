import { useState } from 'react';
import { formatTokens } from '../../../src/shared/format';
import type { ViewMessage } from '../../../src/shared/viewState';
import { post } from '../vscodeApi';
import { Markdown } from './Markdown';
import type { RowAttributes } from './rowAttributes';

export function CompactionDivider({ message, common }: { message: Extract<ViewMessage, { kind: 'compaction' }>; common: RowAttributes }) {
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
