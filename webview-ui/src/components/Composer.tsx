import { useCallback, useState, type KeyboardEvent } from 'react';
import type { ViewState } from '../../../src/shared/viewState';
import { continueLive } from '../controls/noticeActions';
import { useView } from '../useView';
import { loadUi, post, saveUi } from '../vscodeApi';
import { AttachmentChips, FilePicker } from './Attachments';

const selectStatus = (s: ViewState) => s.status;
const selectContinue = (s: ViewState) => continueLive(s);

export function Composer() {
  const status = useView(selectStatus) ?? 'idle';
  const canContinue = useView(selectContinue) ?? false;
  const [draft, setDraftState] = useState(() => loadUi().draft ?? '');
  const setDraft = useCallback((text: string) => {
    setDraftState(text);
    // Kept in the webview's own state so hiding or reloading the view keeps the draft.
    saveUi({ draft: text });
  }, []);
  const [picking, setPicking] = useState(false);
  const busy = status !== 'idle';
  const onChange = (text: string) => {
    // `@` typed at the start or after a space opens the file picker; the `@` itself is not kept.
    const at = text.length === draft.length + 1 && text.endsWith('@') && (text.length === 1 || /\s$/.test(text.slice(0, -1)));
    if (at) {
      setDraft(text.slice(0, -1));
      setPicking(true);
      post({ type: 'attach/pickFile', payload: {} });
      return;
    }
    setDraft(text);
  };
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
      {picking && <FilePicker onDone={() => setPicking(false)} />}
      <AttachmentChips />
      {canContinue && (
        <button className="secondary continue" data-testid="continue-button" title="Pick up the stopped answer where it left off" onClick={() => post({ type: 'chat/continue', payload: {} })}>
          <span className="codicon codicon-debug-continue" /> Continue
        </button>
      )}
      <textarea
        data-testid="prompt-input"
        aria-label="Message Threadline"
        title="Enter to send, Shift+Enter for a new line"
        placeholder={busy ? 'Threadline is working… (Esc to stop)' : 'Ask Threadline…'}
        value={draft}
        rows={3}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <span className="composer-hint">Enter to send · Shift+Enter for a new line</span>
        {busy ? (
          <button data-testid="stop-button" className="stop" onClick={() => post({ type: 'chat/stop', payload: {} })} title="Stop (Esc)">
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
