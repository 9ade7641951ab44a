import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { startStandin, type Standin } from '../../standin/server';
import { signThinking } from '../../standin/thinking';
import { rejection } from '../../support/rejection';

type Body = Anthropic.MessageCreateParamsNonStreaming;
const user = (text: string): Anthropic.MessageParam => ({ role: 'user', content: text });
const ADAPTIVE = { type: 'adaptive' } as const;

describe('thinking in the stand-in', () => {
  let standin: Standin;
  let client: Anthropic;
  before(async () => {
    standin = await startStandin();
    client = new Anthropic({ apiKey: 'test', baseURL: standin.url, maxRetries: 0 });
  });
  after(() => standin.close());
  afterEach(() => standin.reset());

  /** One tool round with thinking: returns the first answer and the follow-up request's messages. */
  async function toolRound(model: string, thinking: Body['thinking']) {
    standin.enqueue({ content: [{ type: 'thinking', thinking: 'I should list the files.' }, { type: 'redacted_thinking' }, { type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] });
    const first = await client.messages.stream({ model, max_tokens: 4000, messages: [user('go')], ...(thinking ? { thinking } : {}) }).finalMessage();
    const tool = first.content.find((b) => b.type === 'tool_use')!;
    const next = (assistant: Anthropic.ContentBlockParam[]): Anthropic.MessageParam[] => [
      user('go'),
      { role: 'assistant', content: assistant },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool.id, content: 'a.txt' }] },
    ];
    return { first, next, asParams: first.content as Anthropic.ContentBlockParam[] };
  }

  it('streams thinking, its signature and redacted thinking, and accepts them back unchanged', async () => {
    const { first, next, asParams } = await toolRound('claude-sonnet-4-6', ADAPTIVE);
    assert.deepEqual(
      first.content.map((b) => b.type),
      ['thinking', 'redacted_thinking', 'tool_use'],
    );
    const t = first.content[0]!;
    assert.ok(t.type === 'thinking' && t.thinking === 'I should list the files.' && t.signature.length > 20);
    standin.enqueue({ content: [{ type: 'text', text: 'done' }] });
    const second = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4000, thinking: ADAPTIVE, messages: next(asParams) });
    assert.equal(second.content[0]?.type === 'text' ? second.content[0].text : '', 'done');
  });

  it('refuses a changed thinking block, a dropped one during the tool loop, and a forged redacted block', async () => {
    const { next, asParams } = await toolRound('claude-sonnet-4-6', ADAPTIVE);
    const [thinking, redacted, tool] = asParams as [Anthropic.ThinkingBlockParam, Anthropic.RedactedThinkingBlockParam, Anthropic.ToolUseBlockParam];
    const cases: Array<[string, Anthropic.ContentBlockParam[], RegExp]> = [
      ['edited text', [{ ...thinking, thinking: 'something else' }, redacted, tool], /Invalid `signature` in `thinking` block/],
      ['the signature of other thinking', [{ ...thinking, signature: signThinking('other thoughts') }, redacted, tool], /Invalid `signature`/],
      ['redacted data swapped for a thinking signature', [thinking, { ...redacted, data: signThinking('') }, tool], /Invalid `data` in `redacted_thinking`/],
      ['another model\'s thinking instead of this turn\'s', [{ type: 'thinking', thinking: 'x', signature: 'c2lnbmF0dXJlIGZyb20gYW5vdGhlciBtb2RlbA==' }, tool], /cannot be modified/],
      ['thinking dropped mid tool loop', [tool], /cannot be modified/],
      ['redacted thinking dropped', [thinking, tool], /cannot be modified/],
    ];
    for (const [name, assistant, message] of cases) {
      const err = await rejection(client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4000, thinking: ADAPTIVE, messages: next(assistant) }));
      assert.ok(err instanceof Anthropic.BadRequestError, `${name}: ${String(err)}`);
      assert.match(err.message, message, name);
    }
    // Without thinking on, earlier thinking may be left out (the API drops it anyway).
    const ok = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: next([tool]) });
    assert.equal(ok.role, 'assistant');
  });

  it('with `enabled`, the last tool turn must start with thinking; budgets must fit max_tokens', async () => {
    const enabled = { type: 'enabled', budget_tokens: 2000 } as const;
    const { next, asParams } = await toolRound('claude-sonnet-4-6', enabled);
    const tool = asParams[2]!;
    const err = await rejection(client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4000, thinking: enabled, messages: next([{ type: 'text', text: 'Listing.' }, tool]) }));
    assert.match(String(err), /Expected `thinking` or `redacted_thinking`, but found `text`/);
    for (const [thinking, max, message] of [
      [{ type: 'enabled', budget_tokens: 4000 }, 4000, /`max_tokens` must be greater than `thinking.budget_tokens`/],
      [{ type: 'enabled', budget_tokens: 512 }, 4000, /greater than or equal to 1024/],
      [{ type: 'sometimes' }, 4000, /thinking.type: Input should be/],
    ] as const) {
      const e = await rejection(client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: max, thinking: thinking as Body['thinking'], messages: [user('x')] }));
      assert.ok(e instanceof Anthropic.BadRequestError);
      assert.match(e.message, message);
    }
  });

  it('refuses sampling changes and forced tools with thinking, and types a model does not take', async () => {
    const base = { max_tokens: 4000, messages: [user('x')] };
    // SDK 1.12 no longer types the sampling parameters; the API still refuses them with thinking.
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ model: 'claude-sonnet-4-6', thinking: ADAPTIVE, temperature: 0.2 }, /`temperature` may only be set to 1/],
      [{ model: 'claude-sonnet-4-6', thinking: ADAPTIVE, top_k: 5 }, /top_k/],
      [{ model: 'claude-sonnet-4-6', thinking: ADAPTIVE, top_p: 0.5 }, /top_p/],
      [{ model: 'claude-sonnet-4-6', thinking: ADAPTIVE, tools: [{ name: 'T', input_schema: { type: 'object' } }], tool_choice: { type: 'any' } }, /tool_choice forces tool use/],
      [{ model: 'claude-opus-4-8', thinking: { type: 'enabled', budget_tokens: 2000 } }, /thinking.type.enabled is not supported for claude-opus-4-8\. Use thinking.type.adaptive/],
      [{ model: 'claude-haiku-4-5', thinking: ADAPTIVE }, /thinking.type.adaptive is not supported/],
      [{ model: 'claude-fable-5-2', thinking: { type: 'disabled' } }, /always on/],
    ];
    for (const [extra, message] of cases) {
      const err = await rejection(client.messages.create({ ...base, ...extra } as unknown as Body));
      assert.ok(err instanceof Anthropic.BadRequestError, `${JSON.stringify(extra)}: ${String(err)}`);
      assert.match(err.message, message);
    }
    // Temperature 1 is the one value allowed with thinking.
    const ok = await client.messages.create({ ...base, model: 'claude-sonnet-4-6', thinking: ADAPTIVE, temperature: 1 } as unknown as Body);
    assert.equal(ok.role, 'assistant');
  });

  it('leaves thinking out when the request turns it off, unless the model cannot; omitted display sends empty text', async () => {
    const script = { content: [{ type: 'thinking' as const, thinking: 'hidden reasoning' }, { type: 'text' as const, text: 'answer' }], repeat: true };
    standin.enqueue(script);
    const off = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, thinking: { type: 'disabled' }, messages: [user('x')] });
    assert.deepEqual(off.content.map((b) => b.type), ['text']);
    const fable = await client.messages.create({ model: 'claude-fable-5-2', max_tokens: 100, messages: [user('x')] });
    assert.deepEqual(fable.content.map((b) => b.type), ['thinking', 'text']);
    const omitted = await client.messages.create({ model: 'claude-fable-5-2', max_tokens: 100, thinking: { type: 'adaptive', display: 'omitted' }, messages: [user('x')] });
    const t = omitted.content[0]!;
    assert.ok(t.type === 'thinking' && t.thinking === '' && t.signature.length > 0);
    // An empty-text thinking block still has to come back as it was.
    const back = await client.messages.create({
      model: 'claude-fable-5-2',
      max_tokens: 100,
      messages: [user('x'), { role: 'assistant', content: omitted.content as Anthropic.ContentBlockParam[] }, user('y')],
    });
    assert.equal(back.role, 'assistant');
  });

  it('drops another model\'s thinking without an error, as the API does (a switched model, an imported transcript)', async () => {
    const msg = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      thinking: ADAPTIVE,
      messages: [user('a'), { role: 'assistant', content: [{ type: 'thinking', thinking: 'elsewhere', signature: 'anBxTXhSdUNxODFpc3FRcG96N1dPSHBR' }, { type: 'redacted_thinking', data: 'b3BhcXVl' }, { type: 'text', text: 'b' }] }, user('c')],
    });
    assert.equal(msg.role, 'assistant');
  });

  it('signs with a secret every stand-in shares by default, so a block survives a restart', async () => {
    const other = await startStandin();
    try {
      const sig = signThinking('from another process');
      const msg = await new Anthropic({ apiKey: 'k', baseURL: other.url, maxRetries: 0 }).messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 10,
        messages: [user('a'), { role: 'assistant', content: [{ type: 'thinking', thinking: 'from another process', signature: sig }, { type: 'text', text: 'b' }] }, user('c')],
      });
      assert.equal(msg.role, 'assistant');
    } finally {
      await other.close();
    }
  });

  it('can stall: headers, a few events, then silence until the client gives up', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'never finished' }], fault: { kind: 'stall', afterEvents: 2 } });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [user('x')] });
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    await stream.withResponse();
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(events, ['message_start'], 'message_start and a ping, then nothing');
    assert.equal(stream.ended, false);
    stream.abort();
    assert.ok((await rejection(stream.finalMessage())) instanceof Anthropic.APIUserAbortError);
  });
});
