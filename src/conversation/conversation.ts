import type { MessageParam } from '../api/types';
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { CompactionRecord, PromptRef } from './undoRecords';

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
  /** Compactions recorded with this change (the one that made it, or a loaded session's), to keep in the transcript. */
  records?: readonly CompactionRecord[];
  /** User messages this change names (the prompt it appends, or a loaded session's), by view id. */
  prompts?: Readonly<Record<string, PromptRef>>;
}

/** The first index where `next` stops sharing message objects with `prev`. */
export function firstChange(prev: readonly MessageParam[], next: readonly MessageParam[]): number {
  const n = Math.min(prev.length, next.length);
  let i = 0;
  while (i < n && prev[i] === next[i]) i++;
  return i;
}

/** What a change may bring besides the messages: records and prompt references to keep. */
export interface ChangeExtras {
  records?: readonly CompactionRecord[];
  prompts?: Readonly<Record<string, PromptRef>>;
}

/**
 * One session's API history, with what lets it go back: a record of every compaction (each can
 * be undone, wherever its summary is) and a reference to every user message (Rewind and Fork
 * find it again, behind compactions too). Both are data the transcript keeps, so they work the
 * same after a resume. Messages are never mutated, only replaced.
 */
export class Conversation implements IDisposable {
  private current: readonly MessageParam[] = [];
  private readonly changed = new Emitter<HistoryChange>();
  readonly onDidChange = this.changed.event;
  private records: CompactionRecord[] = [];
  private prompts = new Map<string, PromptRef>();

  get history(): readonly MessageParam[] {
    return this.current;
  }

  get length(): number {
    return this.current.length;
  }

  /** Every compaction of this session, oldest first (undone ones too: their block is just not in the history). */
  get compactions(): readonly CompactionRecord[] {
    return this.records;
  }

  /** The reference of the user message with this view id, when it was sent in this session. */
  prompt(viewId: string): PromptRef | undefined {
    return this.prompts.get(viewId);
  }

  /** Every prompt reference, by view id (what a fork carries over). */
  promptRefs(): Record<string, PromptRef> {
    return Object.fromEntries(this.prompts);
  }

  /** Replaces the history; listeners hear only what changed, with the records and references it brings. */
  set(next: readonly MessageParam[], reason: HistoryChangeReason, extras: ChangeExtras = {}): void {
    for (const r of extras.records ?? []) if (!this.records.some((x) => x.id === r.id)) this.records.push(r);
    for (const [id, ref] of Object.entries(extras.prompts ?? {})) this.prompts.set(id, ref);
    const prev = this.current;
    if (next === prev) return;
    const from = firstChange(prev, next);
    this.current = next;
    if (from === prev.length && from === next.length) return;
    this.changed.fire({ from, messages: next.slice(from), reason, history: next, ...(extras.records?.length ? { records: extras.records } : {}), ...(extras.prompts && Object.keys(extras.prompts).length ? { prompts: extras.prompts } : {}) });
  }

  /** A session opened with this history (new, resumed, forked): its records and references replace any before. */
  load(history: readonly MessageParam[], extras: ChangeExtras = {}): void {
    this.records = [];
    this.prompts.clear();
    this.set(history, 'load', extras);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
