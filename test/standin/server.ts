// A local stand-in for the Anthropic Messages API: a real HTTP server that the real SDK
// (and the extension, via its base URL setting) talks to, answering from a script of turns.
// It refuses invalid histories like the API does and reports honest token/cache usage, so
// tests catch the bugs that otherwise only the production API would reveal.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PromptCache } from './cache';
import { defaultModels, findModel, listModels, retrieveModel, thinkingSupport, type ApiModel, type ModelsAnswer } from './models';
import { materialise, randomId, sseEvents, type Fault, type ScriptedBlock, type ScriptedTurn } from './answer';
import { DEFAULT_SIGNING_SECRET, requestThinking, type RequestThinking } from './thinking';
import { blockTokens, countRequestTokens, promptSegments } from './tokens';
import { validateRequest } from './validate';

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
  /** The client closed the stream before it was complete (a Stop, a timeout): it was aborted. */
  closedEarly?: boolean;
  /** The usage the stand-in reported for this request, for cost comparisons. */
  usage?: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number };
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
  /**
   * Throws UnmatchedScriptError when a scripted turn is still waiting for a request that never
   * came (a `repeat` turn counts once a request matched it), and forgets those turns. A script
   * that outlives its test either expected a request the code no longer makes, or was wrong.
   */
  assertScriptUsed(): void;
  /**
   * Forgets the scripted turns not used yet, on purpose, and returns how many there were: for a
   * script cut short by design (a process killed half-way through it), where the leftovers are
   * expected and not a wrong script.
   */
  discardScript(): number;
  /** Requests received on /v1/models and /v1/models/{id}. */
  modelsRequests: RecordedRequest[];
  /** The Models API catalog from now on; null: /v1/models answers 404 (a server without it). */
  setModels(models: ApiModel[] | null): void;
  /**
   * Clears the queue, the recorded requests and the prompt cache, and restores the catalog;
   * then throws UnmatchedScriptError if a scripted turn went unmatched (as `assertScriptUsed`).
   * `close()` rejects with it too, once the server is closed.
   */
  reset(): void;
}

/** Scripted turns no request matched, found at reset or close. */
export class UnmatchedScriptError extends Error {}

/** A scripted turn in a few words, for the message that names it. */
export function describeTurn(t: ScriptedTurn): string {
  const first = t.content[0];
  const what = t.contentFrom ? 'a computed reply' : !first ? 'an empty reply' : first.type === 'text' ? JSON.stringify(first.text.length > 60 ? `${first.text.slice(0, 60)}…` : first.text) : first.type === 'tool_use' ? `a ${first.name} call` : `a ${first.type} block`;
  return [what, t.when !== undefined ? `when ${JSON.stringify(t.when)}` : '', t.fault ? `fault ${t.fault.kind}` : '', t.repeat ? 'repeat' : ''].filter(Boolean).join(', ');
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
  /** The Models API catalog (default: the SDK's models, see models.ts); null: no Models API. */
  models?: ApiModel[] | null;
  /** Key for thinking signatures; the default is the same in every process. */
  signingSecret?: string;
  /**
   * The model's context window: a prompt over it is refused with the API's 400 "prompt is too
   * long: N tokens > W maximum". Unset: no limit.
   */
  contextWindow?: number;
  /**
   * Answers a valid request in place of the queue (undefined: the queue answers), so a
   * benchmark can play a script that depends on what each request holds.
   */
  respond?(body: Record<string, unknown>, rec: RecordedRequest): ScriptedTurn | undefined;
  /** Called once a /v1/messages request is answered, with its body still attached. */
  onRequest?(rec: RecordedRequest): void;
}

export type { Fault, ScriptedBlock, ScriptedTurn };

type Json = Record<string, unknown>;

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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

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
  /** Repeat turns some request matched (they stay queued). */
  const matched = new WeakSet<ScriptedTurn>();
  const requests: RecordedRequest[] = [];
  const countTokensRequests: RecordedRequest[] = [];
  const modelsRequests: RecordedRequest[] = [];
  const log = opts.log ?? (() => {});
  const secret = opts.signingSecret ?? DEFAULT_SIGNING_SECRET;
  const initialModels = opts.models === undefined ? defaultModels() : opts.models;
  let models: ApiModel[] | null = initialModels;
  // The thinking blocks each tool call was sent with: the API insists they come back with it.
  const issuedThinking = new Map<string, string[]>();
  const thinkingContext = {
    secret,
    support: (model: string) => (models ? thinkingSupport(models, model) : undefined),
    issuedWith: (id: string) => issuedThinking.get(id),
  };

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
    const validation = validateRequest(body, { thinking: thinkingContext });
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
    // Requests naming a retired model fail, as the Models API documents.
    if (models && findModel(models, model)?.lifecycle === 'retired') {
      rec.status = 404;
      sendError(res, 404, `model: ${model} has been retired`, requestId);
      return;
    }
    if (opts.contextWindow !== undefined) {
      const tokens = countRequestTokens(body);
      if (tokens > opts.contextWindow) {
        rec.status = 400;
        rec.validationError = `prompt is too long: ${tokens} tokens > ${opts.contextWindow} maximum`;
        sendError(res, 400, rec.validationError, requestId);
        return;
      }
    }
    const answer = opts.respond?.(body, rec);
    const lastUser = answer ? '' : JSON.stringify(lastUserMessage(body.messages));
    const at = answer ? -1 : queue.findIndex((t) => t.when === undefined || lastUser.includes(t.when));
    const picked = answer ?? (at >= 0 ? queue[at]! : undefined);
    if (picked && !answer) {
      if (picked.repeat) matched.add(picked);
      else queue.splice(at, 1);
    }
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

    const thinking = requestThinking(body) as RequestThinking;
    const { blocks, rawJson } = materialise(turn.contentFrom ? turn.contentFrom(body) : turn.content, thinking, models ? (thinkingSupport(models, model)?.disabled ?? true) : true, secret);
    const turnThinking = blocks.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking').map((b) => String(b.type === 'thinking' ? b.signature : b.data));
    if (turnThinking.length) for (const b of blocks) if (b.type === 'tool_use') issuedThinking.set(String(b.id), turnThinking);
    const stopReason = turn.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    // A failed or dropped request never reaches the cache, like a request the API rejects.
    const usage = cache.apply(model, promptSegments(body));
    const outputTokens = Math.max(1, blocks.reduce((n, b) => n + blockTokens(b), 0));
    rec.usage = { input_tokens: usage.input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, output_tokens: outputTokens };
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
      if (fault?.kind === 'stall') {
        rec.status = 0;
        // Never answers; the socket is freed when the client gives up or the server closes.
        return;
      }
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

    const events = sseEvents(message, blocks, usage, outputTokens, turn.chunkChars ?? 8, rawJson);
    rec.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': requestId });
    res.flushHeaders();
    let closed = false;
    res.on('close', () => {
      closed = true;
      if (!res.writableFinished) rec.closedEarly = true;
    });
    const delay = turn.chunkDelayMs ?? 0;
    for (const [i, ev] of events.entries()) {
      if (closed) return;
      if (fault && i >= fault.afterEvents) {
        if (fault.kind === 'drop') {
          res.socket?.destroy();
          return;
        }
        if (fault.kind === 'stall') return;
        const error = { type: 'error', error: { type: fault.errorType ?? 'overloaded_error', message: 'Overloaded' }, request_id: requestId };
        res.end(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
        return;
      }
      if (i > 0 && delay > 0) {
        const every = turn.keepAliveMs ?? 0;
        if (every > 0) {
          for (let waited = 0; waited < delay && !closed; waited += every) {
            await sleep(Math.min(every, delay - waited));
            if (!closed && waited + every < delay) res.write('event: ping\ndata: {"type": "ping"}\n\n');
          }
        } else await sleep(delay);
      }
      if (closed) return;
      res.write(`event: ${ev.event}\ndata: ${JSON.stringify(ev.data)}\n\n`);
    }
    res.end();
  };

  const handleModels = (req: IncomingMessage, res: ServerResponse, method: string, id: string | undefined, requestId: string) => {
    const rec: RecordedRequest = { method, path: req.url ?? '/', headers: req.headers, body: undefined, status: 0, validationError: null, apiKey: apiKeyOf(req.headers), at: now() };
    modelsRequests.push(rec);
    const answer = (a: ModelsAnswer) => {
      rec.status = a.status;
      if (a.status === 200) sendJson(res, 200, a.body, requestId);
      else sendError(res, a.status, a.message, requestId, {}, a.type);
    };
    if (method !== 'GET') answer({ status: 400, message: `Method ${method} not allowed`, type: 'invalid_request_error' });
    else if (opts.apiKey !== undefined && rec.apiKey !== opts.apiKey) {
      rec.status = 401;
      sendError(res, 401, 'invalid x-api-key', requestId);
    } else if (!models) answer({ status: 404, message: `Not found: ${method} ${rec.path}`, type: 'not_found_error' });
    else if (id === undefined) answer(listModels(models, new URL(rec.path, 'http://standin').searchParams));
    else answer(retrieveModel(models, id));
    log(`${method} ${rec.path} ${rec.status}`);
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
      } else if (method === 'POST' && path === '/_standin/models') {
        if (!parsed || !(body === null || (Array.isArray(body) && body.every((m) => typeof m === 'object' && m !== null && typeof (m as Json).id === 'string')))) {
          sendError(res, 400, 'models takes null or a JSON array of ModelInfo objects', requestId);
          return;
        }
        models = body as ApiModel[] | null;
        sendJson(res, 200, { models: models?.length ?? null }, requestId);
      } else if (method === 'POST' && path === '/_standin/reset') {
        const unmatched = takeUnmatched();
        reset();
        // Reset still happened; the caller's script was wrong, and its test should say so.
        if (unmatched) sendError(res, 409, unmatched, requestId);
        else sendJson(res, 200, { ok: true }, requestId);
      } else {
        sendError(res, 404, `no control endpoint ${method} ${path}`, requestId);
      }
      log(`${method} ${path} ${res.statusCode}`);
      return;
    }

    const modelsPath = /^\/v1\/models(?:\/([^/]+))?$/.exec(path);
    if (modelsPath) {
      handleModels(req, res, method, modelsPath[1] === undefined ? undefined : decodeURIComponent(modelsPath[1]), requestId);
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
      if (isMessages) opts.onRequest?.(rec);
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
      const v = validateRequest(body, { requireMaxTokens: false, thinking: thinkingContext });
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
  // Node closes an idle keep-alive connection after 5 s; a test whose event loop was blocked
  // that long (a spawnSync of the CLI) then reuses the dead socket and reads "other side
  // closed". Real endpoints keep idle connections far longer.
  server.keepAliveTimeout = 120_000;

  /** The unmatched turns in words (undefined when none), forgetting them. */
  const takeUnmatched = (): string | undefined => {
    const left = queue.filter((t) => !matched.has(t));
    queue.length = 0;
    if (left.length === 0) return undefined;
    return `${left.length} scripted turn${left.length === 1 ? '' : 's'} no request matched: ${left.map(describeTurn).join('; ')}`;
  };
  const assertScriptUsed = () => {
    const unmatched = takeUnmatched();
    if (unmatched) throw new UnmatchedScriptError(unmatched);
  };

  const reset = () => {
    const unmatched = takeUnmatched();
    requests.length = 0;
    countTokensRequests.length = 0;
    modelsRequests.length = 0;
    issuedThinking.clear();
    models = initialModels;
    cache.clear();
    if (unmatched) throw new UnmatchedScriptError(unmatched);
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
    modelsRequests,
    setModels: (next) => {
      models = next;
    },
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    pending: () => queue.length,
    assertScriptUsed,
    discardScript: () => {
      const left = queue.filter((t) => !matched.has(t)).length;
      queue.length = 0;
      return left;
    },
    reset,
    close: async () => {
      const unmatched = takeUnmatched();
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Streams held open by a slow or stalled client would otherwise keep close() waiting.
        server.closeAllConnections();
      });
      if (unmatched) throw new UnmatchedScriptError(unmatched);
    },
  };
}
