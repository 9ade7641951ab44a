import { useState } from 'react';
import { formatTokens } from '../../../src/shared/format';
import type { SummarizeView } from '../../../src/shared/undoView';
import type { ViewState } from '../../../src/shared/viewState';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { Markdown } from './Markdown';

const selectSummarize = (s: ViewState) => s.summarize;

const TITLES: Record<SummarizeView['direction'], { title: string; what: string }> = {
  from: { title: 'Summarize from here', what: 'Everything before the message stays word for word; the message and everything after it become a summary.' },
  upTo: { title: 'Summarize up to here', what: 'Everything before the message becomes a summary; the message and everything after it stay word for word.' },
};

/**
 * "Summarize from here / up to here": a focus to ask for (optional), then the summary and the
 * tokens before and after, and only then Apply. The originals stay in the transcript, and the
 * divider the summary leaves offers Undo.
 */
export function SummarizePanel() {
  const v = useView(selectSummarize);
  if (!v) return null;
  return <SummarizeBody key={`${v.messageId}:${v.direction}`} v={v} />;
}

function SummarizeBody({ v }: { v: SummarizeView }) {
  const [focus, setFocus] = useState(v.focus ?? '');
  const t = TITLES[v.direction];
  const cancel = () => post({ type: 'summarize/cancel', payload: {} });
  return (
    <div className="undo-panel" data-testid="summarize-panel" data-stage={v.stage} role="dialog" aria-label={t.title}>
      <div className="undo-title">
        <span className="codicon codicon-fold" /> {t.title}
      </div>
      <div className="undo-note">{t.what}</div>
      {v.error && (
        <div className="undo-note error" data-testid="summarize-error">
          Not summarised: {v.error}.
        </div>
      )}
      {v.stage === 'ask' && (
        <form
          className="summarize-ask"
          onSubmit={(e) => {
            e.preventDefault();
            post({ type: 'summarize/preview', payload: { focus } });
          }}
        >
          <input data-testid="summarize-focus" placeholder="Focus (optional): what the summary should keep" value={focus} onChange={(e) => setFocus(e.target.value)} />
          <div className="undo-actions">
            <button type="submit" data-testid="summarize-preview">
              Preview the summary
            </button>
            <button type="button" className="secondary" data-testid="summarize-cancel" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {v.stage === 'running' && (
        <div className="undo-actions">
          <span className="undo-note" data-testid="summarize-running">
            Writing the summary…
          </span>
          <button className="secondary" data-testid="summarize-cancel" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {v.stage === 'preview' && v.previewId && (
        <>
          <div className="summarize-tokens" data-testid="summarize-tokens">
            About {formatTokens(v.tokensBefore ?? 0)} tokens now → {formatTokens(v.tokensAfter ?? 0)} after{v.focus ? ` (focus: ${v.focus})` : ''}
          </div>
          <div className="summarize-summary" data-testid="summarize-summary">
            <Markdown text={v.summary ?? ''} />
          </div>
          <div className="undo-actions">
            <button data-testid="summarize-apply" onClick={() => post({ type: 'summarize/apply', payload: { previewId: v.previewId! } })}>
              Apply
            </button>
            <button className="secondary" data-testid="summarize-cancel" onClick={cancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </div>
  );
}
