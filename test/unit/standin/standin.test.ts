import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { minCacheableTokens } from '../../standin/cache';
import { startStandin, type Standin } from '../../standin/server';
import { countTextTokens } from '../../standin/tokens';
import { validateRequest } from '../../standin/validate';
import { rejection } from '../../support/rejection';

const MODEL = 'claude-sonnet-4-6';
// Comfortably above the 1024-token minimum (≈ 3 tokens a word).
const LONG_SYSTEM = Array.from({ length: 900 }, (_, i) => `rule${i}`).join(' ');

type Params = Anthropic.MessageCreateParamsNonStreaming;

const user = (text: string): Anthropic.MessageParam => ({ role: 'user', content: text });

describe('Messages API stand-in with the real SDK', () => {
  let clock = 1_000_000;
  let standin: Standin;
  let client: Anthropic;

  before(async () => {
    standin = await startStandin({ now: () => clock });
    client = new Anthropic({ apiKey: 'test', baseURL: standin.url, maxRetries: 0 });
  });
  after(async () => {
    await standin.close();
  });
  afterEach(() => {
    standin.reset();
    clock = 1_000_000;
  });

  it('streams a scripted text turn in several deltas with honest usage', async () => {
    const text = 'Hello from the stand-in, streamed in small pieces.';
    standin.enqueue({ content: [{ type: 'text', text }], chunkChars: 5 });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 100, messages: [user('hi')] });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const msg = await stream.finalMessage();
    assert.equal(msg.content[0]?.type, 'text');
    assert.equal(msg.content[0]?.type === 'text' ? msg.content[0].text : '', text);
    assert.equal(deltas.join(''), text);
    assert.equal(deltas.length, Math.ceil(text.length / 5));
    assert.match(msg.id, /^msg_/);
    assert.equal(msg.model, MODEL);
    assert.equal(msg.stop_reason, 'end_turn');
    assert.equal(msg.usage.input_tokens, countTextTokens('hi'));
    assert.equal(msg.usage.output_tokens, countTextTokens(text));
    const rec = standin.requests[0];
    assert.equal(rec?.status, 200);
    assert.equal(rec?.validationError, null);
    assert.equal(rec?.apiKey, 'test');
  });

  it('streams a tool_use whose input arrives as several partial_json pieces and parses', async () => {
    const input = { file_path: 'src/some/deep/file.ts', offset: 10, limit: 200 };
    standin.enqueue({ content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', name: 'Read', input }] });
    const events = await client.messages.create({ model: MODEL, max_tokens: 100, stream: true, messages: [user('read it')] });
    const partials: string[] = [];
    const types: string[] = [];
    for await (const ev of events) {
      types.push(ev.type);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'input_json_delta') partials.push(ev.delta.partial_json);
    }
    assert.ok(partials.length >= 3, `got ${partials.length} pieces`);
    assert.deepEqual(JSON.parse(partials.join('')), input);
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
    assert.equal(types.at(-2), 'message_delta');

    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input, id: 'toolu_fixed' }] });
    const msg = await client.messages.stream({ model: MODEL, max_tokens: 100, messages: [user('again')] }).finalMessage();
    const block = msg.content[0];
    assert.equal(block?.type, 'tool_use');
    assert.deepEqual(block?.type === 'tool_use' ? block.input : null, input);
    assert.equal(block?.type === 'tool_use' ? block.id : '', 'toolu_fixed');
    assert.equal(msg.stop_reason, 'tool_use');
  });

  it('generates toolu_ ids and streams thinking with a signature', async () => {
    standin.enqueue({ content: [{ type: 'thinking', thinking: 'Let me think about it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] });
    const msg = await client.messages.stream({ model: MODEL, max_tokens: 100, messages: [user('go')] }).finalMessage();
    const [thinking, tool] = msg.content;
    assert.equal(thinking?.type, 'thinking');
    assert.equal(thinking?.type === 'thinking' ? thinking.thinking : '', 'Let me think about it.');
    assert.ok(thinking?.type === 'thinking' && thinking.signature.length > 20);
    assert.ok(tool?.type === 'tool_use' && /^toolu_\w{10,}$/.test(tool.id));
  });

  it('answers a non-streamed create with the full Message, and honours a scripted stop reason', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'cut off' }], stopReason: 'max_tokens' });
    const msg = await client.messages.create({ model: MODEL, max_tokens: 5, messages: [user('write a lot')] });
    assert.equal(msg.type, 'message');
    assert.equal(msg.role, 'assistant');
    assert.equal(msg.stop_reason, 'max_tokens');
    assert.deepEqual(
      msg.content.map((b) => (b.type === 'text' ? b.text : b.type)),
      ['cut off'],
    );
    assert.equal(msg.usage.cache_read_input_tokens, 0);
  });

  it('echoes the last user text when nothing is scripted', async () => {
    const msg = await client.messages.create({
      model: MODEL,
      max_tokens: 50,
      messages: [user('first'), { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'text', text: 'the question' }] }],
    });
    assert.equal(msg.content[0]?.type === 'text' ? msg.content[0].text : '', 'Stand-in reply to: the question');
  });

  it('counts tokens over system, tools and messages', async () => {
    const base = { model: MODEL, messages: [user('hello world')] };
    const small = await client.messages.countTokens(base);
    assert.equal(small.input_tokens, countTextTokens('hello world'));
    const big = await client.messages.countTokens({
      ...base,
      system: 'You are terse.',
      tools: [{ name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
    });
    assert.ok(big.input_tokens > small.input_tokens + countTextTokens('You are terse.'));
    assert.equal(standin.requests.length, 0, 'count_tokens is recorded apart');
    assert.equal(standin.countTokensRequests.length, 2);
  });

  describe('validation (HTTP 400 invalid_request_error, as the API)', () => {
    const toolUse = (id: string): Anthropic.ContentBlockParam => ({ type: 'tool_use', id, name: 'Read', input: { path: 'a' } });
    const toolResult = (id: string): Anthropic.ContentBlockParam => ({ type: 'tool_result', tool_use_id: id, content: 'data' });
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['missing model', { max_tokens: 10, messages: [user('x')] }, /^model: Field required$/],
      ['missing max_tokens', { model: MODEL, messages: [user('x')] }, /^max_tokens: Field required/],
      ['invalid max_tokens', { model: MODEL, max_tokens: 0, messages: [user('x')] }, /max_tokens: Input should be greater than or equal to 1/],
      ['empty messages', { model: MODEL, max_tokens: 10, messages: [] }, /at least one message is required/],
      ['first message not user', { model: MODEL, max_tokens: 10, messages: [{ role: 'assistant', content: 'x' }, user('y')] }, /first message must use the "user" role/],
      ['system role as the first message', { model: MODEL, max_tokens: 10, messages: [{ role: 'system', content: 'y' }, user('x')] }, /first message must use the "user" role/],
      ['system message with non-text content', { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'system', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }, user('z')] }, /system message takes text content only/],
      ['an unknown role', { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'tool', content: 'y' }] }, /messages\.1\.role: Input should be 'user' or 'assistant'/],
      ['empty string content', { model: MODEL, max_tokens: 10, messages: [user('')] }, /messages\.0: all messages must have non-empty content/],
      ['empty array content', { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'assistant', content: [] }, user('y')] }, /messages\.1: all messages must have non-empty content/],
      ['empty text block', { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, /text content blocks must be non-empty/],
      ['whitespace-only text block', { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: ' \n' }] }] }, /text content blocks must contain non-whitespace text/],
      ['final assistant text ending in whitespace', { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'assistant', content: 'partial ' }] }, /final assistant content cannot end with trailing whitespace/],
      [
        'tool_result for an unknown tool_use',
        { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'assistant', content: [toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a'), toolResult('toolu_b')] }] },
        /messages\.2\.content\.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_b/,
      ],
      [
        'tool_result answering an older assistant message',
        {
          model: MODEL,
          max_tokens: 10,
          messages: [user('x'), { role: 'assistant', content: [toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a')] }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [toolResult('toolu_a')] }],
        },
        /messages\.4\.content\.0: unexpected `tool_use_id`/,
      ],
      [
        'unanswered tool_use',
        { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'assistant', content: [toolUse('toolu_a'), toolUse('toolu_b')] }, { role: 'user', content: [toolResult('toolu_a')] }] },
        /messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b/,
      ],
      [
        'two tool_use blocks with one id',
        {
          model: MODEL,
          max_tokens: 10,
          messages: [user('x'), { role: 'assistant', content: [toolUse('toolu_a'), toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a'), toolResult('toolu_a')] }],
        },
        /messages\.1\.content\.1: `tool_use` ids must be unique/,
      ],
      [
        'tool_result after a text block',
        { model: MODEL, max_tokens: 10, messages: [user('x'), { role: 'assistant', content: [toolUse('toolu_a')] }, { role: 'user', content: [{ type: 'text', text: 'here' }, toolResult('toolu_a')] }] },
        /messages\.2: `tool_result` blocks must come first/,
      ],
      [
        'five cache_control breakpoints',
        {
          model: MODEL,
          max_tokens: 10,
          system: [
            { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
          ],
          tools: [{ name: 'T', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'c', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'd', cache_control: { type: 'ephemeral' } }] }],
        },
        /A maximum of 4 blocks with cache_control may be provided\. Found 5\./,
      ],
      [
        'a tool name over 64 characters',
        { model: MODEL, max_tokens: 10, tools: [{ name: `mcp__server__${'x'.repeat(60)}`, input_schema: { type: 'object' } }], messages: [user('x')] },
        /tools\.0\.custom\.name: String should match pattern/,
      ],
      [
        'a tool name with a dot',
        { model: MODEL, max_tokens: 10, tools: [{ name: 'mcp__my.server__tool', input_schema: { type: 'object' } }], messages: [user('x')] },
        /tools\.0\.custom\.name: String should match pattern/,
      ],
      [
        'two tools with one name',
        { model: MODEL, max_tokens: 10, tools: [{ name: 'T', input_schema: { type: 'object' } }, { name: 'T', input_schema: { type: 'object' } }], messages: [user('x')] },
        /Tool names must be unique/,
      ],
      [
        'a tool whose schema is not an object',
        { model: MODEL, max_tokens: 10, tools: [{ name: 'T', input_schema: { type: 'string' } }], messages: [user('x')] },
        /tools\.0\.custom\.input_schema\.type: Input should be 'object'/,
      ],
    ];
    for (const [name, body, message] of cases) {
      it(`refuses ${name}`, async () => {
        assert.match(validateRequest(body) ?? '', message);
        const err = await rejection(client.messages.create(body as unknown as Params));
        assert.ok(err instanceof Anthropic.BadRequestError, String(err));
        assert.equal(err.status, 400);
        assert.equal(err.type, 'invalid_request_error');
        assert.match(err.apiMessage ?? '', message);
        assert.match(err.requestID ?? '', /^req_/);
        assert.equal(standin.requests.at(-1)?.status, 400);
        assert.match(standin.requests.at(-1)?.validationError ?? '', message);
      });
    }

    it('accepts valid histories, merging consecutive same-role messages, and keeps the script for the next valid request', async () => {
      const valid: Record<string, unknown> = {
        model: MODEL,
        max_tokens: 10,
        messages: [
          user('a'),
          user('b'),
          { role: 'assistant', content: [{ type: 'text', text: 'calling' }] },
          { role: 'assistant', content: [toolUse('toolu_a')] },
          { role: 'user', content: [toolResult('toolu_a')] },
          { role: 'user', content: 'and more' },
          { role: 'assistant', content: [toolUse('toolu_last')] },
        ],
      };
      assert.equal(validateRequest(valid), null);
      assert.equal(validateRequest({ model: MODEL, messages: [user('x')] }, { requireMaxTokens: false }), null);
      standin.enqueue({ content: [{ type: 'text', text: 'scripted' }] });
      await rejection(client.messages.create({ model: MODEL, max_tokens: 10, messages: [] }));
      assert.equal(standin.pending(), 1, 'a refused request does not use up a turn');
      const msg = await client.messages.create(valid as unknown as Params);
      assert.equal(msg.content[0]?.type === 'text' ? msg.content[0].text : '', 'scripted');
    });
  });

  describe('faults', () => {
    it('429 carries rate_limit_error and a visible retry-after header', async () => {
      standin.enqueue({ content: [{ type: 'text', text: 'x' }], fault: { kind: 'http', status: 429, retryAfterSeconds: 7 } });
      const err = await rejection(client.messages.create({ model: MODEL, max_tokens: 10, messages: [user('x')] }));
      assert.ok(err instanceof Anthropic.RateLimitError);
      assert.equal(err.headers?.get('retry-after'), '7');
      assert.equal(err.type, 'rate_limit_error');
    });

    it('529 is overloaded_error, 500 is api_error, 401 is authentication_error', async () => {
      standin.enqueue(
        { content: [], fault: { kind: 'http', status: 529, retryAfterSeconds: 2 } },
        { content: [], fault: { kind: 'http', status: 500, message: 'boom' } },
        { content: [], fault: { kind: 'http', status: 401 } },
      );
      const body = { model: MODEL, max_tokens: 10, messages: [user('x')] };
      const e529 = await rejection(client.messages.create(body));
      assert.ok(e529 instanceof Anthropic.APIError);
      assert.equal(e529.status, 529);
      assert.equal(e529.type, 'overloaded_error');
      assert.equal(e529.headers?.get('retry-after'), '2');
      const e500 = await rejection(client.messages.stream(body).finalMessage());
      assert.ok(e500 instanceof Anthropic.InternalServerError);
      assert.equal(e500.type, 'api_error');
      assert.match(e500.message, /boom/);
      const e401 = await rejection(client.messages.create(body));
      assert.ok(e401 instanceof Anthropic.AuthenticationError);
      assert.equal(e401.type, 'authentication_error');
      assert.deepEqual(
        standin.requests.map((r) => r.status),
        [529, 500, 401],
      );
    });

    it('a stream error event makes the SDK throw after the partial text', async () => {
      standin.enqueue({ content: [{ type: 'text', text: 'partial answer that never finishes' }], fault: { kind: 'stream-error', afterEvents: 5 } });
      const stream = client.messages.stream({ model: MODEL, max_tokens: 100, messages: [user('x')] });
      let seen = '';
      stream.on('text', (t) => (seen += t));
      const err = await rejection(stream.finalMessage());
      assert.ok(err instanceof Anthropic.APIError, String(err));
      assert.equal(err.type, 'overloaded_error');
      assert.ok(seen.length > 0 && seen.length < 'partial answer that never finishes'.length, `saw ${JSON.stringify(seen)}`);
    });

    it('a dropped connection makes the SDK throw', async () => {
      standin.enqueue({ content: [{ type: 'text', text: 'this will be cut' }], fault: { kind: 'drop', afterEvents: 3 } });
      const err = await rejection(client.messages.stream({ model: MODEL, max_tokens: 100, messages: [user('x')] }).finalMessage());
      assert.ok(err instanceof Error);
      assert.ok(!(err instanceof Anthropic.APIUserAbortError));
      standin.enqueue({ content: [], fault: { kind: 'drop', afterEvents: 0 } });
      const err2 = await rejection(client.messages.create({ model: MODEL, max_tokens: 10, messages: [user('x')] }));
      assert.ok(err2 instanceof Anthropic.APIConnectionError, String(err2));
    });

    it('checks x-api-key when configured', async () => {
      const keyed = await startStandin({ apiKey: 'right' });
      try {
        const wrong = new Anthropic({ apiKey: 'wrong', baseURL: keyed.url, maxRetries: 0 });
        const err = await rejection(wrong.messages.create({ model: MODEL, max_tokens: 10, messages: [user('x')] }));
        assert.ok(err instanceof Anthropic.AuthenticationError);
        const right = new Anthropic({ apiKey: 'right', baseURL: keyed.url, maxRetries: 0 });
        const msg = await right.messages.create({ model: MODEL, max_tokens: 10, messages: [user('x')] });
        assert.equal(msg.stop_reason, 'end_turn');
      } finally {
        await keyed.close();
      }
    });

    it('enforces a context limit when given one, as the API words it', async () => {
      const limited = await startStandin({ contextLimit: 1000 });
      try {
        const c = new Anthropic({ apiKey: 'k', baseURL: limited.url, maxRetries: 0 });
        const ok = await c.messages.create({ model: MODEL, max_tokens: 900, messages: [user('hello there')] });
        assert.equal(ok.stop_reason, 'end_turn');
        const both = await rejection(c.messages.create({ model: MODEL, max_tokens: 999, messages: [user('hello there')] }));
        assert.ok(both instanceof Anthropic.BadRequestError);
        assert.match(both.message, /input length and `max_tokens` exceed context limit: \d+ \+ 999 > 1000, decrease input length or `max_tokens` and try again/);
        const long = await rejection(c.messages.create({ model: MODEL, max_tokens: 1, messages: [user(LONG_SYSTEM)] }));
        assert.ok(long instanceof Anthropic.BadRequestError);
        assert.match(long.message, /prompt is too long: \d+ tokens > 1000 maximum/);
        assert.match(limited.requests.at(-1)?.validationError ?? '', /prompt is too long/);
      } finally {
        await limited.close();
      }
    });

    it('stops writing when the client aborts a slow stream', async () => {
      const long = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
      standin.enqueue({ content: [{ type: 'text', text: long }], chunkChars: 4, chunkDelayMs: 20 });
      const stream = client.messages.stream({ model: MODEL, max_tokens: 100, messages: [user('x')] });
      let seen = '';
      const started = Date.now();
      stream.on('text', (t) => {
        seen += t;
        if (seen.length >= 8) stream.abort();
      });
      const err = await rejection(stream.finalMessage());
      assert.ok(err instanceof Anthropic.APIUserAbortError);
      assert.ok(Date.now() - started < 500, 'aborted long before the stream would have ended');
      // The server is still healthy and serves the next request at once.
      const msg = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [user('next')] });
      assert.equal(msg.content[0]?.type === 'text' ? msg.content[0].text : '', 'Stand-in reply to: next');
    });
  });

  describe('prompt cache simulation', () => {
    const cachedBody = (question: string, extra: Anthropic.MessageParam[] = []): Params => ({
      model: MODEL,
      max_tokens: 10,
      system: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral' } }],
      messages: [user(question), ...extra],
    });

    it('writes on the first request and reads on the same request again', async () => {
      const systemTokens = countTextTokens(LONG_SYSTEM);
      assert.ok(systemTokens >= minCacheableTokens(MODEL));
      const first = await client.messages.create(cachedBody('q'));
      assert.equal(first.usage.cache_creation_input_tokens, systemTokens);
      assert.equal(first.usage.cache_read_input_tokens, 0);
      assert.equal(first.usage.input_tokens, countTextTokens('q'));
      const second = await client.messages.stream(cachedBody('q')).finalMessage();
      assert.equal(second.usage.cache_read_input_tokens, systemTokens);
      assert.equal(second.usage.cache_creation_input_tokens, 0);
      assert.equal(second.usage.input_tokens, countTextTokens('q'));
    });

    it('does not cache a prefix under the minimum, and uses the larger minimum for haiku-4-5', async () => {
      const short: Params = { model: MODEL, max_tokens: 10, system: [{ type: 'text', text: 'short', cache_control: { type: 'ephemeral' } }], messages: [user('q')] };
      for (let i = 0; i < 2; i++) {
        const msg = await client.messages.create(short);
        assert.equal(msg.usage.cache_creation_input_tokens, 0);
        assert.equal(msg.usage.cache_read_input_tokens, 0);
        assert.equal(msg.usage.input_tokens, countTextTokens('short') + countTextTokens('q'));
      }
      assert.equal(minCacheableTokens('claude-haiku-4-5'), 4096);
      const haiku = await client.messages.create({ ...cachedBody('q'), model: 'claude-haiku-4-5' });
      assert.equal(haiku.usage.cache_creation_input_tokens, 0, `${countTextTokens(LONG_SYSTEM)} tokens is under haiku's minimum`);
    });

    it('expires after 5 minutes, refreshes on a hit, and honours ttl 1h', async () => {
      await client.messages.create(cachedBody('q'));
      clock += 4 * 60_000;
      assert.ok(((await client.messages.create(cachedBody('q'))).usage.cache_read_input_tokens ?? 0) > 0);
      clock += 4 * 60_000; // 8 minutes after the write, 4 after the refreshing hit
      assert.ok(((await client.messages.create(cachedBody('q'))).usage.cache_read_input_tokens ?? 0) > 0);
      clock += 5 * 60_000 + 1;
      const expired = await client.messages.create(cachedBody('q'));
      assert.equal(expired.usage.cache_read_input_tokens, 0);
      assert.ok((expired.usage.cache_creation_input_tokens ?? 0) > 0);

      const hour: Params = { ...cachedBody('q'), system: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral', ttl: '1h' } }] };
      standin.reset();
      const written = await client.messages.create(hour);
      assert.equal(written.usage.cache_creation?.ephemeral_1h_input_tokens, countTextTokens(LONG_SYSTEM));
      clock += 30 * 60_000;
      assert.equal((await client.messages.create(hour)).usage.cache_read_input_tokens, countTextTokens(LONG_SYSTEM));
      clock += 60 * 60_000 + 1;
      assert.equal((await client.messages.create(hour)).usage.cache_read_input_tokens, 0);
    });

    it('reads the previous breakpoint when the breakpoint moves to a newer message', async () => {
      const turn1: Params = { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral' } }] }] };
      const first = await client.messages.create(turn1);
      const written = first.usage.cache_creation_input_tokens ?? 0;
      assert.ok(written > 0);
      const turn2: Params = {
        model: MODEL,
        max_tokens: 10,
        messages: [
          { role: 'user', content: [{ type: 'text', text: LONG_SYSTEM }] },
          { role: 'assistant', content: 'noted' },
          { role: 'user', content: [{ type: 'text', text: 'next question', cache_control: { type: 'ephemeral' } }] },
        ],
      };
      const second = await client.messages.create(turn2);
      assert.equal(second.usage.cache_read_input_tokens, written);
      assert.equal(second.usage.cache_creation_input_tokens, countTextTokens('noted') + countTextTokens('next question'));
      assert.equal(second.usage.input_tokens, 0);
    });
  });
});

describe('stand-in CLI', () => {
  it('prints READY, serves the control endpoints and exits on SIGTERM', async () => {
    const cli = join(import.meta.dirname, '..', '..', 'standin', 'cli.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          const m = /^READY (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      const enq = await fetch(`${url}/_standin/enqueue`, { method: 'POST', body: JSON.stringify([{ content: [{ type: 'text', text: 'from the script' }] }]) });
      assert.deepEqual(await enq.json(), { queued: 1 });
      const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
      const msg = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [user('x')] });
      assert.equal(msg.content[0]?.type === 'text' ? msg.content[0].text : '', 'from the script');
      const reqs = (await (await fetch(`${url}/_standin/requests`)).json()) as Array<{ status: number; apiKey: string }>;
      assert.equal(reqs.length, 1);
      assert.equal(reqs[0]?.apiKey, 'k');
      assert.equal(reqs[0]?.status, 200);
      assert.deepEqual(await (await fetch(`${url}/_standin/reset`, { method: 'POST' })).json(), { ok: true });
      assert.deepEqual(await (await fetch(`${url}/_standin/requests`)).json(), []);
      assert.match(stderr, /POST \/v1\/messages 200/);
    } finally {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  });
});
