// Whatever shape the history takes (parallel tool results, thinking, empty text, string
// messages), the request keeps the API's rules for cache breakpoints and sends the history as it
// is: at most four breakpoints, none on a block that cannot carry one, nothing else changed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContentBlockParam, MessageParam } from '../../../src/api/types';
import { buildMessagesRequest } from '../../../src/context/requestBuilder';
import { withoutBlankText } from '../../../src/conversation/blankText';
import { buildSystemBlocks } from '../../../src/context/systemPrompt';
import { fc } from '../../support/fastCheck';

const text = fc.oneof(fc.constant(''), fc.string({ minLength: 1, maxLength: 8 }));
const assistantBlock = fc.oneof(
  text.map((t): ContentBlockParam => ({ type: 'text', text: t })),
  fc.constant<ContentBlockParam>({ type: 'thinking', thinking: 'hm', signature: 'sig' }),
  fc.constant<ContentBlockParam>({ type: 'redacted_thinking', data: 'zz' }),
);

/** A history: prompts (string or blocks), assistant turns with 0–3 parallel calls and their results. */
const history = fc
  .array(fc.record({ prompt: fc.boolean(), asString: fc.boolean(), lead: fc.array(assistantBlock, { maxLength: 3 }), calls: fc.integer({ min: 0, max: 3 }), extra: fc.boolean() }), { minLength: 1, maxLength: 12 })
  .map((turns) => {
    const h: MessageParam[] = [];
    let n = 0;
    for (const t of turns) {
      if (h.length === 0 || h.at(-1)!.role === 'assistant') {
        h.push(t.asString ? { role: 'user', content: 'go' } : { role: 'user', content: [{ type: 'text', text: 'go' }] });
      }
      const ids = Array.from({ length: t.calls }, () => `t${++n}`);
      const blocks: ContentBlockParam[] = [...t.lead, ...ids.map((id): ContentBlockParam => ({ type: 'tool_use', id, name: 'Read', input: { file_path: id } }))];
      h.push({ role: 'assistant', content: blocks.length ? blocks : [{ type: 'text', text: 'ok' }] });
      if (ids.length) {
        const results: ContentBlockParam[] = ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'r'.repeat(200) }));
        h.push({ role: 'user', content: t.extra ? [...results, { type: 'text', text: 'note' }] : results });
      }
    }
    // A request always ends with the user's side.
    if (h.at(-1)!.role === 'assistant') h.push({ role: 'user', content: [{ type: 'text', text: 'next' }] });
    return { h, ids: Array.from({ length: n }, (_, i) => `t${i + 1}`) };
  });

const strip = (ms: MessageParam[]) => JSON.parse(JSON.stringify(ms).replace(/,"cache_control":\{"type":"ephemeral"\}/g, '')) as unknown;

describe('cache breakpoints on any history', () => {
  it('at most four, never on thinking or empty text, and the history otherwise sent as it is', () => {
    fc.assert(
      fc.property(history, fc.option(fc.nat()), fc.boolean(), ({ h, ids }, pick, tailUncached) => {
        const frontier = pick === null || ids.length === 0 ? undefined : ids[pick % ids.length];
        const req = buildMessagesRequest({ model: 'm', maxTokens: 10, system: buildSystemBlocks(['# Environment\n- x']), tools: [], history: h, ...(frontier ? { frontier } : {}), tailUncached });
        const marked = req.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => 'cache_control' in b && b.cache_control)));
        assert.ok(marked.length >= 1 && marked.length <= 2, `${marked.length} breakpoints in the messages`);
        for (const b of marked) assert.ok(b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text === ''), `a breakpoint on ${JSON.stringify(b)}`);
        const sent = withoutBlankText(h);
        const expected = sent.map((m, i) => (i === sent.length - 1 && typeof m.content === 'string' ? { ...m, content: [{ type: 'text', text: m.content }] } : m)) as MessageParam[];
        assert.deepEqual(strip(req.messages), strip(expected), 'only breakpoints were added (and blank text dropped, as always)');
      }),
    );
  });
});
