import { newer, type SavedDraft, type SavedScroll, type SessionUi } from '../../../src/shared/sessionUi';
import { loadUi, saveUi } from '../vscodeApi';

// Each session's draft and scroll position as this panel knows them: what the host handed back
// (`ui/restore`) merged with what was typed or scrolled here since, the newer copy winning. The
// webview's own state is a second copy, read at once when the panel is rebuilt; the host's copy
// is the one that survives a browser reload.

const known = new Map<string, SessionUi>();
const listeners = new Set<(sessionId: string) => void>();

function merge(sessionId: string, part: Partial<SessionUi>): SessionUi {
  const old = known.get(sessionId);
  const next: SessionUi = { draft: newer(old?.draft, part.draft), scroll: newer(old?.scroll, part.scroll) };
  known.set(sessionId, next);
  return next;
}

/** The host's copy of a session's state arrived. */
export function receiveRestore(sessionId: string, ui: SessionUi): void {
  merge(sessionId, ui);
  for (const listener of [...listeners]) listener(sessionId);
}

/** Called with the session id whenever the host's copy of that session arrives. */
export function onRestore(listener: (sessionId: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the host has answered for this session yet (until then, a fresh list saves nothing). */
export function restoreArrived(sessionId: string): boolean {
  return known.has(sessionId);
}

type LocalDraft = SavedDraft & { sessionId: string };
type LocalScroll = SavedScroll & { sessionId: string };

// Older panels kept a bare string draft and an anchor without a time: not these shapes, so ignored.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isLocalDraft = (v: unknown): v is LocalDraft => isObject(v) && typeof v.sessionId === 'string' && typeof v.at === 'number' && typeof v.text === 'string';
const isLocalScroll = (v: unknown): v is LocalScroll =>
  isObject(v) && typeof v.sessionId === 'string' && typeof v.at === 'number' && typeof v.topId === 'string' && typeof v.atBottom === 'boolean';

function local(): { draft?: LocalDraft; scroll?: LocalScroll } {
  const s = loadUi();
  return { ...(isLocalDraft(s.draft) ? { draft: s.draft } : {}), ...(isLocalScroll(s.scroll) ? { scroll: s.scroll } : {}) };
}

export function draftFor(sessionId: string): SavedDraft | null {
  const mine = local().draft;
  return newer(known.get(sessionId)?.draft, mine?.sessionId === sessionId ? { text: mine.text, at: mine.at } : null);
}

export function scrollFor(sessionId: string): SavedScroll | null {
  const mine = local().scroll;
  return newer(known.get(sessionId)?.scroll, mine?.sessionId === sessionId ? { topId: mine.topId, atBottom: mine.atBottom, at: mine.at } : null);
}

/** Notes a draft here (and in the webview's state); the caller posts it to the host. */
export function keepDraft(sessionId: string, draft: SavedDraft): void {
  merge(sessionId, { draft });
  saveUi({ draft: { sessionId, ...draft } });
}

export function keepScroll(sessionId: string, scroll: SavedScroll): void {
  merge(sessionId, { scroll });
  saveUi({ scroll: { sessionId, ...scroll } });
}
