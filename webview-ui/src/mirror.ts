import type { HostToWebviewMessage, WebviewToHostMessage } from '../../src/shared/protocol';
import { applyViewPatch } from '../../src/shared/viewPatch';
import type { ViewState } from '../../src/shared/viewState';
import { createStore, type Store } from '../../src/shared/store';

/**
 * The webview's copy of the host's view state, fed only by snapshots and patches. A gap in
 * sequence numbers (a lost or reordered message) asks for one fresh snapshot and ignores
 * patches until it arrives, rather than drawing a state the host never had.
 */
export class ViewMirror {
  readonly store: Store<ViewState | null> = createStore<ViewState | null>(null);
  private lastSeq = 0;
  private awaitingSnapshot = true;

  constructor(private readonly post: (message: WebviewToHostMessage) => void) {}

  start(): void {
    this.awaitingSnapshot = true;
    this.post({ type: 'view/ready', payload: {} });
  }

  receive(message: HostToWebviewMessage): void {
    if (message.type !== 'state/snapshot' && message.type !== 'state/patch') return;
    if (message.type === 'state/snapshot') {
      this.lastSeq = message.payload.seq;
      this.awaitingSnapshot = false;
      this.store.setState(() => message.payload.state);
      return;
    }
    if (this.awaitingSnapshot) return;
    const { seq, ops } = message.payload;
    const current = this.store.getState();
    if (seq !== this.lastSeq + 1 || !current) {
      this.resync();
      return;
    }
    try {
      const next = applyViewPatch(current, ops);
      this.lastSeq = seq;
      this.store.setState(() => next);
    } catch {
      this.resync();
    }
  }

  private resync(): void {
    this.awaitingSnapshot = true;
    this.post({ type: 'view/resync', payload: { lastSeq: this.lastSeq } });
  }
}
