// Frozen copy for the benchmark's baseline; not used by the product.
import type { MessageParam } from '../../src/api/types';
import { sequential } from '../../src/base/sequential';
import type { ViewMessage } from '../../src/shared/viewState';
import { previewFrom, SCHEMA_VERSION, titleFrom, type SessionEvent, type SessionStore, type SessionSummary } from '../../src/sessions/sessionStore';

const INDEX_DELAY_MS = 300;

interface RecorderInit {
  id: string;
  cwd: string;
  model: string;
  branch?: string;
  createdAt?: number;
  /** Resuming: what is already on disk. */
  existing?: { history: readonly MessageParam[]; view: readonly ViewMessage[]; title?: string };
}

/**
 * The session recorder as it was before per-message appends (commit 78b2ece), kept only as the
 * baseline the sessions benchmark measures in the same run: each save rescans the whole
 * history and view and recomputes the index entry from all of it.
 */
export class LegacySessionRecorder {
  private persisted: readonly MessageParam[] = [];
  private viewJson = new Map<string, string>();
  // The store never mutates a message, so an unchanged reference means an unchanged message.
  private viewSeen = new Map<string, ViewMessage>();
  private title: string | undefined;
  private started = false;
  readonly createdAt: number;
  private pendingIndex: SessionSummary | undefined;
  private indexTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly init: RecorderInit,
  ) {
    this.createdAt = init.createdAt ?? Date.now();
    if (init.existing) {
      this.started = true;
      this.persisted = init.existing.history.slice();
      for (const v of init.existing.view) this.viewJson.set(v.id, JSON.stringify(v));
      this.title = init.existing.title ?? titleFrom(init.existing.view);
    }
  }

  get id(): string {
    return this.init.id;
  }

  /** Serialised: two syncs never interleave their lines. */
  readonly sync = sequential(async (history: readonly MessageParam[], view: readonly ViewMessage[], tokens: number, reason: string = 'update'): Promise<void> => {
    const events: SessionEvent[] = [];
    if (!this.started) {
      if (!view.some((m) => m.kind === 'user')) return; // an empty session is not worth a file
      this.started = true;
      events.push({ t: 'meta', v: SCHEMA_VERSION, id: this.init.id, createdAt: this.createdAt, cwd: this.init.cwd, model: this.init.model, ...(this.init.branch ? { branch: this.init.branch } : {}) });
    }
    const prefixKept = this.persisted.length <= history.length && this.persisted.every((m, i) => m === history[i]);
    if (prefixKept) for (const m of history.slice(this.persisted.length)) events.push({ t: 'msg', m });
    else events.push({ t: 'history', h: history.slice(), reason });
    this.persisted = history.slice();
    for (const v of view) {
      if (v.kind === 'assistant' && v.streaming) continue;
      if (this.viewSeen.get(v.id) === v) continue;
      this.viewSeen.set(v.id, v);
      const json = JSON.stringify(v);
      if (this.viewJson.get(v.id) === json) continue;
      this.viewJson.set(v.id, json);
      events.push({ t: 'view', v });
    }
    if (!this.title) {
      const t = titleFrom(view);
      if (t) {
        this.title = t;
        events.push({ t: 'title', title: t });
      }
    }
    events.push({ t: 'usage', tokens });
    await this.store.append(this.init.id, events);
    this.pendingIndex = {
      id: this.init.id,
      title: this.title ?? 'Untitled session',
      createdAt: this.createdAt,
      updatedAt: Date.now(),
      model: this.init.model,
      messageCount: view.filter((m) => m.kind === 'user' || m.kind === 'assistant').length,
      tokens,
      cwd: this.init.cwd,
      ...(this.init.branch ? { branch: this.init.branch } : {}),
      preview: previewFrom(view),
    };
    // The index is a locked, atomic rewrite: coalesce it, so a burst of events costs one.
    this.indexTimer ??= setTimeout(() => void this.flush().catch(() => undefined), INDEX_DELAY_MS).unref();
  });

  /** Writes the pending index entry now (before exit, and in tests). */
  async flush(): Promise<void> {
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    const entry = this.pendingIndex;
    this.pendingIndex = undefined;
    if (entry) await this.store.updateIndex(entry);
  }

  /** The title was changed elsewhere (the history's Rename); later index updates keep it. */
  adoptTitle(title: string): void {
    this.title = title;
    if (this.pendingIndex) this.pendingIndex = { ...this.pendingIndex, title };
  }
}
