import type { MessageParam } from '../api/types';
import { sequential } from '../base/sequential';
import type { ViewMessage } from '../shared/viewState';
import type { CompactionRecord, PromptRef } from '../conversation/undoRecords';
import { titleFrom } from './markdown';
import { SCHEMA_VERSION, type SessionEvent } from './transcript';
import type { SessionStore, SessionSummary } from './sessionStore';

const INDEX_DELAY_MS = 300;
const PREVIEW_CHARS = 400;

export interface RecorderInit {
  id: string;
  cwd: string;
  model: string;
  branch?: string;
  createdAt?: number;
  /** Resuming: what is already on disk. */
  existing?: { history: readonly MessageParam[]; view: readonly ViewMessage[]; title?: string; compactions?: readonly CompactionRecord[]; prompts?: Readonly<Record<string, PromptRef>> };
  /** A new session that already has a title (an imported one keeps its own). */
  title?: string;
}

/** Flags that only matter in the live session (resume clears them), so a change to them is not saved. */
function storedForm(v: ViewMessage): string {
  if (v.kind === 'user' && v.rewindable !== undefined) return JSON.stringify({ ...v, rewindable: undefined });
  if (v.kind === 'compaction') return JSON.stringify({ ...v, canUndo: undefined });
  return JSON.stringify(v);
}

const userWords = (v: ViewMessage): string => (v.kind === 'user' ? v.text.replace(/\s+/g, ' ').trim() : '');

/**
 * Writes one session as it happens, each message as soon as it is complete, in
 * O(size of what is new):
 * - `append(messages)`: API messages that just became part of the history (the prompt, the
 *   model's turn, the answers to its tool calls);
 * - `replace(history, reason)`: compaction, undo, rewind: one record with the whole history;
 * - `view(message)`: a panel message that is new or changed (a streaming answer waits until done);
 * - `sync(history, view, tokens)`: the whole state at once, for a caller without events; it
 *   compares by identity and writes only what changed.
 * Writes are queued and go out in order, several calls in one write when they come together.
 * After a failed write, the next one writes the whole session again, so one lost write loses
 * nothing. The index entry is refreshed at most every 300 ms.
 */
export class SessionRecorder {
  /** The API history as the transcript holds it (own array, appended in place). */
  private history: MessageParam[] = [];
  /** Each panel message as last written, by id. */
  private readonly views = new Map<string, ViewMessage>();
  /** Compaction records and prompt references written so far (each once), for a rewrite after a failure. */
  private readonly records = new Map<string, CompactionRecord>();
  private readonly prompts = new Map<string, PromptRef>();
  private lastView: readonly ViewMessage[] = [];
  private messageCount = 0;
  private preview = '';
  private title: string | undefined;
  private tokens = 0;
  private tokensChanged = false;
  private started = false;
  private wroteHeader = false;
  private snapshotNeeded = false;
  private queue: SessionEvent[] = [];
  readonly createdAt: number;
  private pendingIndex = false;
  private indexTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly init: RecorderInit,
  ) {
    this.createdAt = init.createdAt ?? Date.now();
    if (init.existing) {
      this.started = this.wroteHeader = true;
      this.history = init.existing.history.slice();
      for (const v of init.existing.view) this.views.set(v.id, v);
      for (const r of init.existing.compactions ?? []) this.records.set(r.id, r);
      for (const [id, ref] of Object.entries(init.existing.prompts ?? {})) this.prompts.set(id, ref);
      this.lastView = init.existing.view.slice();
      this.recount(init.existing.view);
      this.title = init.existing.title ?? titleFrom(init.existing.view);
    } else if (init.title) {
      this.title = init.title;
    }
  }

  get id(): string {
    return this.init.id;
  }

  /** API messages that just became complete, in order. */
  append(messages: MessageParam | readonly MessageParam[]): Promise<void> {
    const list = Array.isArray(messages) ? (messages as readonly MessageParam[]) : [messages as MessageParam];
    if (!list.length) return Promise.resolve();
    this.start();
    for (const m of list) {
      this.history.push(m);
      this.queue.push({ t: 'msg', m });
    }
    return this.drain();
  }

  /** The history was replaced (compaction, undo, rewind, a repaired turn): one record holds it all. */
  replace(history: readonly MessageParam[], reason: string): Promise<void> {
    this.start();
    this.history = history.slice();
    this.queue.push({ t: 'history', h: history.slice(), reason });
    return this.drain();
  }

  /**
   * A change of the API history as the Conversation reports it (`onDidChange`): appends when
   * the change only adds messages after what the transcript holds, else one replacement record.
   * Messages the transcript already holds (a resumed history loaded back) are skipped, so the
   * work is proportional to the change.
   */
  record(change: { from: number; messages: readonly MessageParam[]; history: readonly MessageParam[]; reason: string; records?: readonly CompactionRecord[]; prompts?: Readonly<Record<string, PromptRef>> }): Promise<void> {
    this.undoData(change.records, change.prompts);
    let from = change.from;
    let i = 0;
    while (i < change.messages.length && from + i < this.history.length && change.messages[i] === this.history[from + i]) i++;
    from += i;
    if (from === this.history.length) return i < change.messages.length ? this.append(change.messages.slice(i)) : Promise.resolve();
    return this.replace(change.history, change.reason);
  }

  /**
   * Compaction records and prompt references new to the transcript, queued before the messages
   * they go with: a crash between them leaves a record without its history (harmless), never a
   * compaction that cannot be undone.
   */
  private undoData(records: readonly CompactionRecord[] = [], prompts: Readonly<Record<string, PromptRef>> = {}): void {
    const fresh = records.filter((r) => !this.records.has(r.id));
    const refs = Object.entries(prompts).filter(([id, ref]) => this.prompts.get(id)?.hash !== ref.hash || this.prompts.get(id)?.nth !== ref.nth);
    if (!fresh.length && !refs.length) return;
    this.start();
    for (const r of fresh) {
      this.records.set(r.id, r);
      this.queue.push({ t: 'compaction', r });
    }
    for (const [id, ref] of refs) {
      this.prompts.set(id, ref);
      this.queue.push({ t: 'prompt', id, ref });
    }
  }

  /** Resolves once everything asked for so far is written (or has failed). */
  idle(): Promise<void> {
    return this.drain();
  }

  /** A panel message that is new or changed. */
  view(v: ViewMessage): Promise<void> {
    this.noteView(v);
    // The panel's list as this recorder knows it: a new message goes at its end.
    const at = this.lastView.findIndex((m) => m.id === v.id);
    this.lastView = at < 0 ? [...this.lastView, v] : this.lastView.map((m, i) => (i === at ? v : m));
    return this.queue.length ? this.drain() : Promise.resolve();
  }

  /** The context figure shown for the session; saved with the next write. */
  setTokens(tokens: number): void {
    if (tokens === this.tokens) return;
    this.tokens = tokens;
    this.tokensChanged = true;
  }

  /**
   * The whole state, for callers without per-message events: writes the API messages added
   * since the last call (or a replacement when the history changed otherwise) and the panel
   * messages that are new or changed. Compares by identity; serialises only what is new.
   */
  sync(history: readonly MessageParam[], view: readonly ViewMessage[], tokens: number, reason = 'update'): Promise<void> {
    if (!this.started && !view.some((m) => m.kind === 'user')) return Promise.resolve(); // an empty session is not worth a file
    this.start();
    const n = this.history.length;
    let kept = history.length >= n;
    for (let i = 0; kept && i < n; i++) kept = history[i] === this.history[i];
    if (kept) {
      for (let i = n; i < history.length; i++) {
        this.history.push(history[i]!);
        this.queue.push({ t: 'msg', m: history[i]! });
      }
    } else {
      this.history = history.slice();
      this.queue.push({ t: 'history', h: history.slice(), reason });
    }
    return this.syncView(view, tokens);
  }

  /** The panel's messages now: writes those new or changed since the last call (compared by identity). */
  syncView(view: readonly ViewMessage[], tokens: number): Promise<void> {
    if (!this.started && !view.some((m) => m.kind === 'user')) return Promise.resolve();
    if (view.length < this.lastView.length) this.recount(view);
    for (let i = 0; i < view.length; i++) if (view[i] !== this.lastView[i]) this.noteView(view[i]!);
    // Not the old list with messages added after it (a rewind, a divider put in between): the
    // order itself is written, so a reload shows what the panel shows.
    const appended = view.length >= this.lastView.length && this.lastView.every((m, i) => m.id === view[i]!.id);
    if (!appended && this.started) this.queue.push({ t: 'viewOrder', ids: view.map((m) => m.id) });
    // A copy: a caller may grow the same array in place.
    this.lastView = view.slice();
    this.setTokens(tokens);
    return this.drain();
  }

  /** Writes the pending index entry now (before exit, and in tests). */
  async flush(): Promise<void> {
    await this.drain();
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    if (!this.pendingIndex) return;
    this.pendingIndex = false;
    await this.store.updateIndex(this.entry());
  }

  /** The title was changed elsewhere (the history's Rename); later index updates keep it. */
  adoptTitle(title: string): void {
    this.title = title;
  }

  /** The session gets its file with its first message; notices shown before it go in then. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    if (this.title) this.queue.push({ t: 'title', title: this.title });
    for (const v of this.views.values()) this.queue.push({ t: 'view', v });
  }

  private noteView(v: ViewMessage): void {
    if (v.kind === 'assistant' && v.streaming) return;
    const prev = this.views.get(v.id);
    if (prev === v) return;
    if (!this.started && v.kind !== 'user') {
      this.views.set(v.id, v);
      return;
    }
    this.start();
    this.views.set(v.id, v);
    if (prev && storedForm(prev) === storedForm(v)) return;
    this.queue.push({ t: 'view', v });
    if (prev) return;
    if (v.kind === 'user' || v.kind === 'assistant') this.messageCount++;
    if (v.kind === 'user' && this.preview.length < PREVIEW_CHARS) this.preview = (this.preview ? `${this.preview} · ${userWords(v)}` : userWords(v)).slice(0, PREVIEW_CHARS);
    if (!this.title && v.kind === 'user') {
      const t = titleFrom([v]);
      if (t) {
        this.title = t;
        this.queue.push({ t: 'title', title: t });
      }
    }
  }

  /** Panel messages went away (rewind): count again from what is left. */
  private recount(view: readonly ViewMessage[]): void {
    this.messageCount = view.filter((m) => m.kind === 'user' || m.kind === 'assistant').length;
    this.preview = view.filter((m) => m.kind === 'user').map(userWords).join(' · ').slice(0, PREVIEW_CHARS);
  }

  /** One write at a time; whatever queued up meanwhile goes out together in the next one. */
  private readonly drain = sequential(async (): Promise<void> => {
    if (!this.started || (!this.queue.length && !this.snapshotNeeded && !this.tokensChanged)) return;
    let events = this.queue;
    this.queue = [];
    if (this.tokensChanged) events.push({ t: 'usage', tokens: this.tokens });
    this.tokensChanged = false;
    if (this.snapshotNeeded) events = await this.snapshot();
    if (!this.wroteHeader) events.unshift(this.header());
    try {
      const { wasEmpty } = await this.store.append(this.init.id, events);
      // The transcript went away since our header (its folder was cleared): write it all again.
      if (wasEmpty && events[0]?.t !== 'meta') await this.store.append(this.init.id, [this.header(), ...(await this.snapshot())]);
    } catch (err) {
      this.snapshotNeeded = true;
      throw err;
    }
    this.wroteHeader = true;
    this.snapshotNeeded = false;
    this.pendingIndex = true;
    // The index is a locked, atomic rewrite: coalesce it, so a burst of messages costs one.
    this.indexTimer ??= setTimeout(() => void this.flush().catch(() => undefined), INDEX_DELAY_MS).unref();
  });

  /** After a failed write: the whole session again, on top of whatever the file holds. */
  private async snapshot(): Promise<SessionEvent[]> {
    this.queue = [];
    this.wroteHeader = await this.store.exists(this.init.id);
    const events: SessionEvent[] = [...[...this.records.values()].map((r): SessionEvent => ({ t: 'compaction', r })), ...[...this.prompts].map(([id, ref]): SessionEvent => ({ t: 'prompt', id, ref }))];
    events.push({ t: 'history', h: this.history.slice(), reason: 'rewrite after a failed write' });
    for (const v of this.views.values()) events.push({ t: 'view', v });
    events.push({ t: 'viewOrder', ids: this.lastView.map((m) => m.id) });
    if (this.title) events.push({ t: 'title', title: this.title });
    events.push({ t: 'usage', tokens: this.tokens });
    return events;
  }

  private header(): SessionEvent {
    const { id, cwd, model, branch } = this.init;
    return { t: 'meta', v: SCHEMA_VERSION, id, createdAt: this.createdAt, cwd, model, ...(branch ? { branch } : {}) };
  }

  private entry(): SessionSummary {
    return {
      id: this.init.id,
      title: this.title ?? 'Untitled session',
      createdAt: this.createdAt,
      updatedAt: Date.now(),
      model: this.init.model,
      messageCount: this.messageCount,
      tokens: this.tokens,
      cwd: this.init.cwd,
      ...(this.init.branch ? { branch: this.init.branch } : {}),
      preview: this.preview,
    };
  }
}
