import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/error';

export type ApiErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'network'
  /** The stream sent nothing for longer than the idle timeout. */
  | 'stalled'
  | 'prompt_too_long'
  | 'invalid_request'
  | 'aborted'
  | 'unknown';

/** An API failure, classified once so that retry logic and the UI speak of the same thing. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | undefined,
    readonly retryAfterMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'overloaded' || this.kind === 'server' || this.kind === 'network' || this.kind === 'stalled';
  }
}

/** Parses `retry-after` (seconds or an HTTP date) and Anthropic's `retry-after-ms`. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * What the API said, in words: the SDK's own message for an error body is the status and the
 * body's JSON (`529 {"type":"error",…}`), which is what a user would otherwise read.
 */
function readableMessage(err: APIError): string {
  const body = err.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const said = body?.error?.message ?? body?.message;
  if (typeof said !== 'string' || said.trim() === '') return err.message;
  return err.status !== undefined ? `${said} (HTTP ${err.status})` : said;
}

function errorTypeOf(err: APIError): string | undefined {
  const body = err.error as { error?: { type?: unknown }; type?: unknown } | undefined;
  const t = body?.error?.type ?? body?.type;
  return typeof t === 'string' ? t : undefined;
}

export function classifyError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return new ApiError('aborted', 'Request aborted', undefined, undefined, { cause: err });
  }
  if (err instanceof APIConnectionError) {
    return new ApiError('network', `Could not reach the API: ${err.message}`, undefined, undefined, { cause: err });
  }
  if (err instanceof APIError) {
    const status = err.status;
    const type = errorTypeOf(err);
    const retryAfter = parseRetryAfter(err.headers);
    const message = readableMessage(err);
    if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
      return new ApiError('auth', `The API key was refused (${status ?? type}). Set a valid key.`, status, undefined, { cause: err });
    }
    if (status === 429 || type === 'rate_limit_error') return new ApiError('rate_limit', message, status, retryAfter, { cause: err });
    if (status === 529 || type === 'overloaded_error') return new ApiError('overloaded', message, status, retryAfter, { cause: err });
    if (status === 400 && /prompt is too long/i.test(message)) {
      return new ApiError('prompt_too_long', message, status, undefined, { cause: err });
    }
    if (status !== undefined && status >= 500) return new ApiError('server', message, status, retryAfter, { cause: err });
    if (status === undefined && (type === 'api_error' || type === undefined)) {
      // An `error` event in the middle of a stream has no HTTP status.
      return new ApiError('server', message, status, retryAfter, { cause: err });
    }
    if (status === 400 || type === 'invalid_request_error') return new ApiError('invalid_request', message, status, undefined, { cause: err });
    return new ApiError('unknown', message, status, retryAfter, { cause: err });
  }
  if (err instanceof AnthropicError && err.cause instanceof SyntaxError) {
    // The SDK could not parse what the stream sent (a tool input that is not JSON, say);
    // the model is sampled again on a retry.
    return new ApiError('server', `The API sent a response that is not valid JSON: ${err.message}`, undefined, undefined, { cause: err });
  }
  if (err instanceof Error && /stream ended without producing|request ended without sending any chunks/i.test(err.message)) {
    return new ApiError('network', 'The response stream ended early', undefined, undefined, { cause: err });
  }
  if (err instanceof Error && /terminated|socket|ECONNRESET|ECONNREFUSED|network|fetch failed/i.test(err.message)) {
    return new ApiError('network', `Connection failed: ${err.message}`, undefined, undefined, { cause: err });
  }
  return new ApiError('unknown', err instanceof Error ? err.message : String(err), undefined, undefined, { cause: err });
}

/**
 * The figures of the API's "input length and `max_tokens` exceed context limit: 171573 +
 * 32000 > 200000" refusal (a 400 classified `invalid_request`): the request fits with a
 * smaller max_tokens.
 */
export function contextOverflow(err: ApiError): { inputTokens: number; maxTokens: number; contextLimit: number } | undefined {
  if (err.kind !== 'invalid_request') return undefined;
  const m = /input length and `?max_tokens`? exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/i.exec(err.message);
  if (!m) return undefined;
  return { inputTokens: Number(m[1]), maxTokens: Number(m[2]), contextLimit: Number(m[3]) };
}
