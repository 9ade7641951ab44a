// A local stand-in for the Anthropic Messages API: a real HTTP server that the real SDK
// (and the extension, via its base URL setting) talks to, answering from a script of turns.
// It refuses invalid histories like the API does and reports honest token/cache usage, so
// tests catch the bugs that otherwise only the production API would reveal.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PromptCache, type CacheUsage } from './cache';
import { blockTokens, countRequestTokens, promptSegments } from './tokens';
import { validateRequest } from './validate';

export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: unknown; id?: string }
  | { type: 'thinking'; thinking: string };

export type Fault =
  | { kind: 'http'; status: 429 | 529 | 500 | 401 | 400; retryAfterSeconds?: number; message?: string }
  | { kind: 'stream-error'; afterEvents: number; errorType?: string }
  | { kind: 'drop'; afterEvents: number };

export interface ScriptedTurn {
  content: ScriptedBlock[];
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens';
  fault?: Fault;
  chunkDelayMs?: number;
  /** split text deltas into chunks of this many chars (default 8) */
  chunkChars?: number;
  /**
   * Only for a request whose last user message contains this text; other requests skip past
   * it. Lets a script answer background requests (summaries, memory) apart from the main ones.
   */
  when?: string;
  /** Stays queued after use: answers every matching request. */
  repeat?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it did not parse. */
  body: unknown;
  /** HTTP status the stand-in answered with (a stream that fails later still says 200). */
  status: number;
  /** The validation outcome: the 400 message, or null when the request was valid. */
  validationError: string | null;
  /** The key the client sent, from x-api-key or `authorization: Bearer` (SDK 1.x sends the latter). */
  apiKey: string | null;
  /** The scripted fault applied to this request, if any. */
  fault?: Fault;
  /** The usage the stand-in reported for this request (input side), for cost comparisons. */
  usage?: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
  at: number;
}

export interface Standin {
  url: string;
  port: number;
  close(): Promise<void>;
  enqueue(...turns: ScriptedTurn[]): void;
  /** every request received on /v1/messages with parsed body, headers and the validation outcome */
  requests: RecordedRequest[];
  /** requests received on /v1/messages/count_tokens, kept apart so turn counts stay simple */
  countTokensRequests: RecordedRequest[];
  /** Scripted turns not yet used. */
  pending(): number;
  /** Clears the queue, the recorded requests and the prompt cache. */
  reset(): void;
}

export interface StandinOptions {
  port?: number;
  /** if set, the key (x-api-key or `authorization: Bearer`) must equal it else 401 authentication_error */
  apiKey?: string;
  now?: () => number;
  /** Called with one line per request (the CLI logs these to stderr). */
  log?: (line: string) => void;
  /** false: keep status and usage of each request but not its body (long benchmark runs). */
  recordBodies?: boolean;
  /**
   * The model's context window, enforced as the API enforces it: input alone over it is "prompt is
   * too long", and input plus `max_tokens` over it is refused too. Unset: no limit is checked.
   */
  contextLimit?: number;
}

type Json = Record<string, unknown>;

interface SseEvent {
  event: string;
  data: Json;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Invalid request',
  401: 'invalid x-api-key',
  429: 'Number of request tokens has exceeded your per-minute rate limit',
  500: 'Internal server error',
  529: 'Overloaded',
};

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(prefix: string): string {
  const bytes = randomBytes(24);
  let s = prefix;
  for (const b of bytes) s += ID_ALPHABET[b % ID_ALPHABET.length];
  return s;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function chunk(text: string, size: number): string[] {
  const n = Math.max(1, Math.floor(size));
  const out: string[] = [];
  // Split by code points so a surrogate pair never lands in two deltas.
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(''));
  return out.length > 0 ? out : [''];
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Json;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const texts = (m.content as Json[]).filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
      if (texts.length > 0) return texts.join('\n');
    }
  }
  return '';
}

/** The content blocks of the final Message, with ids and signatures filled in. */
function materialise(content: ScriptedBlock[]): Json[] {
  return content.map((b) => {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: b.text, citations: null };
      case 'tool_use':
        return { type: 'tool_use', id: b.id ?? randomId('toolu_'), name: b.name, input: b.input ?? {} };
      case 'thinking':
        // Real signatures are opaque base64; clients must only round-trip them.
        return { type: 'thinking', thinking: b.thinking, signature: randomBytes(48).toString('base64') };
    }
  });
}

function sseEvents(message: Json, blocks: Json[], usage: CacheUsage, outputTokens: number, chunkChars: number): SseEvent[] {
  const events: SseEvent[] = [];
  events.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1, service_tier: 'standard' } },
    },
  });
  events.push({ event: 'ping', data: { type: 'ping' } });
  blocks.forEach((b, index) => {
    const delta = (d: Json) => events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
    if (b.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } } });
      for (const piece of chunk(b.text as string, chunkChars)) delta({ type: 'text_delta', text: piece });
    } else if (b.type === 'tool_use') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } },
      });
      const json = JSON.stringify(b.input);
      // At least three pieces so clients are exercised on genuinely partial JSON.
      const size = Math.min(chunkChars, Math.max(1, Math.ceil(json.length / 3)));
      for (const piece of chunk(json, size)) delta({ type: 'input_json_delta', partial_json: piece });
    } else {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      });
      for (const piece of chunk(b.thinking as string, chunkChars)) delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: b.signature });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: outputTokens,
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

function apiKeyOf(headers: IncomingHttpHeaders): string | null {
  const x = headers['x-api-key'];
  if (typeof x === 'string' && x.length > 0) return x;
  const m = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
  return m?.[1] ?? null;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startStandin(opts: StandinOptions = {}): Promise<Standin> {
  const now = opts.now ?? Date.now;
  const cache = new PromptCache(now);
  const queue: ScriptedTurn[] = [];
  const requests: RecordedRequest[] = [];
  const countTokensRequests: RecordedRequest[] = [];
  const log = opts.log ?? (() => {});

  const sendJson = (res: ServerResponse, status: number, body: unknown, requestId: string, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, 'content-length': Buffer.byteLength(text), ...extra });
    res.end(text);
  };
  const sendError = (res: ServerResponse, status: number, message: string, requestId: string, extra: Record<string, string> = {}, type?: string) => {
    sendJson(res, status, { type: 'error', error: { type: type ?? ERROR_TYPES[status] ?? 'api_error', message }, request_id: requestId }, requestId, extra);
  };

  const lastUserMessage = (messages: unknown): unknown => (Array.isArray(messages) ? [...messages].reverse().find((m) => (m as { role?: string }).role === 'user') : undefined);

  const handleMessages = async (req: IncomingMessage, res: ServerResponse, body: Json, rec: RecordedRequest, requestId: string) => {
    const validation = validateRequest(body);
    rec.validationError = validation;
    if (validation) {
      rec.status = 400;
      sendError(res, 400, validation, requestId);
      return;
    }
    if (opts.contextLimit !== undefined) {
      const input = countRequestTokens(body);
      const limit = opts.contextLimit;
      const tooLong =
        input > limit
          ? `prompt is too long: ${input} tokens > ${limit} maximum`
          : input + (body.max_tokens as number) > limit
            ? `input length and \`max_tokens\` exceed context limit: ${input} + ${String(body.max_tokens)} > ${limit}, decrease input length or \`max_tokens\` and try again`
            : null;
      if (tooLong) {
        rec.status = 400;
        rec.validationError = tooLong;
        sendError(res, 400, tooLong, requestId);
        return;
      }
    }
    const model = body.model as string;
    const lastUser = JSON.stringify(lastUserMessage(body.messages));
    const at = queue.findIndex((t) => t.when === undefined || lastUser.includes(t.when));
    const picked = at >= 0 ? queue[at]! : undefined;
    if (picked && !picked.repeat) queue.splice(at, 1);
    const turn: ScriptedTurn = picked ?? { content: [{ type: 'text', text: `Stand-in reply to: ${lastUserText(body.messages)}` }] };
    const fault = turn.fault;
    if (fault) rec.fault = fault;
    if (fault?.kind === 'http') {
      rec.status = fault.status;
      const extra: Record<string, string> = {};
      if ((fault.status === 429 || fault.status === 529) && fault.retryAfterSeconds !== undefined) extra['retry-after'] = String(fault.retryAfterSeconds);
      sendError(res, fault.status, fault.message ?? DEFAULT_MESSAGES[fault.status] ?? 'error', requestId, extra);
      return;
    }

    const blocks = materialise(turn.content);
    const stopReason = turn.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    // A failed or dropped request never reaches the cache, like a request the API rejects.
    const usage = cache.apply(model, promptSegments(body));
    rec.usage = { input_tokens: usage.input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens };
    const outputTokens = Math.max(1, blocks.reduce((n, b) => n + blockTokens(b), 0));
    const message: Json = {
      id: randomId('msg_'),
      type: 'message',
      role: 'assistant',
      model,
      content: blocks,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { ...usage, output_tokens: outputTokens, service_tier: 'standard' },
    };

    if (body.stream !== true) {
      if (fault?.kind === 'drop') {
        rec.status = 0;
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'stream-error') {
        rec.status = 529;
        sendError(res, 529, 'Overloaded', requestId, {}, fault.errorType ?? 'overloaded_error');
        return;
      }
      rec.status = 200;
      sendJson(res, 200, message, requestId);
      return;
    }

    const events = sseEvents(message, blocks, usage, outputTokens, turn.chunkChars ?? 8);
    rec.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': requestId });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const delay = turn.chunkDelayMs ?? 0;
    for (const [i, ev] of events.entries()) {
      if (closed) return;
      if (fault && i >= fault.afterEvents) {
        if (fault.kind === 'drop') {
          res.socket?.destroy();
          return;
        }
        const error = { type: 'error', error: { type: fault.errorType ?? 'overloaded_error', message: 'Overloaded' }, request_id: requestId };
        res.end(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
        return;
      }
      if (i > 0 && delay > 0) await sleep(delay);
      if (closed) return;
      res.write(`event: ${ev.event}\ndata: ${JSON.stringify(ev.data)}\n\n`);
    }
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomId('req_');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    let body: unknown = raw;
    let parsed = raw.length === 0;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
        parsed = true;
      } catch {
        parsed = false;
      }
    }

    // Control endpoints for tests that drive the stand-in from another process.
    if (path.startsWith('/_standin/')) {
      if (method === 'POST' && path === '/_standin/enqueue') {
        if (!parsed || !Array.isArray(body) || !body.every((t) => typeof t === 'object' && t !== null && Array.isArray((t as Json).content))) {
          sendError(res, 400, 'enqueue takes a JSON array of turns with a content array', requestId);
          return;
        }
        queue.push(...(body as ScriptedTurn[]));
        sendJson(res, 200, { queued: queue.length }, requestId);
      } else if (method === 'GET' && path === '/_standin/requests') {
        sendJson(res, 200, requests, requestId);
      } else if (method === 'POST' && path === '/_standin/reset') {
        reset();
        sendJson(res, 200, { ok: true }, requestId);
      } else {
        sendError(res, 404, `no control endpoint ${method} ${path}`, requestId);
      }
      log(`${method} ${path} ${res.statusCode}`);
      return;
    }

    const isMessages = path === '/v1/messages';
    const isCount = path === '/v1/messages/count_tokens';
    if (!isMessages && !isCount) {
      sendError(res, 404, `Not found: ${method} ${path}`, requestId);
      log(`${method} ${path} 404`);
      return;
    }
    const rec: RecordedRequest = { method, path, headers: req.headers, body, status: 0, validationError: null, apiKey: apiKeyOf(req.headers), at: now() };
    (isMessages ? requests : countTokensRequests).push(rec);
    const finish = () => {
      const b = body as Json | undefined;
      const summary = isMessages && typeof b === 'object' && b ? ` model=${String(b.model)} messages=${Array.isArray(b.messages) ? b.messages.length : '?'} stream=${b.stream === true}` : '';
      if (opts.recordBodies === false) rec.body = undefined;
      log(`${method} ${path} ${rec.status}${summary}${rec.validationError ? ` invalid: ${rec.validationError}` : ''}${rec.fault ? ` fault=${rec.fault.kind}` : ''}`);
    };

    if (method !== 'POST') {
      rec.status = 405;
      sendError(res, 405, `Method ${method} not allowed`, requestId, {}, 'invalid_request_error');
      finish();
      return;
    }
    if (opts.apiKey !== undefined && rec.apiKey !== opts.apiKey) {
      rec.status = 401;
      sendError(res, 401, 'invalid x-api-key', requestId);
      finish();
      return;
    }
    if (!parsed || typeof body !== 'object' || body === null || Array.isArray(body)) {
      rec.status = 400;
      rec.validationError = 'There was an issue with your request: the body is not a JSON object';
      sendError(res, 400, rec.validationError, requestId);
      finish();
      return;
    }
    if (isCount) {
      const v = validateRequest(body, { requireMaxTokens: false });
      rec.validationError = v;
      rec.status = v ? 400 : 200;
      if (v) sendError(res, 400, v, requestId);
      else sendJson(res, 200, { input_tokens: countRequestTokens(body as Json) }, requestId);
      finish();
      return;
    }
    await handleMessages(req, res, body as Json, rec, requestId);
    finish();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      log(`stand-in error: ${message}`);
      if (!res.headersSent) sendError(res, 500, `stand-in failure: ${message}`, randomId('req_'));
      else res.destroy();
    });
  });

  const reset = () => {
    queue.length = 0;
    requests.length = 0;
    countTokensRequests.length = 0;
    cache.clear();
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    countTokensRequests,
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    pending: () => queue.length,
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Streams held open by a slow or stalled client would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}
