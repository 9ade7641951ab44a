import type Anthropic from '@anthropic-ai/sdk';
import type { Middleware } from '@anthropic-ai/sdk';
import { BaseAnthropic, type ClientOptions } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages';
import { Models } from '@anthropic-ai/sdk/resources/models';
import { ApiError, classifyError } from './errors';
import type { AssistantBlock, AssistantTurn, MessagesRequest, StreamObserver } from './types';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from '../fs/jsonText';

export interface MessagesClientOptions {
  apiKey: string;
  /** Empty or undefined: the SDK's default (which also reads ANTHROPIC_BASE_URL). */
  baseUrl?: string;
  /** Retries after the first attempt, for 429, 529, 5xx, dropped and stalled connections. */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A server asking us to wait longer than this is reported, not waited on. */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  /** An attempt that receives nothing (not even a keep-alive ping) for this long is cut and retried. */
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ApiError('aborted', 'Request aborted', undefined, undefined));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ApiError('aborted', 'Request aborted', undefined, undefined));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** What the model sent, as the blocks our history keeps (server-tool blocks are not ours). */
function toAssistantBlock(b: Anthropic.ContentBlock | undefined): AssistantBlock | undefined {
  switch (b?.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'thinking':
      return { type: 'thinking', thinking: b.thinking, signature: b.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: b.data };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: asToolInput(b.input) };
    default:
      return undefined;
  }
}

/**
 * The API requires an object in history; anything else is kept for the tool to refuse clearly.
 * One nested past the JSON bound is not kept at all: writing it into the next request recursed
 * past the stack and ended the turn (pass 37 B4).
 */
function asToolInput(input: unknown): unknown {
  if (nestsDeeperThan(input)) return { __malformed_input: `(an input nested deeper than ${MAX_JSON_DEPTH} levels)` };
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { __malformed_input: JSON.stringify(input) };
}

/**
 * The one place that talks to the Messages API. The SDK's MessageStream accumulates each
 * answer; we retry ourselves (the SDK's own retries are off) so that the user sees each wait,
 * so that a stream that fails half-way is retried whole rather than leaving half an answer in
 * history, and so that a stream that stops sending is cut instead of hanging forever.
 */
/**
 * The SDK's client with the two resources Threadline calls. The default export carries every
 * resource (beta, files, skills, organisation…): 300 KB of the bundle the extension loads at start.
 */
class MessagesOnly extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
  readonly models: Models = new Models(this);
  constructor(options: ClientOptions) {
    super(options);
  }
}

export class MessagesClient {
  private readonly sdk: MessagesOnly;
  private readonly opts: Required<Omit<MessagesClientOptions, 'baseUrl' | 'apiKey'>>;

  constructor(options: MessagesClientOptions) {
    this.sdk = new MessagesOnly({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
    });
    this.opts = {
      maxRetries: options.maxRetries ?? 4,
      baseDelayMs: options.baseDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 20_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      timeoutMs: options.timeoutMs ?? 600_000,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      sleep: options.sleep ?? abortableSleep,
    };
  }

  async stream(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver = {}): Promise<AssistantTurn> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(request, signal, observer);
      } catch (raw) {
        const err = signal.aborted ? new ApiError('aborted', 'Request aborted', undefined, undefined) : classifyError(raw);
        if (!err.retryable || attempt >= this.opts.maxRetries) {
          if (err.kind === 'stalled' && attempt > 0) throw new ApiError('stalled', `${err.message} (${attempt + 1} attempts)`, undefined, undefined, { cause: err });
          throw err;
        }
        if (err.retryAfterMs !== undefined && err.retryAfterMs > this.opts.maxRetryAfterMs) throw err;
        const backoff = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** attempt);
        const delayMs = err.retryAfterMs ?? Math.round(backoff * (0.8 + 0.2 * Math.random()));
        observer.onRetry?.({ attempt: attempt + 1, delayMs, reason: err.message });
        await this.opts.sleep(delayMs, signal);
      }
    }
  }

  async countTokens(request: Pick<MessagesRequest, 'model' | 'system' | 'tools' | 'messages' | 'thinking'>, signal?: AbortSignal): Promise<number> {
    try {
      const r = await this.sdk.messages.countTokens(
        { model: request.model, system: request.system, tools: request.tools, messages: request.messages, ...(request.thinking ? { thinking: request.thinking } : {}) },
        signal ? { signal } : undefined,
      );
      return r.input_tokens;
    } catch (raw) {
      throw classifyError(raw);
    }
  }

  /** Every model the API lists (retired ones too, so they can be named when refused), all pages. */
  async listModels(signal?: AbortSignal, pageSize = 100): Promise<Anthropic.ModelInfo[]> {
    const out: Anthropic.ModelInfo[] = [];
    try {
      for await (const m of this.sdk.models.list({ limit: pageSize, lifecycle: ['active', 'deprecated', 'retired'] }, signal ? { signal } : undefined)) out.push(m);
    } catch (raw) {
      throw classifyError(raw);
    }
    return out;
  }

  private async attempt(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver): Promise<AssistantTurn> {
    // One controller per attempt: Stop aborts it through `signal`, the idle timer on its own.
    if (signal.aborted) throw new ApiError('aborted', 'Request aborted', undefined, undefined);
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    let stalled = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let lastSeen = 0;
    const idle = this.opts.idleTimeoutMs;
    // One timer, re-armed for the remainder when it fires early: chunks only stamp the time.
    const check = () => {
      const quiet = performance.now() - lastSeen;
      if (settled) return;
      if (quiet < idle) {
        timer = setTimeout(check, idle - quiet);
        return;
      }
      stalled = true;
      controller.abort();
    };
    const alive = () => {
      lastSeen = performance.now();
      if (!timer && !settled) timer = setTimeout(check, idle);
    };
    // The clock starts with the response headers (before them the SDK's request timeout
    // applies: a long prompt can take a while to be accepted). From then on any bytes count
    // as life, keep-alive pings included, which the SDK drops before its own events.
    const watch: Middleware = async (req, next) => {
      const response = await next(req);
      alive();
      if (!response.body) return response;
      const tap = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          alive();
          out.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(tap), response);
    };
    try {
      const stream = this.sdk.messages.stream(
        {
          model: request.model,
          max_tokens: request.maxTokens,
          system: request.system,
          ...(request.tools.length ? { tools: request.tools } : {}),
          messages: request.messages,
          ...(request.thinking ? { thinking: request.thinking } : {}),
        },
        { signal: controller.signal, middleware: [watch], ...(request.betas?.length ? { headers: { 'anthropic-beta': request.betas.join(',') } } : {}) },
      );
      stream.on('streamEvent', (event, snapshot) => {
        switch (event.type) {
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') observer.onToolUseStart?.(event.index, { id: event.content_block.id, name: event.content_block.name });
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') observer.onTextDelta?.(event.index, event.delta.text);
            else if (event.delta.type === 'thinking_delta') observer.onThinkingDelta?.(event.index, event.delta.thinking);
            break;
          case 'content_block_stop': {
            const block = toAssistantBlock(snapshot.content[event.index]);
            if (block) observer.onBlockComplete?.(event.index, block);
            break;
          }
        }
      });
      const message = await stream.finalMessage();
      const u = message.usage;
      return {
        blocks: message.content.map(toAssistantBlock).filter((b): b is AssistantBlock => b !== undefined),
        stopReason: message.stop_reason,
        usage: {
          inputTokens: u.input_tokens ?? 0,
          outputTokens: u.output_tokens ?? 0,
          cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
          cacheReadInputTokens: u.cache_read_input_tokens ?? 0,
        },
        model: message.model || request.model,
      };
    } catch (err) {
      if (stalled && !signal.aborted) throw new ApiError('stalled', `The API stopped sending for ${seconds(this.opts.idleTimeoutMs)}`, undefined, undefined, { cause: err });
      throw err;
    } finally {
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  }
}

/**
 * The model can produce input that is not JSON. The API requires an object in history, so
 * keep the raw text in a field the tool's validation will reject with a clear message.
 */
export function parseToolInput(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    const v: unknown = parseJson(raw);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { __malformed_input: raw };
  } catch {
    return { __malformed_input: raw };
  }
}
