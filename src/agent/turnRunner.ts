import { ApiError } from '../api/errors';
import { costUsd } from '../api/cost';
import type { MessageParam, MessagesRequest } from '../api/types';
import type { MessagesClient } from '../api/messagesClient';
import { newId } from '../base/ids';
import type { CacheHints } from '../compact/microCompact';
import type { Compactor } from '../compact/compactor';
import type { Conversation } from '../conversation/conversation';
import { tokenView, type Thresholds } from '../conversation/thresholds';
import type { TokenMeter } from '../conversation/tokenMeter';
import type { Logger } from '../ports/logger';
import { formatTokens } from '../shared/format';
import type { Store } from '../shared/store';
import type { ToolStatus, ViewMessage } from '../shared/viewState';
import { appendMessage, updateMessage } from '../state/actions';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import type { ToolRegistry } from '../tools/registry';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { safeJson } from '../permissions/permissionBroker';
import { clipResult } from './resultClip';
import { runQueryLoop, type LoopDeps, type LoopEvents, type LoopResult } from './queryLoop';
import type { BuildOptions } from './requestFactory';

export interface TurnRunnerDeps {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  tools: ToolRegistry;
  conversation: Conversation;
  meter: TokenMeter;
  broker: PermissionBroker;
  buildRequest(history: readonly MessageParam[], opts?: BuildOptions): Promise<MessagesRequest>;
  maxTurns(): number;
  /** The thresholds of the model in use, for the token figure and the blocking check. */
  thresholds(): Thresholds;
  compactor?: Compactor;
  afterTools?: LoopDeps['afterTools'];
  /** Re-reads of unchanged files become pointers (see RereadTracker). */
  reviseResult?: LoopDeps['reviseResult'];
  /** Extra observers of the loop (the CLI's stream-json output). */
  loopEvents?: LoopEvents;
  /**
   * A tool call that ran to its end without error (the agent keeps the files it read). A call
   * refused or failed read nothing, and a compaction must not read it back on its behalf.
   */
  onToolDone(name: string, input: unknown): void;
}

/**
 * Runs the query loop for one user turn and streams it into the store: the answer as it arrives,
 * a card per tool call, retries, usage and the token figure. The conversation follows every
 * change the loop makes, so a Stop or an error mid-loop keeps what was done.
 */
export class TurnRunner {
  /** When the last assistant message arrived; the cache is cold after a long gap. */
  lastAssistantAt: number | undefined;

  constructor(private readonly deps: TurnRunnerDeps) {}

  async run(client: Pick<MessagesClient, 'stream'>, signal: AbortSignal): Promise<LoopResult> {
    const { store, conversation, meter, compactor } = this.deps;
    const view = new StreamingView(store);
    const calls = new Map<string, { name: string; input: unknown }>();
    const events: LoopEvents = {
      onRequestStart: () => store.setState((s) => (s.status === 'streaming' ? s : { ...s, status: 'streaming' })),
      onTextDelta: (text) => {
        clearRetry(store);
        view.text(text);
      },
      onThinkingDelta: (text) => {
        clearRetry(store);
        view.thinking(text);
      },
      // A retry is a transient line, not a notice: the transcript only ever shows the answer
      // or the one error that ended the turn.
      onRetry: ({ attempt, delayMs, reason }) => {
        view.discard();
        store.setState((s) => ({ ...s, retry: { attempt, reason, at: Date.now() + delayMs } }));
      },
      onTurnComplete: (turn, request) => {
        clearRetry(store);
        view.finish();
        this.deps.runtime.recordUsage(turn.model, turn.usage, costUsd(turn.model, turn.usage));
        const used = meter.anchor(turn.usage, request.messages.length);
        this.lastAssistantAt = Date.now();
        const thresholds = this.deps.thresholds();
        store.setState((s) => ({ ...s, lastUsage: turn.usage, tokens: tokenView(used, thresholds) }));
      },
      onToolCall: ({ id, name, input, summary }) => {
        view.finish();
        calls.set(id, { name, input });
        appendMessage(store, { kind: 'tool', id, name, summary, input: safeJson(input), status: 'pending', createdAt: Date.now() });
        store.setState((s) => ({ ...s, status: 'running-tools' }));
      },
      onToolStatus: (id, status, detail) => {
        const call = calls.get(id);
        if (call && status === 'done') this.deps.onToolDone(call.name, call.input);
        view.toolStatus(id, status, detail);
      },
      onToolOutput: (id, text) => view.toolOutput(id, text),
      onHistory: (history) => conversation.set(history, 'turn'),
    };
    // The cache hints belong to the history the compactor just prepared: they go from
    // prepareHistory to the request (or its smaller retry) built from it, until the next one.
    let hints: CacheHints | undefined;
    let result: LoopResult;
    try {
      result = await runQueryLoop(
        conversation.history,
        {
          client,
          tools: this.deps.tools,
          buildRequest: (history, opts) => this.deps.buildRequest(history, { ...opts, ...(hints?.frontier ? { frontier: hints.frontier } : {}), ...(hints?.clearsNext ? { tailUncached: true } : {}) }),
          ...(this.deps.afterTools ? { afterTools: this.deps.afterTools } : {}),
          ...(this.deps.reviseResult ? { reviseResult: this.deps.reviseResult } : {}),
          ...(compactor
            ? {
                prepareHistory: async (h: MessageParam[]) => {
                  const prepared = await compactor.beforeRequest(h, { usedTokens: meter.used(h), lastAssistantAt: this.lastAssistantAt, signal });
                  hints = prepared.hints;
                  if (prepared.history !== h) conversation.set(prepared.history, 'micro-compaction');
                  return prepared.history;
                },
              }
            : {}),
          checkLimit: (h) => this.overLimit(h),
          checkPermission: (call) => this.deps.broker.check(call, signal),
          cwd: this.deps.cwd,
          maxTurns: this.deps.maxTurns(),
          events: mergeEvents(events, this.deps.loopEvents),
        },
        signal,
      );
    } catch (err) {
      // runQueryLoop reports API failures as outcomes; reaching here is a bug, but the session
      // must survive it with its history intact.
      this.deps.log.error('query loop failed', err);
      result = { history: [...conversation.history], outcome: 'error', error: new ApiError('unknown', err instanceof Error ? err.message : String(err), undefined, undefined), turns: 0, finalText: '' };
    } finally {
      view.finish();
      clearRetry(store);
    }
    conversation.set(result.history, 'turn');
    return result;
  }

  /**
   * A request at or over the blocking limit is never sent, whether automatic compaction is on
   * (it ran before this check and did not get under it) or off: the API would refuse it, or
   * leave no room for the answer.
   */
  private overLimit(history: readonly MessageParam[]): string | undefined {
    const { store, meter, compactor } = this.deps;
    const settings = store.getState().settings;
    const t = this.deps.thresholds();
    const used = meter.used(history);
    if (used < t.blockingAt) return undefined;
    const why = !compactor
      ? 'this session cannot compact'
      : !settings.autoCompact
        ? 'automatic compaction is off'
        : compactor.autoDisabledReason
          ? 'automatic compaction has stopped for this session'
          : 'compacting did not bring it under that';
    return `The conversation is about ${formatTokens(used)} tokens, over the ${formatTokens(t.blockingAt)} a request to this model may hold (its window is ${formatTokens(t.contextWindow)}), and ${why}, so nothing was sent. Compact the conversation, then try again.`;
  }
}

/** The assistant message being streamed into the panel, and the tool cards' updates. */
class StreamingView {
  private streamingId: string | undefined;

  constructor(private readonly store: Store<AppState>) {}

  text(delta: string): void {
    if (!this.streamingId) {
      this.streamingId = newId('asst');
      appendMessage(this.store, { kind: 'assistant', id: this.streamingId, text: delta, streaming: true, createdAt: Date.now() });
      return;
    }
    updateMessage(this.store, this.streamingId, (m) => (m.kind === 'assistant' ? { ...m, text: m.text + delta } : m));
  }

  /** Thinking opens the answer it leads to, and is shown collapsed above its text. */
  thinking(delta: string): void {
    if (!this.streamingId) {
      this.streamingId = newId('asst');
      appendMessage(this.store, { kind: 'assistant', id: this.streamingId, text: '', thinking: delta, streaming: true, createdAt: Date.now() });
      return;
    }
    updateMessage(this.store, this.streamingId, (m) => (m.kind === 'assistant' ? { ...m, thinking: (m.thinking ?? '') + delta } : m));
  }

  /** A retry starts the answer over: the half-streamed text goes. */
  discard(): void {
    const id = this.streamingId;
    if (!id) return;
    this.streamingId = undefined;
    this.store.setState((s) => ({ ...s, messages: s.messages.filter((m) => m.id !== id) }));
  }

  finish(): void {
    const id = this.streamingId;
    if (!id) return;
    this.streamingId = undefined;
    updateMessage(this.store, id, (m) => (m.kind === 'assistant' ? { ...m, streaming: false } : m));
  }

  toolOutput(id: string, text: string): void {
    updateMessage(this.store, id, (m) => (m.kind === 'tool' && m.status === 'running' ? { ...m, liveOutput: text } : m));
  }

  toolStatus(id: string, status: ToolStatus, detail: { result?: string; durationMs?: number } | undefined): void {
    updateMessage(this.store, id, (m): ViewMessage => {
      if (m.kind !== 'tool') return m;
      const { liveOutput: _done, ...rest } = m;
      const next: ViewMessage = { ...(status === 'running' ? m : rest), status };
      if (detail?.result !== undefined) next.result = clipResult(detail.result);
      if (detail?.durationMs !== undefined) next.durationMs = detail.durationMs;
      return next;
    });
  }
}

function clearRetry(store: Store<AppState>): void {
  store.setState((s) => (s.retry === null ? s : { ...s, retry: null }));
}

function mergeEvents(a: LoopEvents, b: LoopEvents | undefined): LoopEvents {
  if (!b) return a;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof LoopEvents)[]);
  const out: Record<string, (...args: never[]) => unknown> = {};
  for (const key of keys) {
    const fa = a[key] as ((...args: unknown[]) => unknown) | undefined;
    const fb = b[key] as ((...args: unknown[]) => unknown) | undefined;
    out[key] = (...args: unknown[]) => {
      const ra = fa?.(...args);
      const rb = fb?.(...args);
      // onHistory may return a promise the loop waits for.
      return ra instanceof Promise || rb instanceof Promise ? Promise.all([ra, rb]).then(() => undefined) : undefined;
    };
  }
  return out as LoopEvents;
}
