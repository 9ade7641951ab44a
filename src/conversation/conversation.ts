import type { MessageParam } from '../api/types';
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/lifecycle';

export type HistoryChangeReason = 'turn' | 'user' | 'compaction' | 'micro-compaction' | 'undo' | 'rewind' | 'load';

/**
 * How the history changed: it is now `old.slice(0, from)` followed by `messages`. Appending one
 * message is `{ from: old.length, messages: [m] }`, so a listener that writes a transcript can do
 * work proportional to what changed, not to the whole conversation.
 */
export interface HistoryChange {
  from: number;
  messages: readonly MessageParam[];
  reason: HistoryChangeReason;
  history: readonly MessageParam[];
}

/** The first index where `next` stops sharing message objects with `prev`. */
export function firstChange(prev: readonly MessageParam[], next: readonly MessageParam[]): number {
  const n = Math.min(prev.length, next.length);
  let i = 0;
  while (i < n && prev[i] === next[i]) i++;
  return i;
}

interface Mark {
  base: readonly MessageParam[];
  length: number;
}

/**
 * One session's API history, and the points it can go back to: the compaction that may be
 * undone, and where the history stood before each user message (Rewind and Fork). Messages are
 * never mutated, only replaced, so sharing arrays between marks is safe.
 */
export class Conversation implements IDisposable {
  private current: readonly MessageParam[] = [];
  private readonly changed = new Emitter<HistoryChange>();
  readonly onDidChange = this.changed.event;
  /** Pre-compaction history for Undo, by the divider's id; only the newest stays undoable. */
  private undoPoint: { id: string; history: readonly MessageParam[] } | undefined;
  /**
   * Where the history stood just before each user message, by the message's view id: a prefix
   * length of a history array. Marks share the newest array they are a prefix of (see
   * `shareMarks`), so a long session keeps one array, not one per message.
   */
  private readonly marks = new Map<string, Mark>();

  get history(): readonly MessageParam[] {
    return this.current;
  }

  get length(): number {
    return this.current.length;
  }

  /** Replaces the history; listeners hear only what changed. */
  set(next: readonly MessageParam[], reason: HistoryChangeReason): void {
    const prev = this.current;
    if (next === prev) return;
    const from = firstChange(prev, next);
    this.current = next;
    if (from === prev.length && from === next.length) return;
    this.changed.fire({ from, messages: next.slice(from), reason, history: next });
  }

  // --- Undo of the newest compaction ---

  /** A compaction just replaced `before`; returns the id the divider carries. */
  rememberUndo(id: string, before: readonly MessageParam[]): string | undefined {
    const retired = this.undoPoint?.id;
    this.undoPoint = { id, history: before };
    return retired;
  }

  get undoId(): string | undefined {
    return this.undoPoint?.id;
  }

  /** Forgets the undo point: a turn was answered on top of the compaction, and Undo would lose it. */
  retireUndo(): string | undefined {
    const id = this.undoPoint?.id;
    this.undoPoint = undefined;
    return id;
  }

  undo(id: string): boolean {
    if (!this.undoPoint || this.undoPoint.id !== id) return false;
    const before = this.undoPoint.history;
    this.undoPoint = undefined;
    this.set(before, 'undo');
    return true;
  }

  // --- Rewind and Fork marks ---

  /** Marks the history as it is now as the point before the user message `viewId`. */
  mark(viewId: string): void {
    this.marks.set(viewId, { base: this.current, length: this.current.length });
  }

  marked(viewId: string): MessageParam[] | undefined {
    const m = this.marks.get(viewId);
    return m && m.base.slice(0, m.length);
  }

  /** Keeps only the marks of these messages (the ones a rewind leaves in place). */
  keepMarks(viewIds: ReadonlySet<string>): void {
    for (const id of [...this.marks.keys()]) if (!viewIds.has(id)) this.marks.delete(id);
  }

  clearMarks(): void {
    this.marks.clear();
  }

  /** The marks as they are, to be put back by `restoreMarks` (the Undo of a rewind). */
  saveMarks(): ReadonlyMap<string, Readonly<Mark>> {
    return new Map([...this.marks].map(([id, m]) => [id, { ...m }]));
  }

  restoreMarks(saved: ReadonlyMap<string, Readonly<Mark>>): void {
    this.marks.clear();
    for (const [id, m] of saved) this.marks.set(id, { ...m });
  }

  /**
   * Re-points marks to the current history where it extends their array: the message just before
   * the mark is an assistant turn, which appending (and micro-compaction) never replaces.
   */
  shareMarks(): void {
    const h = this.current;
    for (const m of this.marks.values()) {
      if (m.base === h || m.length > h.length) continue;
      if (m.length === 0 || m.base[m.length - 1] === h[m.length - 1]) m.base = h;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
