import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { draftTooLong } from '../../../src/shared/sessionUi';
import { slashSuggestions, type SlashCommand } from '../../../src/shared/slashCommands';
import type { ViewState } from '../../../src/shared/viewState';
import { onHandBack, takeHandedBack, withHandedBack } from '../controls/composerInbox';
import { continueLive } from '../controls/noticeActions';
import { DraftSaver } from '../persist/draftSaver';
import { draftFor, onRestore } from '../persist/sessionUi';
import { useFlushOnLeave } from '../persist/useFlushOnLeave';
import { useView } from '../useView';
import { post } from '../vscodeApi';
import { AttachmentChips, FilePicker } from './Attachments';
import { SlashMenu } from './SlashMenu';

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
  const box = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraftState] = useState(() => withHandedBack(draftFor(sessionId)?.text ?? '', takeHandedBack(sessionId)));
  const current = useRef(draft);
  current.current = draft;
  const saver = useMemo(() => new DraftSaver(sessionId, post), [sessionId]);
  const flush = useCallback(() => saver.flush(), [saver]);
  useFlushOnLeave(flush);
  // Typed here since the composer opened: a copy from the host arriving late must not replace it.
  const touched = useRef(false);
  useEffect(
    () =>
      onRestore((id) => {
        if (id !== sessionId || touched.current) return;
        setDraftState(withHandedBack(draftFor(sessionId)?.text ?? '', takeHandedBack(sessionId)));
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
  // A message handed back (rewound, forked from, refused) goes in front of what is typed, ready to edit.
  useEffect(() => {
    const take = () => {
      const texts = takeHandedBack(sessionId);
      if (!texts.length) return;
      setDraft(withHandedBack(current.current, texts));
      const el = box.current;
      if (el) requestAnimationFrame(() => (el.focus(), el.setSelectionRange(el.value.length, el.value.length)));
    };
    take();
    return onHandBack((id) => {
      if (id === sessionId) take();
    });
  }, [sessionId, setDraft]);
  const tooLong = draftTooLong(draft);
  const [picking, setPicking] = useState(false);
  // The `/` menu: the commands the draft is the start of, unless Esc closed it for this text.
  const [slashActive, setSlashActive] = useState(0);
  const [slashClosedAt, setSlashClosedAt] = useState<string | undefined>();
  const commands = slashClosedAt === draft ? [] : slashSuggestions(draft);
  const active = Math.min(slashActive, Math.max(0, commands.length - 1));
  const busy = status !== 'idle';
  const onChange = (text: string) => {
    setSlashActive(0);
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
  const send = (value = draft) => {
    const text = value.trim();
    // Too long for the host to take: kept in the box rather than lost on the way.
    if (!text || busy || draftTooLong(text)) return;
    post({ type: 'chat/send', payload: { text } });
    touched.current = true;
    setDraftState('');
    saver.sent();
  };
  /** Tab, or Enter on a command that takes words after it: the name goes into the box, then the words. */
  const complete = (c: SlashCommand) => {
    setDraft(`/${c.name}${c.args ? ' ' : ''}`);
    box.current?.focus();
  };
  const onSlashKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    const c = commands[active];
    if (!c) return false;
    if (e.key === 'ArrowDown') setSlashActive((active + 1) % commands.length);
    else if (e.key === 'ArrowUp') setSlashActive((active - 1 + commands.length) % commands.length);
    else if (e.key === 'Tab' && !e.shiftKey) complete(c);
    else if (e.key === 'Enter' && !e.shiftKey) {
      if (c.args) complete(c);
      else send(`/${c.name}`);
    } else if (e.key === 'Escape' && !busy) setSlashClosedAt(draft);
    else return false;
    e.preventDefault();
    e.stopPropagation();
    return true;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing || onSlashKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };
  const pickerDone = () => {
    setPicking(false);
    box.current?.focus();
  };
  return (
    <div className="composer">
      {picking && <FilePicker onDone={pickerDone} />}
      {commands.length > 0 && !picking && <SlashMenu commands={commands} active={active} onPick={(c) => (c.args ? complete(c) : send(`/${c.name}`))} />}
      <AttachmentChips />
      {canContinue && (
        <button className="secondary continue" data-testid="continue-button" title="Pick up the stopped answer where it left off" onClick={() => post({ type: 'chat/continue', payload: {} })}>
          <span className="codicon codicon-debug-continue" /> Continue
        </button>
      )}
      <textarea
        ref={box}
        data-testid="prompt-input"
        aria-label="Message Threadline"
        title="Enter to send, Shift+Enter for a new line, / for commands, @ to attach a file"
        placeholder={busy ? 'Threadline is working… (Esc to stop)' : 'Ask Threadline…'}
        value={draft}
        rows={3}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={flush}
        {...(commands.length ? { 'aria-controls': 'slash-menu', 'aria-activedescendant': `slash-${commands[active]!.name}`, 'aria-expanded': true } : {})}
      />
      {tooLong && (
        <div className="composer-warning" role="alert" data-testid="draft-too-long">
          {tooLong}
        </div>
      )}
      <div className="composer-actions">
        <span className="composer-hint">/ commands · @ files · Shift+Enter new line</span>
        {busy ? (
          <button data-testid="stop-button" className="stop" onClick={() => post({ type: 'chat/stop', payload: {} })} title="Stop (Esc)">
            <span className="codicon codicon-debug-stop" /> Stop
          </button>
        ) : (
          <button data-testid="send-button" disabled={!draft.trim() || Boolean(tooLong)} onClick={() => send()} title="Send (Enter)">
            <span className="codicon codicon-send" /> Send
          </button>
        )}
      </div>
    </div>
  );
}
