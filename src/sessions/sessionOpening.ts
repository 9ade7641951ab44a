import type { MessageParam } from '../api/types';
import type { ViewMessage } from '../shared/viewState';
import { lastAssistantAt, restoredView, skippedNotice } from './resume';
import type { OpenedHow } from './sessionEvents';
import type { SessionHistoryExtras } from './sessionAgent';
import type { LoadedSession } from './sessionStore';

/** A conversation from elsewhere (a Claude Code transcript), converted; it continues as a new session. */
export interface ImportedConversation {
  history: MessageParam[];
  view: ViewMessage[];
  title: string;
  /** What the import left out and whether it must be compacted, for the user. */
  notice: string;
}

/** The session a driver starts with. */
export type FirstSession = { kind: 'new' } | { kind: 'resume'; loaded: LoadedSession } | { kind: 'import'; conversation: ImportedConversation };

/** A session to open: where it comes from decides the rest. */
export interface Opening extends SessionHistoryExtras {
  how: OpenedHow;
  history: MessageParam[];
  view: ViewMessage[];
  title?: string;
  /** A saved session: its transcript is continued, not started. */
  loaded?: LoadedSession;
  /** When its last answer came (a saved or imported conversation): after a long gap the cache is cold. */
  lastAssistantAt?: number;
  /** Said in the conversation once it is open. */
  notice?: { level: 'info' | 'warning'; text: string };
}

/** A saved session, put back: Undo and Rewind of its old run off, a damaged transcript said so. */
export function resumeOpening(loaded: LoadedSession): Opening {
  const warn = skippedNotice(loaded);
  const at = lastAssistantAt(loaded.view);
  return {
    how: 'resumed',
    history: loaded.history,
    view: restoredView(loaded.view, loaded.prompts),
    loaded,
    compactions: loaded.compactions,
    prompts: loaded.prompts,
    ...(loaded.title ? { title: loaded.title } : {}),
    ...(at !== undefined ? { lastAssistantAt: at } : {}),
    ...(warn ? { notice: { level: 'warning' as const, text: warn } } : {}),
  };
}

/** A converted conversation, opened as a new session with what the import left out said. */
export function importOpening(c: ImportedConversation): Opening {
  const at = lastAssistantAt(c.view);
  return { how: 'imported', history: c.history, view: c.view, title: c.title, notice: { level: 'info', text: c.notice }, ...(at !== undefined ? { lastAssistantAt: at } : {}) };
}
