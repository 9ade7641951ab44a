import { Disposable, toDisposable } from '../base/lifecycle';
import type { Logger } from '../ports/logger';
import type { SessionUiStore } from '../sessions/sessionUiStore';
import type { HostToWebviewMessage, WebviewToHostMap } from '../shared/protocol';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';

export interface SessionUiSyncDeps {
  store: Store<AppState>;
  ui: SessionUiStore;
  log: Logger;
  /** Posts to the webview now, or when it is next ready. */
  send(message: HostToWebviewMessage): void;
  /** Tells the user a save failed (the draft stays in the composer). */
  warn(message: string): void;
}

/**
 * Keeps each session's draft and scroll position on the host and hands them back: before each
 * snapshot (a new or reloaded panel) and as a session is switched to, so the list opens where the
 * reader left it and the composer shows that session's own draft.
 */
export class SessionUiSync extends Disposable {
  private warned = false;

  constructor(private readonly deps: SessionUiSyncDeps) {
    super();
    let shown = deps.store.getState().sessionId;
    this._register(
      toDisposable(
        deps.store.subscribe(() => {
          const id = deps.store.getState().sessionId;
          if (id === shown) return;
          shown = id;
          this.announce(id);
        }),
      ),
    );
  }

  /** Reads a session's state ahead of opening it, so it can go out before the session's first patch. */
  async prepare(id: string): Promise<void> {
    await this.deps.ui.get(id).catch(() => undefined);
  }

  /**
   * Which session a new window opens: the one open before, or a fresh one that got a draft after
   * it (a New Session typed into and not sent), whichever was noted last.
   */
  async sessionToReopen(open: { id: string; at: number } | undefined): Promise<{ id: string; fresh: boolean } | undefined> {
    const fresh = await this.deps.ui.readFresh().catch(() => undefined);
    if (fresh && (!open || fresh.at > open.at)) return { id: fresh.id, fresh: true };
    return open && { id: open.id, fresh: false };
  }

  /** Whether the panel has handed over a draft for this session (read from memory only). */
  hasDraft(id: string): boolean {
    return Boolean(this.deps.ui.peek(id)?.draft?.text);
  }

  /** The message to send before a snapshot, when the open session's state is at hand. */
  leadForSnapshot(): HostToWebviewMessage | undefined {
    const id = this.deps.store.getState().sessionId;
    const ui = this.deps.ui.peek(id);
    if (ui) return { type: 'ui/restore', payload: { sessionId: id, ...ui } };
    // Not read yet: it follows the snapshot, and the panel applies it where nothing was touched.
    this.announce(id);
    return undefined;
  }

  /**
   * Sent at once when the state is in memory: the store's listeners run before the view's patch
   * goes out (a microtask later), so the restore reaches the panel first.
   */
  private announce(id: string): void {
    const known = this.deps.ui.peek(id);
    if (known) {
      this.deps.send({ type: 'ui/restore', payload: { sessionId: id, ...known } });
      return;
    }
    void this.deps.ui.get(id).then(
      (ui) => this.deps.send({ type: 'ui/restore', payload: { sessionId: id, ...ui } }),
      (err: unknown) => this.deps.log.warn(`could not read the panel state of session ${id}: ${String(err)}`),
    );
  }

  readonly handlers = {
    'draft/save': async ({ sessionId, text, at }: WebviewToHostMap['draft/save']) => {
      await this.guard(this.deps.ui.saveDraft(sessionId, { text, at }), 'the draft');
      const now = this.deps.store.getState();
      if (text && now.sessionId === sessionId && now.messages.length === 0) await this.guard(this.deps.ui.markFresh(sessionId, Date.now()), 'the draft');
    },
    'scroll/save': async ({ sessionId, topId, atBottom, at }: WebviewToHostMap['scroll/save']) => {
      await this.guard(this.deps.ui.saveScroll(sessionId, { topId, atBottom, at }), 'the scroll position');
    },
  };

  /** A message was sent from the composer of the open session: its draft is gone. */
  sent(): void {
    const id = this.deps.store.getState().sessionId;
    void this.guard(this.deps.ui.clearDraft(id), 'the draft');
  }

  flush(): Promise<void> {
    return this.deps.ui.flush();
  }

  private async guard(work: Promise<void>, what: string): Promise<void> {
    try {
      await work;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.deps.log.warn(`could not keep ${what}: ${message}`);
      // Once per window: a disk that refuses one save usually refuses the next hundred.
      if (!this.warned) {
        this.warned = true;
        this.deps.warn(`could not keep ${what} for after a reload: ${message}`);
      }
    }
  }
}
