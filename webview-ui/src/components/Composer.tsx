import { useCallback, useState, type KeyboardEvent } from 'react';
import type { ViewState } from '../../../src/shared/viewState';
import { loadUi, post, saveUi } from '../vscodeApi';
import { useView } from '../useView';

const selectStatus = (s: ViewState) => s.status;
const selectCanContinue = (s: ViewState) => s.canContinue;

export function Composer() {
  const status = useView(selectStatus) ?? 'idle';
  const canContinue = useView(selectCanContinue) ?? false;
  const [draft, setDraftState] = useState(() => loadUi().draft ?? '');
  const setDraft = useCallback((text: string) => {
    setDraftState(text);
    // Kept in the webview's own state so hiding or reloading the view keeps the draft.
    saveUi({ draft: text });
  }, []);
  const busy = status !== 'idle';
  const send = () => {
    const text = draft.trim();
    if (!text || busy) return;
    post({ type: 'chat/send', payload: { text } });
    setDraft('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <div className="composer">
      {canContinue && !busy && (
        <button className="secondary continue" data-testid="continue-button" onClick={() => post({ type: 'chat/continue', payload: {} })}>
          <span className="codicon codicon-debug-continue" /> Continue
        </button>
      )}
      <textarea
        data-testid="prompt-input"
        aria-label="Message Threadline"
        placeholder={busy ? 'Threadline is working…' : 'Ask Threadline (Enter to send, Shift+Enter for a new line)'}
        value={draft}
        rows={3}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        {busy ? (
          <button data-testid="stop-button" className="stop" onClick={() => post({ type: 'chat/stop', payload: {} })} title="Stop">
            <span className="codicon codicon-debug-stop" /> Stop
          </button>
        ) : (
          <button data-testid="send-button" disabled={!draft.trim()} onClick={send} title="Send (Enter)">
            <span className="codicon codicon-send" /> Send
          </button>
        )}
      </div>
    </div>
  );
}
