import type { MessageParam } from '../api/types';
import { newId } from '../base/ids';
import type { CompactionResult } from '../compact/compact';
import type { CompactedEvent, Compactor } from '../compact/compactor';
import { CompactionRefused, partialPoints, type PartialDirection } from '../compact/partial';
import { findPrompt, recordCompaction, undoableCompactions, undoCompaction } from '../compact/undo';
import type { Conversation, HistoryChange } from '../conversation/conversation';
import type { RecentFiles } from '../conversation/recentFiles';
import type { TokenMeter } from '../conversation/tokenMeter';
import type { Store } from '../shared/store';
import type { ViewMessage } from '../shared/viewState';
import type { AppState } from '../state/appState';
import type { PartialCompactionPreview } from '../sessions/sessionAgent';
import { addNotice, updateMessage } from '../state/actions';
import { describeCompaction, type PartialCompaction } from './compaction';

export type { PartialCompaction } from './compaction';

export interface CompactionControlDeps {
  store: Store<AppState>;
  compactor?: Compactor;
  partial?: PartialCompaction;
  /** After a partial compaction is applied (a full one tells the compactor's listeners itself). */
  afterPartial?(): void;
  conversation: Conversation;
  meter: TokenMeter;
  recentReads: RecentFiles;
  /** A turn is running: nothing may replace the history under it. */
  busy(): boolean;
  publishTokens(): void;
}

/** What "Summarize from here" or "up to here" would do, shown before it is applied. */
export type PartialPreview = PartialCompactionPreview;

/** Why a partial compaction cannot be previewed or applied, in words for the user. */
class PartialError extends Error {}

/**
 * What the user sees of compaction in one session: the divider each compaction leaves (with its
 * Undo, for as long as its summary is in the conversation), Compact Conversation and its
 * preview, "Summarize from here" and "up to here" with theirs, and Undo. The compactor decides
 * what a compacted history is; this records it (so it can be undone, after a resume too), puts it
 * into the conversation and the panel.
 */
export class CompactionControl {
  /** The manual or partial compaction running now, so Stop can end its summary request. */
  private running: AbortController | undefined;
  private pending: { preview: PartialPreview; result: CompactionResult; before: readonly MessageParam[] } | undefined;
  private partialRunning = false;

  constructor(private readonly deps: CompactionControlDeps) {}

  /** A compaction finished (automatic, manual, asked for by the model, or after "prompt is too long"). */
  compacted(e: CompactedEvent): void {
    this.apply(e.before, e.result, (divider) => (s) => [...s, divider]);
  }

  /** Records the compaction, sets the history it leaves and puts its divider where `place` says. */
  private apply(before: readonly MessageParam[], result: CompactionResult, place: (divider: ViewMessage) => (messages: readonly ViewMessage[]) => ViewMessage[]): void {
    const { store, conversation, meter } = this.deps;
    const id = newId('compact');
    const { record, history } = recordCompaction(id, before, result, conversation.compactions);
    // Both figures by the meter (system + tools + messages), so the divider agrees with the status bar.
    const tokensBefore = meter.used(before);
    conversation.set(history, 'compaction', { records: [record] });
    meter.reset();
    const tokensAfter = meter.used(history);
    const divider: ViewMessage = { kind: 'compaction', id, tokensBefore, tokensAfter, summary: result.summary, canUndo: true, ...(result.archive ? { archive: result.archive } : {}), createdAt: Date.now() };
    store.setState((s) => ({ ...s, messages: place(divider)(s.messages) }));
    if (result.source === 'truncation') addNotice(store, 'warning', result.summary);
    this.deps.publishTokens();
  }

  /**
   * The history changed: a divider offers Undo exactly while its summary is in the conversation
   * once (an undo, a rewind or a later compaction can take it away; undoing that one brings it back).
   */
  historyChanged(change: HistoryChange): void {
    // Appending messages never adds or removes a summary.
    if (change.reason === 'turn' || change.reason === 'user') return;
    const { store, conversation } = this.deps;
    const undoable = new Set(undoableCompactions(conversation.history, conversation.compactions));
    const known = new Set(conversation.compactions.map((r) => r.id));
    store.setState((s) => {
      let changed = false;
      const messages = s.messages.map((m) => {
        if (m.kind !== 'compaction' || !known.has(m.id)) return m;
        const canUndo = undoable.has(m.id);
        if (m.canUndo === canUndo && !(canUndo && m.undone)) return m;
        changed = true;
        const { undone: _undone, ...rest } = m;
        return canUndo ? { ...rest, canUndo } : { ...m, canUndo };
      });
      return changed ? { ...s, messages } : s;
    });
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

  /** Stop: a running manual or partial compaction ends, and the history stays as it was. */
  stop(): void {
    this.running?.abort();
  }

  /** Undoes any compaction whose summary is in the conversation; later messages and compactions stay. */
  undo(id: string): boolean {
    const { store, conversation } = this.deps;
    const record = conversation.compactions.find((r) => r.id === id);
    const next = record && !this.deps.busy() ? undoCompaction(conversation.history, record) : undefined;
    if (!next) return false;
    conversation.set(next, 'undo');
    this.deps.meter.reset();
    updateMessage(store, id, (m) => (m.kind === 'compaction' ? { ...m, canUndo: false, undone: true } : m));
    addNotice(store, 'info', 'Restored the conversation as it was before that compaction; everything since is kept.');
    this.deps.publishTokens();
    return true;
  }

  /** Where in the history the user message `messageId` starts a round, for a partial compaction. */
  private pointOf(messageId: string, direction: PartialDirection): number {
    const { conversation } = this.deps;
    const ref = conversation.prompt(messageId);
    const found = ref && findPrompt(conversation.history, conversation.compactions, ref);
    if (!found) throw new PartialError('that message is no longer in the conversation');
    if ('hiddenIn' in found) throw new PartialError('that message is inside an earlier compaction; undo that compaction first');
    const [at, block] = found.at;
    if (block !== 0 || !partialPoints(conversation.history, direction).includes(at)) {
      throw new PartialError(direction === 'upTo' ? 'there is nothing before that message to summarise, or it does not start a turn of its own' : 'there is nothing from that message on to summarise, or it does not start a turn of its own');
    }
    return at;
  }

  /**
   * "Summarize from here" / "up to here": the summary is asked for and the result previewed
   * (tokens before and after, the summary); nothing changes until `applyPartial`. Throws a
   * PartialError (or CompactionRefused: it would not shrink the conversation) with the reason.
   */
  async previewPartial(messageId: string, direction: PartialDirection, focus?: string): Promise<PartialPreview> {
    const { store, conversation, partial } = this.deps;
    if (!partial) throw new PartialError('this session cannot compact');
    if (this.deps.busy() || this.running) throw new PartialError('Threadline is still answering or compacting; stop it first');
    const at = this.pointOf(messageId, direction);
    const before = conversation.history;
    const controller = new AbortController();
    this.running = controller;
    this.partialRunning = true;
    store.setState((s) => ({ ...s, status: 'compacting' }));
    try {
      const result = await partial({ history: before, at, direction, ...(focus ? { focus } : {}), signal: controller.signal });
      // The figures the divider will show once applied (and the status bar now).
      const tokensBefore = this.deps.meter.used(before);
      const tokensAfter = this.deps.meter.estimate(result.history);
      const preview: PartialPreview = { id: newId('partial'), messageId, direction, ...(focus ? { focus } : {}), tokensBefore, tokensAfter, summary: result.summary };
      this.pending = { preview, result, before };
      return preview;
    } catch (err) {
      if (controller.signal.aborted) throw new PartialError('stopped; the conversation is as it was');
      if (err instanceof CompactionRefused || err instanceof PartialError) throw err;
      throw new PartialError(`the summary failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.partialRunning = false;
      this.running = undefined;
      store.setState((s) => ({ ...s, status: 'idle' }));
    }
  }

  /** Applies the previewed partial compaction, if the conversation has not changed since. */
  applyPartial(previewId: string): boolean {
    const p = this.pending;
    if (!p || p.preview.id !== previewId || this.deps.busy()) return false;
    this.pending = undefined;
    if (this.deps.conversation.history !== p.before) throw new PartialError('the conversation changed since the preview; preview it again');
    const { messageId, direction } = p.preview;
    // "Up to here": the divider goes just before the message it keeps; "from here": at the end.
    this.apply(p.before, p.result, (divider) => (s) => {
      if (direction !== 'upTo') return [...s, divider];
      const at = s.findIndex((m) => m.id === messageId);
      return at < 0 ? [...s, divider] : [...s.slice(0, at), divider, ...s.slice(at)];
    });
    this.deps.afterPartial?.();
    return true;
  }

  /** The preview was dismissed (without an id: whatever is previewed, and a summary being written stops). */
  cancelPartial(previewId?: string): void {
    if (!previewId || this.pending?.preview.id === previewId) this.pending = undefined;
    if (!previewId && this.partialRunning) this.running?.abort();
  }
}
