import Anthropic from '@anthropic-ai/sdk';
import { ApiError, classifyError } from './errors';
import type { AssistantBlock, AssistantTurn, MessagesRequest, StreamObserver, Usage } from './types';

export interface MessagesClientOptions {
  apiKey: string;
  /** Empty or undefined: the SDK's default (which also reads ANTHROPIC_BASE_URL). */
  baseUrl?: string;
  /** Retries after the first attempt, for 429, 529, 5xx and dropped connections. */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A server asking us to wait longer than this is reported, not waited on. */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
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

/**
 * The one place that talks to the Messages API. We retry ourselves (the SDK's own retries
 * are off) so that the user sees each wait, and so that a stream that fails half-way is
 * retried whole rather than leaving half an answer in history.
 */
export class MessagesClient {
  private readonly sdk: Anthropic;
  private readonly opts: Required<Omit<MessagesClientOptions, 'baseUrl' | 'apiKey'>>;

  constructor(options: MessagesClientOptions) {
    this.sdk = new Anthropic({
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
      sleep: options.sleep ?? abortableSleep,
    };
  }

  async stream(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver = {}): Promise<AssistantTurn> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(request, signal, observer);
      } catch (raw) {
        const err = signal.aborted ? new ApiError('aborted', 'Request aborted', undefined, undefined) : classifyError(raw);
        if (!err.retryable || attempt >= this.opts.maxRetries) throw err;
        if (err.retryAfterMs !== undefined && err.retryAfterMs > this.opts.maxRetryAfterMs) throw err;
        const backoff = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** attempt);
        const delayMs = err.retryAfterMs ?? Math.round(backoff * (0.8 + 0.2 * Math.random()));
        observer.onRetry?.({ attempt: attempt + 1, delayMs, reason: err.message });
        await this.opts.sleep(delayMs, signal);
      }
    }
  }

  async countTokens(request: Pick<MessagesRequest, 'model' | 'system' | 'tools' | 'messages'>, signal?: AbortSignal): Promise<number> {
    try {
      const r = await this.sdk.messages.countTokens(
        { model: request.model, system: request.system, tools: request.tools, messages: request.messages },
        signal ? { signal } : undefined,
      );
      return r.input_tokens;
    } catch (raw) {
      throw classifyError(raw);
    }
  }

  private async attempt(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver): Promise<AssistantTurn> {
    const stream = await this.sdk.messages.create(
      {
        model: request.model,
        max_tokens: request.maxTokens,
        system: request.system,
        ...(request.tools.length ? { tools: request.tools } : {}),
        messages: request.messages,
        stream: true,
      },
      { signal },
    );
    const blocks: AssistantBlock[] = [];
    const json = new Map<number, string>();
    const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
    let stopReason: string | null = null;
    let model = request.model;

    for await (const ev of stream) {
      switch (ev.type) {
        case 'message_start': {
          model = ev.message.model || model;
          const u = ev.message.usage;
          usage.inputTokens = u.input_tokens ?? 0;
          usage.outputTokens = u.output_tokens ?? 0;
          usage.cacheCreationInputTokens = u.cache_creation_input_tokens ?? 0;
          usage.cacheReadInputTokens = u.cache_read_input_tokens ?? 0;
          break;
        }
        case 'content_block_start': {
          const b = ev.content_block;
          if (b.type === 'text') blocks[ev.index] = { type: 'text', text: b.text ?? '' };
          else if (b.type === 'thinking') blocks[ev.index] = { type: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' };
          else if (b.type === 'redacted_thinking') blocks[ev.index] = { type: 'redacted_thinking', data: b.data };
          else if (b.type === 'tool_use') {
            blocks[ev.index] = { type: 'tool_use', id: b.id, name: b.name, input: {} };
            json.set(ev.index, '');
            observer.onToolUseStart?.(ev.index, { id: b.id, name: b.name });
          }
          break;
        }
        case 'content_block_delta': {
          const block = blocks[ev.index];
          const d = ev.delta;
          if (d.type === 'text_delta' && block?.type === 'text') {
            block.text += d.text;
            observer.onTextDelta?.(ev.index, d.text);
          } else if (d.type === 'thinking_delta' && block?.type === 'thinking') {
            block.thinking += d.thinking;
            observer.onThinkingDelta?.(ev.index, d.thinking);
          } else if (d.type === 'signature_delta' && block?.type === 'thinking') {
            block.signature += d.signature;
          } else if (d.type === 'input_json_delta' && json.has(ev.index)) {
            json.set(ev.index, json.get(ev.index)! + d.partial_json);
          }
          break;
        }
        case 'content_block_stop': {
          const block = blocks[ev.index];
          if (block?.type === 'tool_use') block.input = parseToolInput(json.get(ev.index) ?? '');
          if (block) observer.onBlockComplete?.(ev.index, block);
          break;
        }
        case 'message_delta': {
          stopReason = ev.delta.stop_reason ?? stopReason;
          const u = ev.usage;
          usage.outputTokens = u.output_tokens ?? usage.outputTokens;
          if (u.input_tokens != null) usage.inputTokens = u.input_tokens;
          if (u.cache_creation_input_tokens != null) usage.cacheCreationInputTokens = u.cache_creation_input_tokens;
          if (u.cache_read_input_tokens != null) usage.cacheReadInputTokens = u.cache_read_input_tokens;
          break;
        }
        case 'message_stop':
          break;
      }
    }
    if (stopReason === null) {
      // The stream ended without message_delta: the connection dropped mid-answer.
      throw new ApiError('network', 'The response stream ended early', undefined, undefined);
    }
    return { blocks: blocks.filter((b): b is AssistantBlock => b !== undefined), stopReason, usage, model };
  }
}

/**
 * The model can produce input that is not JSON. The API requires an object in history, so
 * keep the raw text in a field the tool's validation will reject with a clear message.
 */
export function parseToolInput(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { __malformed_input: raw };
  } catch {
    return { __malformed_input: raw };
  }
}
