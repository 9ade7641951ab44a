import type { MessageParam } from '../api/types';
import { newId } from '../base/ids';
import type { CompactedEvent, Compactor } from '../compact/compactor';
import type { Conversation } from '../conversation/conversation';
import type { RecentFiles } from '../conversation/recentFiles';
import type { TokenMeter } from '../conversation/tokenMeter';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import { addNotice, updateMessage } from '../state/actions';
import { describeCompaction } from './compaction';

export interface CompactionControlDeps {
  store: Store<AppState>;
  compactor?: Compactor;
  conversation: Conversation;
  meter: TokenMeter;
  recentReads: RecentFiles;
  /** A turn is running: nothing may replace the history under it. */
  busy(): boolean;
  publishTokens(): void;
}

/**
 * What the user sees of compaction in one session: the divider a compaction leaves (with its
 * undo), Compact Conversation and its preview, and Undo. The compactor decides what the
 * compacted history is; this puts it into the conversation and the panel.
 */
export class CompactionControl {
  /** The manual compaction running now, so Stop can end its summary request. */
  private running: AbortController | undefined;

  constructor(private readonly deps: CompactionControlDeps) {}

  /** A compaction finished (automatic, manual or after "prompt is too long"). */
  compacted(e: CompactedEvent): void {
    const { store, conversation, meter } = this.deps;
    const id = newId('compact');
    const retired = conversation.rememberUndo(id, e.before);
    if (retired) updateMessage(store, retired, (m) => (m.kind === 'compaction' ? { ...m, canUndo: false } : m));
    // Both figures by the meter (system + tools + messages), so the divider agrees with the status bar.
    const tokensBefore = meter.used(e.before);
    conversation.set(e.result.history, 'compaction');
    meter.reset();
    const tokensAfter = meter.used(e.result.history);
    store.setState((s) => ({
      ...s,
      messages: [
        ...s.messages,
        { kind: 'compaction', id, tokensBefore, tokensAfter, summary: e.result.summary, canUndo: true, ...(e.result.archive ? { archive: e.result.archive } : {}), createdAt: Date.now() },
      ],
    }));
    if (e.result.source === 'truncation') addNotice(store, 'warning', e.result.summary);
    this.deps.publishTokens();
  }

  /** What a manual compaction would do now, in one sentence (shown before the user confirms). */
  preview(history: readonly MessageParam[]): string {
    return describeCompaction(history, this.deps.meter.used(history), this.deps.recentReads.newestFirst());
  }

  /** Manual compaction ("Compact Conversation", /compact). */
  async compactNow(focus?: string): Promise<boolean> {
    const { store, compactor, conversation } = this.deps;
    if (!compactor) return false;
    if (this.deps.busy()) {
      addNotice(store, 'warning', 'Threadline is still answering. Stop it first, then compact.');
      return false;
    }
    if (conversation.history.length === 0) {
      addNotice(store, 'info', 'Nothing to compact yet.');
      return false;
    }
    const controller = new AbortController();
    this.running = controller;
    store.setState((s) => ({ ...s, status: 'compacting' }));
    try {
      await compactor.compact(conversation.history, 'manual', controller.signal, focus);
      return true;
    } catch {
      return false;
    } finally {
      this.running = undefined;
      store.setState((s) => ({ ...s, status: 'idle' }));
    }
  }

  /**
   * After "prompt is too long": compacts so the turn can be tried once more; false when it could
   * not (the compactor has said why). Stop ends it like the turn it belongs to.
   */
  async afterTooLong(signal: AbortSignal): Promise<boolean> {
    const { store, compactor, conversation } = this.deps;
    if (!compactor) return false;
    store.setState((s) => ({ ...s, status: 'compacting' }));
    try {
      await compactor.compact(conversation.history, 'prompt_too_long', signal);
      return true;
    } catch {
      return false;
    }
  }

  /** Stop: a running manual compaction ends, and the history stays as it was. */
  stop(): void {
    this.running?.abort();
  }

  /** Restores the transcript archived by the newest compaction, if nothing happened since. */
  undo(id: string): boolean {
    const { store, conversation } = this.deps;
    if (this.deps.busy() || !conversation.undo(id)) return false;
    this.deps.meter.reset();
    updateMessage(store, id, (m) => (m.kind === 'compaction' ? { ...m, canUndo: false, undone: true } : m));
    addNotice(store, 'info', 'Restored the conversation as it was before compacting.');
    this.deps.publishTokens();
    return true;
  }
}
