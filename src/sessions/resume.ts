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
 * Whether the saved conversation ended in a stopped turn that Continue picks up: its last message
 * is the notice that offers it, or its last turn was cut short (the transcript ends inside it).
 */
export function endedStopped(loaded: Pick<LoadedSession, 'view' | 'repairs' | 'history'>): boolean {
  if (!loaded.history.length) return false;
  const last = loaded.view.at(-1);
  return (last?.kind === 'notice' && last.action?.command === 'continue') || loaded.repairs.length > 0;
}

/**
 * A saved session's panel messages as a resumed session shows them. Rewind and Fork stay on for
 * the messages the transcript can find again (it keeps a reference to each); a compaction's Undo
 * is worked out from its record once the history is back (see CompactionControl.historyChanged).
 * Sessions saved before those were kept get neither.
 */
export function restoredView(view: readonly ViewMessage[], prompts: Readonly<Record<string, unknown>> = {}): ViewMessage[] {
  return view.map((m) => {
    if (m.kind === 'compaction') return m.canUndo ? { ...m, canUndo: false } : m;
    if (m.kind === 'user') return m.rewindable && !prompts[m.id] ? { ...m, rewindable: false } : m;
    // A rewind's Undo needs the session that made it, as it was just after the rewind.
    if (m.kind === 'notice' && m.action?.command === 'undoRewind') {
      const { action: _gone, ...rest } = m;
      return rest;
    }
    return m;
  });
}

/** The recorder that continues a loaded session's transcript: same id, folder, model, branch and creation time. */
export function resumedRecorder(loaded: LoadedSession, sessions: SessionStore): SessionRecorder {
  return new SessionRecorder(sessions, {
    id: loaded.meta.id,
    cwd: loaded.meta.cwd,
    model: loaded.meta.model,
    createdAt: loaded.meta.createdAt,
    ...(loaded.meta.branch ? { branch: loaded.meta.branch } : {}),
    existing: { history: loaded.history, view: loaded.view, compactions: loaded.compactions, prompts: loaded.prompts, ...(loaded.title ? { title: loaded.title } : {}) },
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
