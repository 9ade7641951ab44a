import type { Logger } from '../ports/logger';
import { readOpenSessionEntry } from '../sessions/openSession';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { SessionManager } from './sessionManager';
import type { SessionUiSync } from './sessionUiSync';

/**
 * The session that was open before a reload or a restart comes back, unless the user has started
 * typing into the new session meanwhile (sent something, or left a draft).
 */
export async function reopenPreviousSession(o: { sessionsDir: string; sessionUi: SessionUiSync; store: Store<AppState>; manager: SessionManager; log: Logger }): Promise<void> {
  const open = await o.sessionUi.sessionToReopen(await readOpenSessionEntry(o.sessionsDir));
  const state = o.store.getState();
  if (!open || state.messages.length > 0 || o.sessionUi.hasDraft(state.sessionId)) return;
  if (open.fresh) return o.manager.reopenFresh(open.id);
  await o.manager.resume(open.id).catch((err: unknown) => o.log.warn(`could not reopen session ${open.id}: ${err instanceof Error ? err.message : String(err)}`));
}
