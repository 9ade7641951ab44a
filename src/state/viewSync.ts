import { Disposable, toDisposable, type IDisposable } from '../base/lifecycle';
import type { Logger } from '../ports/logger';
import { dispatch, parseWebviewMessage, type HandlerTable, type HostToWebviewMessage, type WebviewToHostMap } from '../shared/protocol';
import { diffViewState } from '../shared/viewPatch';
import type { ViewState } from '../shared/viewState';
import { pickView, type AppState } from './appState';
import type { Store } from '../shared/store';

export interface WebviewChannel {
  postMessage(message: HostToWebviewMessage): unknown;
}

export type ChatHandlers = HandlerTable<Omit<WebviewToHostMap, 'view/ready' | 'view/resync'>>;

/**
 * Keeps one webview's mirror in step with the store. Nothing is sent until the webview
 * says `view/ready`; then a full snapshot, then only patches. Changes made in one tick are
 * coalesced into one patch, diffed against what was last sent, so a hidden-then-shown
 * or reloaded view always starts again from a fresh snapshot.
 */
export class ViewSync extends Disposable {
  private channel: WebviewChannel | undefined;
  private ready = false;
  private lastSent: ViewState | undefined;
  private seq = 0;
  private flushScheduled = false;
  private readonly pending = new Map<HostToWebviewMessage['type'], HostToWebviewMessage>();
  private readonly leads = new Set<() => HostToWebviewMessage | undefined>();
  /** Bytes posted, for the benchmark and the Show Context figures. */
  bytesPosted = 0;

  constructor(
    private readonly store: Store<AppState>,
    private readonly handlers: ChatHandlers,
    private readonly log: Logger,
  ) {
    super();
    this._register(toDisposable(store.subscribe(() => this.schedule())));
  }

  attach(channel: WebviewChannel): IDisposable {
    this.channel = channel;
    this.ready = false;
    this.lastSent = undefined;
    return toDisposable(() => {
      if (this.channel === channel) {
        this.channel = undefined;
        this.ready = false;
        this.lastSent = undefined;
      }
    });
  }

  /** Entry point for every raw message from the webview. Never throws. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.error(`rejected a message from the webview: ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    try {
      if (message.type === 'view/ready' || message.type === 'view/resync') {
        this.ready = true;
        this.sendSnapshot();
        return;
      }
      await dispatch(this.handlers, message);
    } catch (err) {
      this.log.error(`handling ${message.type} failed`, err);
    }
  }

  /**
   * A message outside the state's patches (a `context/report`, a `context/open`). One sent before
   * the webview listens waits for its `view/ready` (the last of each type), so Show Context on a
   * panel still loading is not lost.
   */
  send(message: HostToWebviewMessage): void {
    if (this.ready && this.channel) this.post(message);
    else this.pending.set(message.type, message);
  }

  /**
   * What the webview must hear before each snapshot (a session's draft and scroll position,
   * which the list and the composer read when the snapshot mounts them).
   */
  sendBeforeSnapshot(lead: () => HostToWebviewMessage | undefined): IDisposable {
    this.leads.add(lead);
    return toDisposable(() => this.leads.delete(lead));
  }

  private sendSnapshot(): void {
    for (const lead of this.leads) {
      const m = lead();
      if (m) this.post(m);
    }
    const state = pickView(this.store.getState());
    this.post({ type: 'state/snapshot', payload: { seq: ++this.seq, state } });
    this.lastSent = state;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const m of waiting) this.post(m);
  }

  private schedule(): void {
    if (!this.ready || this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** Sends what changed since the last post; exposed so tests and benchmarks can step it. */
  flush(): void {
    if (!this.ready || !this.channel || !this.lastSent) return;
    const next = pickView(this.store.getState());
    const prev = this.lastSent;
    const ops = diffViewState(prev, next);
    this.lastSent = next;
    if (ops.length === 0) return;
    this.post({ type: 'state/patch', payload: { seq: ++this.seq, ops } });
    // A new permission request: its tool card may be far up (or scrolled away); bring it into view.
    const asked = next.permission;
    if (asked?.toolUseId && asked.requestId !== prev.permission?.requestId) this.post({ type: 'view/reveal', payload: { id: asked.toolUseId } });
  }

  private post(message: HostToWebviewMessage): void {
    if (!this.channel) return;
    this.bytesPosted += JSON.stringify(message).length;
    try {
      const result = this.channel.postMessage(message);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, (err: unknown) => this.log.warn(`postMessage failed: ${String(err)}`));
      }
    } catch (err) {
      this.log.warn(`postMessage failed: ${String(err)}`);
    }
  }
}
