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

/**
 * Puts a loaded session back: the agent's API history, the panel's messages, the title and
 * the token indicator; returns the recorder that continues the same transcript.
 */
export function restoreSession(loaded: LoadedSession, store: Store<AppState>, agent: { setHistory(history: MessageParam[], opts?: { lastAssistantAt?: number }): void }, sessions: SessionStore): SessionRecorder {
  store.setState((s) => ({
    ...s,
    sessionId: loaded.meta.id,
    sessionTitle: loaded.title ?? s.sessionTitle,
    // Undo, Rewind and Fork need the in-memory history of the live session that made them.
    messages: loaded.view.map((m) => (m.kind === 'compaction' ? { ...m, canUndo: false } : m.kind === 'user' && m.rewindable ? { ...m, rewindable: false } : m)),
    status: 'idle',
    permission: null,
    canContinue: false,
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
