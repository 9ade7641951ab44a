import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { draftTooLong } from '../../../src/shared/sessionUi';
import type { ViewState } from '../../../src/shared/viewState';
import { continueLive } from '../controls/noticeActions';
import { DraftSaver } from '../persist/draftSaver';
import { draftFor, onRestore } from '../persist/sessionUi';
import { useFlushOnLeave } from '../persist/useFlushOnLeave';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { AttachmentChips, FilePicker } from './Attachments';

const selectStatus = (s: ViewState) => s.status;
const selectContinue = (s: ViewState) => continueLive(s);
const selectSession = (s: ViewState) => s.sessionId;

/** One composer per session (keyed on its id): switching sessions shows each one's own draft. */
export function Composer() {
  const sessionId = useView(selectSession) ?? '';
  return <SessionComposer key={sessionId} sessionId={sessionId} />;
}

function SessionComposer({ sessionId }: { sessionId: string }) {
  const status = useView(selectStatus) ?? 'idle';
  const canContinue = useView(selectContinue) ?? false;
  const [draft, setDraftState] = useState(() => draftFor(sessionId)?.text ?? '');
  const saver = useMemo(() => new DraftSaver(sessionId, post), [sessionId]);
  const flush = useCallback(() => saver.flush(), [saver]);
  useFlushOnLeave(flush);
  // Typed here since the composer opened: a copy from the host arriving late must not replace it.
  const touched = useRef(false);
  useEffect(
    () =>
      onRestore((id) => {
        if (id !== sessionId || touched.current) return;
        setDraftState(draftFor(sessionId)?.text ?? '');
      }),
    [sessionId],
  );
  const setDraft = useCallback(
    (text: string) => {
      touched.current = true;
      setDraftState(text);
      saver.change(text);
    },
    [saver],
  );
  const tooLong = draftTooLong(draft);
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
    // Too long for the host to take: kept in the box rather than lost on the way.
    if (!text || busy || draftTooLong(text)) return;
    post({ type: 'chat/send', payload: { text } });
    touched.current = true;
    setDraftState('');
    saver.sent();
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
        onBlur={flush}
      />
      {tooLong && (
        <div className="composer-warning" role="alert" data-testid="draft-too-long">
          {tooLong}
        </div>
      )}
      <div className="composer-actions">
        <span className="composer-hint">Enter to send · Shift+Enter for a new line</span>
        {busy ? (
          <button data-testid="stop-button" className="stop" onClick={() => post({ type: 'chat/stop', payload: {} })} title="Stop (Esc)">
            <span className="codicon codicon-debug-stop" /> Stop
          </button>
        ) : (
          <button data-testid="send-button" disabled={!draft.trim() || Boolean(tooLong)} onClick={send} title="Send (Enter)">
            <span className="codicon codicon-send" /> Send
          </button>
        )}
      </div>
    </div>
  );
}
