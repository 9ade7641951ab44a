import type { MessageParam } from '../api/types';
import type { AppState } from '../state/appState';
import type { Store } from '../shared/store';
import type { ViewMessage } from '../shared/viewState';
import { SessionRecorder } from './recorder';
import type { LoadedSession, SessionStore } from './sessionStore';

/** When the last answer of a saved conversation arrived: after a long gap its prompt cache is cold. */
export function lastAssistantAt(view: readonly ViewMessage[]): number | undefined {
  for (let i = view.length - 1; i >= 0; i--) {
    const m = view[i]!;
    if (m.kind === 'assistant') return m.createdAt;
  }
  return undefined;
}

/** Undo, Rewind and Fork need the in-memory history of the live session that made them. */
function liveOnly(m: ViewMessage): ViewMessage {
  if (m.kind === 'compaction') return m.canUndo ? { ...m, canUndo: false } : m;
  if (m.kind === 'user') return m.rewindable ? { ...m, rewindable: false } : m;
  if (m.kind === 'notice' && m.action?.command === 'undoRewind') {
    const { action: _gone, ...rest } = m;
    return rest;
  }
  return m;
}

/**
 * Whether the saved conversation ended in a stopped turn that Continue picks up: its last message
 * is the notice that offers it, or its last turn was cut short (the transcript ends inside it).
 */
export function endedStopped(loaded: Pick<LoadedSession, 'view' | 'repairs' | 'history'>): boolean {
  if (!loaded.history.length) return false;
  const last = loaded.view.at(-1);
  return (last?.kind === 'notice' && last.action?.command === 'continue') || loaded.repairs.length > 0;
}

/**
 * Puts a loaded session back: the agent's API history, the panel's messages, the title and
 * the token indicator; returns the recorder that continues the same transcript.
 */
export function restoreSession(loaded: LoadedSession, store: Store<AppState>, agent: { setHistory(history: MessageParam[], opts?: { lastAssistantAt?: number }): void }, sessions: SessionStore): SessionRecorder {
  store.setState((s) => ({
    ...s,
    sessionId: loaded.meta.id,
    sessionTitle: loaded.title ?? s.sessionTitle,
    messages: loaded.view.map(liveOnly),
    status: 'idle',
    permission: null,
    // A session that was stopped (Stop, the turn limit, or the window reloaded under a running
    // turn) can be picked up where it left off, as its last notice says.
    canContinue: endedStopped(loaded),
  }));
  const at = lastAssistantAt(loaded.view);
  agent.setHistory(loaded.history, at !== undefined ? { lastAssistantAt: at } : {});
  return new SessionRecorder(sessions, {
    id: loaded.meta.id,
    cwd: loaded.meta.cwd,
    model: loaded.meta.model,
    createdAt: loaded.meta.createdAt,
    ...(loaded.meta.branch ? { branch: loaded.meta.branch } : {}),
    existing: { history: loaded.history, view: loaded.view, ...(loaded.title ? { title: loaded.title } : {}) },
  });
}

export function skippedNotice(loaded: LoadedSession): string | undefined {
  const parts: string[] = [];
  if (loaded.skipped.length) {
    const lines = loaded.skipped.map((s) => s.line).join(', ');
    parts.push(`${loaded.skipped.length} unreadable line(s) of the transcript were skipped (line ${lines}); the file itself is kept as it is`);
  }
  if (loaded.repairs.length) parts.push(`the last turn was cut short: ${loaded.repairs.join('; ')}`);
  return parts.length ? `Resumed, but ${parts.join('. Also, ')}.` : undefined;
}
