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
 * A saved session's panel messages as a resumed session shows them. Rewind and Fork stay on for
 * the messages the transcript can find again (it keeps a reference to each); a compaction's Undo
 * is worked out from its record once the history is back (see CompactionControl.historyChanged).
 * Sessions saved before those were kept get neither.
 */
export function restoredView(view: readonly ViewMessage[], prompts: Readonly<Record<string, unknown>> = {}): ViewMessage[] {
  return view.map((m) => (m.kind === 'compaction' && m.canUndo ? { ...m, canUndo: false } : m.kind === 'user' && m.rewindable && !prompts[m.id] ? { ...m, rewindable: false } : m));
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
