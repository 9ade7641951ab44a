import type { IDisposable } from '../base/lifecycle';
import { DisposableStore } from '../base/lifecycle';
import type { Logger } from '../ports/logger';
import { readOpenSessionEntry, writeOpenSession } from '../sessions/openSession';
import type { SessionAgent } from '../sessions/sessionAgent';
import type { SessionDriver } from '../sessions/sessionDriver';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { SessionUiSync } from './sessionUiSync';

type Sessions = Pick<SessionDriver<SessionAgent>, 'onDidOpen' | 'onDidStartPrompt' | 'reopenFresh' | 'resume'>;

/**
 * Notes which session is open, so a reload or a restart (a crash included) brings it back: as soon
 * as it has a prompt, or when one with a conversation is opened (resumed, imported, forked).
 */
export function rememberOpenSession(sessions: Sessions, sessionsDir: string, log: Logger): IDisposable {
  let remembered: string | undefined;
  const remember = (id: string) => {
    if (remembered === id) return;
    remembered = id;
    void writeOpenSession(sessionsDir, id).catch((err: unknown) => log.warn(`could not note the open session: ${String(err)}`));
  };
  const store = new DisposableStore();
  store.add(sessions.onDidStartPrompt((e) => remember(e.sessionId)));
  store.add(
    sessions.onDidOpen((e) => {
      if (e.how === 'resumed' || e.how === 'imported' || e.how === 'forked') remember(e.sessionId);
    }),
  );
  return store;
}

/**
 * The session that was open before a reload or a restart comes back, unless the user has started
 * typing into the new session meanwhile (sent something, or left a draft).
 */
export async function reopenPreviousSession(o: { sessionsDir: string; sessionUi: SessionUiSync; store: Store<AppState>; sessions: Sessions; log: Logger }): Promise<void> {
  const open = await o.sessionUi.sessionToReopen(await readOpenSessionEntry(o.sessionsDir));
  const state = o.store.getState();
  if (!open || state.messages.length > 0 || o.sessionUi.hasDraft(state.sessionId)) return;
  if (open.fresh) return o.sessions.reopenFresh(open.id);
  await o.sessions.resume(open.id).catch((err: unknown) => o.log.warn(`could not reopen session ${open.id}: ${err instanceof Error ? err.message : String(err)}`));
}
