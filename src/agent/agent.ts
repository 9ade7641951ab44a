import { ApiError } from '../api/errors';
import { contextTokens, costUsd } from '../api/cost';
import { resolveModel } from '../api/models';
import type { MessageParam, MessagesRequest, SystemBlock } from '../api/types';
import type { MessagesClient } from '../api/messagesClient';
import { newId } from '../base/ids';
import type { TurnRunner } from '../chat/chatController';
import { computeThresholds, tokenView } from '../compact/thresholds';
import { buildMessagesRequest } from '../context/requestBuilder';
import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import { addNotice, appendMessage, updateMessage } from '../state/actions';
import type { RuntimeState } from '../state/runtimeState';
import type { Store } from '../state/store';
import type { PermissionDecision, ToolStatus, ViewMessage } from '../shared/viewState';
import { appendUserContent } from './history';
import { runQueryLoop, type LoopEvents, type LoopResult, type PermissionOutcome } from './queryLoop';
import type { Tool } from './tools/types';

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
  /** Extra observers of the loop (the CLI's stream-json output). */
  loopEvents?: LoopEvents;
  /** Called after each complete loop; sessions and memory hook in here. */
  onLoopComplete?(result: LoopResult, request: MessagesRequest | undefined): void;
}

/**
 * Runs the conversation with the model for one session: owns the API history, streams
 * answers into the store, asks for permissions through it, and keeps the history valid
 * through Stop, errors and retries.
 */
export class Agent implements TurnRunner {
  private history: MessageParam[] = [];
  private controller: AbortController | undefined;
  private readonly pending = new Map<string, { call: { tool: Tool; input: unknown }; resolve: (d: PermissionDecision) => void }>();
  private lastOutcome: LoopResult['outcome'] | undefined;

  constructor(private readonly deps: AgentDeps) {}

  get messages(): readonly MessageParam[] {
    return this.history;
  }

  /** Replaces the history (resume, compaction, new session). */
  setHistory(history: MessageParam[]): void {
    this.history = history;
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  async submit(text: string): Promise<void> {
    appendMessage(this.deps.store, { kind: 'user', id: newId('user'), text, createdAt: Date.now() });
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

  private async run(): Promise<void> {
    const { store } = this.deps;
    if (this.controller) return;
    const client = await this.deps.createClient();
    if (!client) {
      addNotice(store, 'warning', 'Set an Anthropic API key to get answers.', { label: 'Set API Key', command: 'setApiKey' });
      return;
    }
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
        store.setState((s) => ({
          ...s,
          lastUsage: turn.usage,
          tokens: tokenView(used, computeThresholds(model.contextWindow, model.maxOutputTokens)),
        }));
      },
      onToolCall: ({ id, name, input, summary }) => {
        finishStreaming();
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
          buildRequest: async (history) => {
            const s = store.getState();
            const model = resolveModel(s.settings.model, { contextWindow: s.settings.contextWindow });
            return buildMessagesRequest({
              model: s.settings.model,
              maxTokens: Math.min(model.maxOutputTokens, 32_000),
              system: await this.deps.systemBlocks(),
              tools: this.deps.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
              history,
            });
          },
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
    this.lastOutcome = result.outcome;
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
  const out: Record<string, (...args: never[]) => void> = {};
  for (const key of keys) {
    const fa = a[key] as ((...args: unknown[]) => void) | undefined;
    const fb = b[key] as ((...args: unknown[]) => void) | undefined;
    out[key] = (...args: unknown[]) => {
      fa?.(...args);
      fb?.(...args);
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
