import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { startStandin, type RecordedRequest, type Standin } from '../../standin/server';
import { countRequestTokens, countTextTokens, promptSegments } from '../../standin/tokens';
import { rejection } from '../../support/rejection';

const MODEL = 'claude-sonnet-4-6';

describe('stand-in billing hooks for the cost benchmarks', () => {
  let standin: Standin;
  let client: Anthropic;
  const seen: RecordedRequest[] = [];
  const seenBodies: unknown[] = [];
  let answerWith: string | undefined;

  before(async () => {
    standin = await startStandin({
      contextWindow: 300,
      recordBodies: false,
      respond: () => (answerWith ? { content: [{ type: 'text', text: answerWith }] } : undefined),
      onRequest: (rec) => {
        seen.push(rec);
        seenBodies.push(rec.body);
      },
    });
    client = new Anthropic({ apiKey: 'k', baseURL: standin.url, maxRetries: 0 });
  });
  after(async () => {
    await standin.close();
  });
  afterEach(() => {
    standin.reset();
    seen.length = 0;
    seenBodies.length = 0;
    answerWith = undefined;
  });

  it('refuses a prompt over the context window the way the API does, and bills nothing for it', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const body = { model: MODEL, max_tokens: 10, messages: [{ role: 'user' as const, content: long }] };
    const tokens = countRequestTokens(body);
    assert.ok(tokens > 300);
    const err = await rejection(client.messages.create(body));
    assert.ok(err instanceof Anthropic.BadRequestError);
    assert.match(err.message, new RegExp(`prompt is too long: ${tokens} tokens > 300 maximum`));
    assert.equal(standin.requests[0]?.status, 400);
    assert.equal(standin.requests[0]?.usage, undefined);
    // Under the window the same stand-in answers.
    const ok = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'short' }] });
    assert.equal(ok.type, 'message');
  });

  it('records output tokens beside the input split', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'an answer of several tokens' }] });
    const msg = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'q' }] });
    assert.equal(standin.requests[0]?.usage?.output_tokens, msg.usage.output_tokens);
    assert.equal(msg.usage.output_tokens, countTextTokens('an answer of several tokens'));
  });

  it('lets a responder answer before the queue, and reports every request with its body', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'from the queue' }] });
    answerWith = 'from the responder';
    const a = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'q1' }] });
    assert.equal(a.content[0]?.type === 'text' ? a.content[0].text : '', 'from the responder');
    assert.equal(standin.pending(), 1, 'the queue was not consumed');
    answerWith = undefined;
    const b = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'q2' }] });
    assert.equal(b.content[0]?.type === 'text' ? b.content[0].text : '', 'from the queue');
    assert.equal(seen.length, 2);
    // The hook sees the body even though the stand-in keeps none.
    assert.deepEqual((seenBodies[1] as { messages: unknown }).messages, [{ role: 'user', content: 'q2' }]);
    assert.equal(standin.requests[1]?.body, undefined);
  });

  it('counts a block the same however often it is sent', () => {
    const body = { system: [{ type: 'text', text: 'system text', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hello there' }] }] };
    const first = promptSegments(body);
    const again = promptSegments(body);
    assert.deepEqual(again, first);
    assert.deepEqual(
      first.map((s) => s.tokens),
      [countTextTokens('system text'), countTextTokens('hello there')],
    );
  });
});
