import { ApiError } from '../api/errors';
import { contextTokens, costUsd } from '../api/cost';
import { resolveModel } from '../api/models';
import type { MessageParam, MessagesRequest, SystemBlock } from '../api/types';
import type { MessagesClient } from '../api/messagesClient';
import { newId } from '../base/ids';
import type { ChatRunner } from './chatRunner';
import { computeThresholds, tokenView } from '../conversation/thresholds';
import { buildMessagesRequest } from '../context/requestBuilder';
import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import { addNotice, appendMessage, updateMessage } from '../state/actions';
import type { RuntimeState } from '../state/runtimeState';
import type { Store } from '../shared/store';
import type { PermissionDecision, ToolStatus, ViewMessage } from '../shared/viewState';
import { appendUserContent } from '../conversation/history';
import { applyReminders, type Reminder } from '../context/reminders';
import type { CompactedEvent, Compactor } from '../compact/compactor';
import { estimateTokens } from '../conversation/tokens';
import { findAnchors } from '../compact/compact';
import type { MemoryDir } from '../memory/memdir';
import { breakdownRequest, type ContextPreview } from '../context/breakdown';
import type { InstructionReport } from '../context/instructions';
import { runQueryLoop, type LoopDeps, type LoopEvents, type LoopResult } from './queryLoop';
import type { PermissionOutcome, Tool } from '../tools/types';

export const CONTINUE_PROMPT = 'Continue from where you left off.';
const VIEW_RESULT_CHARS = 20_000;

export type PermissionVerdict = { behavior: 'allow' | 'ask' | 'deny'; reason: string };

export interface AgentDeps {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  tools: readonly Tool[];
  /** A client for the current key and settings, or undefined when no key is set. */
  createClient(): Promise<MessagesClient | undefined>;
  /** System blocks for the next request (static prefix + dynamic part). */
  systemBlocks(): Promise<SystemBlock[]>;
  /** Rules, defaults and session grants: allow, ask or deny. */
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict;
  /** Remembers "Allow for this session" for calls like this one. */
  grantForSession(call: { tool: Tool; input: unknown }): void;
  maxTurns(): number;
  /** Reminder blocks put at the head of the conversation on every request. */
  reminders?(): Promise<Reminder[]>;
  instructionReport?(): Promise<InstructionReport[]>;
  /** Micro, auto and manual compaction for this session. */
  compactor?: Compactor;
  afterTools?: LoopDeps['afterTools'];
  /** Extra observers of the loop (the CLI's stream-json output). */
  loopEvents?: LoopEvents;
  /** Waits for background work (memory extraction, session notes). */
  drain?(): Promise<void>;
  /** The memory folder, when auto memory is on. */
  memdir?: MemoryDir;
  /** Called after each complete loop; sessions and memory hook in here. */
  onLoopComplete?(result: LoopResult, request: MessagesRequest | undefined): void;
}

/**
 * Runs the conversation with the model for one session: owns the API history, streams
 * answers into the store, asks for permissions through it, and keeps the history valid
 * through Stop, errors and retries.
 */
export class Agent implements ChatRunner {
  private history: MessageParam[] = [];
  private controller: AbortController | undefined;
  private readonly pending = new Map<string, { call: { tool: Tool; input: unknown }; resolve: (d: PermissionDecision) => void }>();
  private lastOutcome: LoopResult['outcome'] | undefined;
  /** A message is waiting for an API key; the shell offers Retry once one is set. */
  awaitingKey = false;
  // Token accounting: the last response's usage is the anchor; what was added since is estimated.
  private anchorTokens = 0;
  private anchorLength = 0;
  private lastAssistantAt: number | undefined;
  /** Pre-compaction history for Undo, by the divider's id; only the newest stays undoable. */
  private undo: { id: string; history: MessageParam[] } | undefined;
  /** Files the agent read, newest last, to put back after a compaction. */
  readonly recentReads: string[] = [];

  constructor(private readonly deps: AgentDeps) {
    deps.compactor?.onDidCompact((e) => this.compacted(e));
    deps.compactor?.onNotice(({ level, text }) => addNotice(deps.store, level, text));
  }

  /** Resolves when background memory work has finished (before exit). */
  async drain(): Promise<void> {
    await this.deps.drain?.();
  }

  get memdir(): MemoryDir | undefined {
    return this.deps.memdir;
  }

  /** Tokens the next request will hold, as well as we know before sending it. */
  usedTokens(history: readonly MessageParam[] = this.history): number {
    const start = Math.min(this.anchorLength, history.length);
    return this.anchorTokens + estimateTokens(history.slice(start));
  }

  private compacted(e: CompactedEvent): void {
    const { store } = this.deps;
    this.anchorTokens = 0;
    this.anchorLength = 0;
    if (this.undo) {
      const old = this.undo.id;
      updateMessage(store, old, (m) => (m.kind === 'compaction' ? { ...m, canUndo: false } : m));
    }
    const id = newId('compact');
    this.undo = { id, history: e.before };
    appendMessage(store, {
      kind: 'compaction',
      id,
      tokensBefore: e.result.tokensBefore,
      tokensAfter: e.result.tokensAfter,
      summary: e.result.summary,
      canUndo: true,
      ...(e.result.archive ? { archive: e.result.archive } : {}),
      createdAt: Date.now(),
    });
    if (e.result.source === 'truncation') addNotice(store, 'warning', e.result.summary);
    this.refreshTokens();
  }

  private refreshTokens(): void {
    const { store } = this.deps;
    const s = store.getState();
    const model = resolveModel(s.settings.model, { contextWindow: s.settings.contextWindow });
    store.setState((st) => ({ ...st, tokens: tokenView(this.usedTokens(), computeThresholds(model.contextWindow, model.maxOutputTokens)) }));
  }

  private async buildRequest(history: readonly MessageParam[]): Promise<MessagesRequest> {
    const s = this.deps.store.getState();
    const model = resolveModel(s.settings.model, { contextWindow: s.settings.contextWindow });
    return buildMessagesRequest({
      model: s.settings.model,
      maxTokens: Math.min(model.maxOutputTokens, 32_000),
      system: await this.deps.systemBlocks(),
      tools: this.deps.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
      history: applyReminders(history, (await this.deps.reminders?.()) ?? []),
    });
  }

  /** The API's own count of the request this history would make (count_tokens). */
  async exactTokens(history: readonly MessageParam[]): Promise<number> {
    const client = await this.deps.createClient();
    if (!client) throw new Error('no API key is set');
    const r = await this.buildRequest(history);
    return client.countTokens({ model: r.model, system: r.system, tools: r.tools, messages: r.messages });
  }

  /** What the next request would hold, by category (Show Context, `threadline context`). */
  async previewContext(): Promise<ContextPreview> {
    const history: MessageParam[] = this.history.length ? this.history : [{ role: 'user', content: [{ type: 'text', text: '(your next message)' }] }];
    return breakdownRequest(await this.buildRequest(history), (await this.deps.instructionReport?.()) ?? []);
  }

  /** What a manual compaction would do now, in one sentence (shown before the user confirms). */
  compactPreview(): string {
    const n = this.history.length;
    const anchors = findAnchors(this.history).length;
    const files = [...this.recentReads].reverse().slice(0, 5);
    return (
      `Summarises ${n} message${n === 1 ? '' : 's'} (about ${Math.round(this.usedTokens() / 1000)}k tokens) into the nine-section summary; ` +
      `keeps word for word ${anchors} correction${anchors === 1 ? '' : 's'}, completion${anchors === 1 ? '' : 's'} or fix${anchors === 1 ? '' : 'es'}` +
      (files.length ? ` and re-attaches ${files.join(', ')}` : '') +
      '. Undo stays available until the next message.'
    );
  }

  /** Manual compaction ("Compact Conversation", /compact). */
  async compactNow(focus?: string): Promise<boolean> {
    const { store, compactor } = this.deps;
    if (!compactor) return false;
    if (this.controller) {
      addNotice(store, 'warning', 'Threadline is still answering. Stop it first, then compact.');
      return false;
    }
    if (this.history.length === 0) {
      addNotice(store, 'info', 'Nothing to compact yet.');
      return false;
    }
    store.setState((s) => ({ ...s, status: 'compacting' }));
    try {
      const r = await compactor.compact(this.history, 'manual', focus);
      this.history = r.history;
      return true;
    } catch {
      return false;
    } finally {
      store.setState((s) => ({ ...s, status: 'idle' }));
    }
  }

  /** Restores the transcript archived by the newest compaction, if nothing happened since. */
  undoCompaction(id: string): boolean {
    if (this.controller || !this.undo || this.undo.id !== id) return false;
    this.history = this.undo.history;
    this.undo = undefined;
    this.anchorTokens = 0;
    this.anchorLength = 0;
    updateMessage(this.deps.store, id, (m) => (m.kind === 'compaction' ? { ...m, canUndo: false } : m));
    addNotice(this.deps.store, 'info', 'Restored the conversation as it was before compacting.');
    this.refreshTokens();
    return true;
  }

  get messages(): readonly MessageParam[] {
    return this.history;
  }

  /** Replaces the history (resume, fork, rewind); token use is re-estimated from it. */
  setHistory(history: MessageParam[]): void {
    this.history = history;
    if (!history.length) this.marks.clear();
    this.anchorTokens = 0;
    this.anchorLength = 0;
    this.undo = undefined;
    this.refreshTokens();
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  /**
   * Where the API history stood just before each user message, by the message's view id: a
   * prefix length of a history array. Marks share the newest array they are a prefix of (see
   * `shareMarks`), so a long session keeps one array, not one per message; a compaction leaves
   * the older marks on the pre-compaction array.
   */
  private readonly marks = new Map<string, { base: MessageParam[]; length: number }>();

  private markedHistory(viewId: string): MessageParam[] | undefined {
    const m = this.marks.get(viewId);
    return m && m.base.slice(0, m.length);
  }

  /**
   * Re-points marks to the current history where it extends their array: the message just before
   * the mark is an assistant turn, which appending (and micro-compaction) never replaces.
   */
  private shareMarks(): void {
    for (const m of this.marks.values()) {
      if (m.base === this.history || m.length > this.history.length) continue;
      if (m.length === 0 || m.base[m.length - 1] === this.history[m.length - 1]) m.base = this.history;
    }
  }

  /** Rewind: the conversation as it was before this user message; nothing on disk changes. */
  rewindTo(viewId: string): boolean {
    const before = this.markedHistory(viewId);
    if (!before || this.controller) return false;
    const { store } = this.deps;
    const index = store.getState().messages.findIndex((m) => m.id === viewId);
    if (index < 0) return false;
    // Marks of the messages that go stay valid no longer.
    const kept = new Set(store.getState().messages.slice(0, index).map((m) => m.id));
    for (const id of [...this.marks.keys()]) if (!kept.has(id)) this.marks.delete(id);
    this.setHistory(before);
    store.setState((s) => ({ ...s, messages: s.messages.slice(0, index), canContinue: false }));
    return true;
  }

  /** What a fork from this message starts with: the API history and the panel's messages. */
  forkPoint(viewId: string): { history: MessageParam[]; messages: ViewMessage[] } | undefined {
    const before = this.markedHistory(viewId);
    const index = this.deps.store.getState().messages.findIndex((m) => m.id === viewId);
    if (!before || index < 0) return undefined;
    return { history: before, messages: this.deps.store.getState().messages.slice(0, index) };
  }

  async submit(text: string): Promise<void> {
    const { store } = this.deps;
    const s = store.getState();
    if (this.deps.compactor && !s.settings.autoCompact && this.deps.compactor.isBlocked(this.usedTokens() + estimateTokens(text))) {
      addNotice(store, 'error', 'The conversation is too close to the context limit for a new message. Compact it first (your message was not sent).', {
        label: 'Compact',
        command: 'compact',
      });
      return;
    }
    const id = newId('user');
    // Only a message that starts a new user turn can be rewound to cleanly.
    const clean = this.history.at(-1)?.role !== 'user';
    if (clean) this.marks.set(id, { base: this.history, length: this.history.length });
    appendMessage(store, { kind: 'user', id, text, createdAt: Date.now(), ...(clean ? { rewindable: true } : {}) });
    this.history = appendUserContent(this.history, [{ type: 'text', text }]);
    await this.run();
  }

  async retry(): Promise<void> {
    if (this.history.at(-1)?.role !== 'user') return;
    await this.run();
  }

  async continue(): Promise<void> {
    this.history = appendUserContent(this.history, [{ type: 'text', text: CONTINUE_PROMPT }]);
    await this.run();
  }

  stop(): void {
    this.controller?.abort();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve('deny');
    }
  }

  respondToPermission(requestId: string, decision: PermissionDecision): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    if (decision === 'allow-session') this.deps.grantForSession(p.call);
    this.deps.store.setState((s) => ({ ...s, permission: null, status: 'running-tools' }));
    p.resolve(decision);
  }

  private async run(retriedTooLong = false): Promise<void> {
    const { store } = this.deps;
    if (this.controller) return;
    const client = await this.deps.createClient();
    if (!client) {
      addNotice(store, 'warning', 'Set an Anthropic API key to get answers. Your message is kept; press Retry after setting it.', {
        label: 'Set API Key',
        command: 'setApiKey',
      });
      this.awaitingKey = true;
      return;
    }
    this.awaitingKey = false;
    const controller = new AbortController();
    this.controller = controller;
    store.setState((s) => ({ ...s, status: 'streaming', canContinue: false }));
    let lastRequest: MessagesRequest | undefined;
    let streamingId: string | undefined;
    const finishStreaming = () => {
      if (!streamingId) return;
      updateMessage(store, streamingId, (m) => (m.kind === 'assistant' ? { ...m, streaming: false } : m));
      streamingId = undefined;
    };
    const events: LoopEvents = {
      onRequestStart: () => store.setState((s) => (s.status === 'streaming' ? s : { ...s, status: 'streaming' })),
      onTextDelta: (text) => {
        if (!streamingId) {
          streamingId = newId('asst');
          appendMessage(store, { kind: 'assistant', id: streamingId, text, streaming: true, createdAt: Date.now() });
          return;
        }
        updateMessage(store, streamingId, (m) => (m.kind === 'assistant' ? { ...m, text: m.text + text } : m));
      },
      onRetry: ({ attempt, delayMs, reason }) => {
        if (streamingId) {
          const id = streamingId;
          streamingId = undefined;
          store.setState((s) => ({ ...s, messages: s.messages.filter((m) => m.id !== id) }));
        }
        addNotice(store, 'info', `Retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt}): ${reason}`);
      },
      onTurnComplete: (turn, request) => {
        lastRequest = request;
        finishStreaming();
        const model = resolveModel(store.getState().settings.model, { contextWindow: store.getState().settings.contextWindow });
        const cost = costUsd(turn.model, turn.usage);
        this.deps.runtime.recordUsage(turn.model, turn.usage, cost);
        const used = contextTokens(turn.usage);
        this.anchorTokens = used;
        this.anchorLength = request.messages.length + 1;
        this.lastAssistantAt = Date.now();
        // A new turn on top of a compaction makes its Undo lossy: retire it.
        if (this.undo && request.source === 'main') {
          const id = this.undo.id;
          if (this.history.length !== this.undo.history.length) {
            this.undo = undefined;
            updateMessage(store, id, (m) => (m.kind === 'compaction' ? { ...m, canUndo: false } : m));
          }
        }
        store.setState((s) => ({
          ...s,
          lastUsage: turn.usage,
          tokens: tokenView(used, computeThresholds(model.contextWindow, model.maxOutputTokens)),
        }));
      },
      onToolCall: ({ id, name, input, summary }) => {
        finishStreaming();
        const fp = (input as { file_path?: unknown } | undefined)?.file_path;
        if (name === 'Read' && typeof fp === 'string') {
          const i = this.recentReads.indexOf(fp);
          if (i >= 0) this.recentReads.splice(i, 1);
          this.recentReads.push(fp);
          if (this.recentReads.length > 20) this.recentReads.shift();
        }
        appendMessage(store, {
          kind: 'tool',
          id,
          name,
          summary,
          input: safeJson(input),
          status: 'pending',
          createdAt: Date.now(),
        });
        store.setState((s) => ({ ...s, status: 'running-tools' }));
      },
      onToolStatus: (id, status, detail) => {
        const viewStatus: ToolStatus = status;
        updateMessage(store, id, (m): ViewMessage => {
          if (m.kind !== 'tool') return m;
          const next: ViewMessage = { ...m, status: viewStatus };
          if (detail?.result !== undefined) next.result = clip(detail.result);
          if (detail?.durationMs !== undefined) next.durationMs = detail.durationMs;
          return next;
        });
      },
    };

    let result: LoopResult;
    try {
      result = await runQueryLoop(
        this.history,
        {
          client,
          tools: new Map(this.deps.tools.map((t) => [t.name, t])),
          buildRequest: (history) => this.buildRequest(history),
          ...(this.deps.afterTools ? { afterTools: this.deps.afterTools } : {}),
          ...(this.deps.compactor
            ? {
                prepareHistory: async (h: MessageParam[]) => {
                  const next = await this.deps.compactor!.beforeRequest(h, { usedTokens: this.usedTokens(h), lastAssistantAt: this.lastAssistantAt });
                  // Keep the agent's own copy in step, so a Stop or error mid-loop keeps it.
                  this.history = next;
                  return next;
                },
              }
            : {}),
          checkPermission: (call) => this.checkPermission(call, controller.signal),
          cwd: this.deps.cwd,
          maxTurns: this.deps.maxTurns(),
          events: mergeEvents(events, this.deps.loopEvents),
        },
        controller.signal,
      );
    } catch (err) {
      // runQueryLoop reports API failures as outcomes; reaching here is a bug, but the
      // session must survive it with its history intact.
      this.deps.log.error('query loop failed', err);
      result = {
        history: this.history,
        outcome: 'error',
        error: new ApiError('unknown', err instanceof Error ? err.message : String(err), undefined, undefined),
        turns: 0,
        finalText: '',
      };
    } finally {
      this.controller = undefined;
      finishStreaming();
    }
    this.history = result.history;
    this.shareMarks();
    this.lastOutcome = result.outcome;
    // "Prompt is too long" from the API: compact and try the turn once more, instead of failing it.
    if (result.outcome === 'error' && result.error?.kind === 'prompt_too_long' && this.deps.compactor && !retriedTooLong) {
      store.setState((s) => ({ ...s, status: 'compacting' }));
      try {
        this.history = (await this.deps.compactor.compact(this.history, 'prompt_too_long')).history;
        store.setState((s) => ({ ...s, status: 'idle' }));
        await this.run(true);
        return;
      } catch {
        // Reported by the compactor; fall through to the error notice.
      }
    }
    store.setState((s) => ({ ...s, status: 'idle', permission: null, canContinue: result.outcome === 'aborted' || result.outcome === 'max_turns' }));
    this.report(result);
    this.deps.onLoopComplete?.(result, lastRequest);
  }

  get outcome(): LoopResult['outcome'] | undefined {
    return this.lastOutcome;
  }

  private report(result: LoopResult): void {
    const { store } = this.deps;
    switch (result.outcome) {
      case 'aborted':
        addNotice(store, 'info', 'Stopped. Press Continue to pick up where it left off, or send a new message.', {
          label: 'Continue',
          command: 'continue',
        });
        break;
      case 'max_turns':
        addNotice(store, 'warning', `Reached the limit of ${this.deps.maxTurns()} model turns for one answer.`, {
          label: 'Continue',
          command: 'continue',
        });
        break;
      case 'error': {
        const err = result.error;
        if (err?.kind === 'auth') addNotice(store, 'error', err.message, { label: 'Set API Key', command: 'setApiKey' });
        else if (err?.kind === 'prompt_too_long') addNotice(store, 'error', `The conversation is too long for the model: ${err.message}`, { label: 'Compact', command: 'compact' });
        else addNotice(store, 'error', `The request failed: ${err?.message ?? 'unknown error'}`, { label: 'Retry', command: 'retry' });
        break;
      }
      case 'end_turn':
        break;
    }
  }

  private async checkPermission(call: { tool: Tool; input: unknown; id: string }, signal: AbortSignal): Promise<PermissionOutcome> {
    const verdict = this.deps.decide(call);
    if (verdict.behavior === 'allow') return { allowed: true };
    if (verdict.behavior === 'deny') return { allowed: false, reason: verdict.reason };
    if (signal.aborted) return { allowed: false, reason: 'interrupted' };
    const requestId = newId('perm');
    const decision = await new Promise<PermissionDecision>((resolve) => {
      this.pending.set(requestId, { call, resolve });
      this.deps.store.setState((s) => ({
        ...s,
        status: 'awaiting-permission',
        permission: {
          requestId,
          toolName: call.tool.name,
          summary: safeSummary(call.tool, call.input),
          detail: `${verdict.reason}\n\n${safeJson(call.input)}`,
        },
      }));
    });
    if (decision === 'deny') return { allowed: false, reason: 'The user denied this tool call.' };
    return { allowed: true };
  }
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

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return String(v);
  }
}

function safeSummary(tool: Tool, input: unknown): string {
  try {
    return tool.summarize(input);
  } catch {
    return tool.name;
  }
}

function clip(text: string): string {
  return text.length > VIEW_RESULT_CHARS ? `${text.slice(0, VIEW_RESULT_CHARS)}\n… (${text.length - VIEW_RESULT_CHARS} more characters)` : text;
}
