import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { buildMessagesRequest, withBreakpointBefore, withHistoryBreakpoint, withTailUncached } from '../../../src/context/requestBuilder';
import { buildSystemBlocks, STATIC_SECTIONS } from '../../../src/context/systemPrompt';

function breakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + breakpoints(v), 0);
  if (value && typeof value === 'object') {
    return Object.entries(value).reduce((n, [k, v]) => n + (k === 'cache_control' ? 1 : breakpoints(v)), 0);
  }
  return 0;
}

describe('request building', () => {
  it('puts one breakpoint on the last block of the last message and leaves history untouched', () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'r' }, { type: 'text', text: 'go on' }] },
    ];
    const out = withHistoryBreakpoint(history);
    assert.equal(breakpoints(out), 1);
    assert.deepEqual((out[2]!.content as { cache_control?: unknown }[])[1]!.cache_control, { type: 'ephemeral' });
    assert.equal(breakpoints(history), 0);
  });

  it('uses at most four breakpoints in a whole request', () => {
    const req = buildMessagesRequest({
      model: 'm',
      maxTokens: 100,
      system: buildSystemBlocks(['# Environment\n- x']),
      tools: [],
      history: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(breakpoints(req.system) + breakpoints(req.messages), 3);
  });

  it('keeps the static prefix byte-identical whatever the dynamic part holds', () => {
    const a = buildSystemBlocks(['one']);
    const b = buildSystemBlocks(['two', 'three']);
    assert.equal(a[0]!.text, b[0]!.text);
    assert.equal(a[0]!.text, STATIC_SECTIONS.join('\n\n'));
    assert.match(a[0]!.text, /compress|summary|placeholders/i, 'the model is told that old context is compressed');
  });

  const loop: MessageParam[] = [
    { role: 'user', content: 'read them' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: 'a' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'A' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'Read', input: { file_path: 'b' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'B' }] },
  ];
  const marks = (ms: MessageParam[]) => ms.flatMap((m, i) => (typeof m.content === 'string' ? [] : m.content.flatMap((b, j) => ('cache_control' in b && b.cache_control ? [`${i}.${j}`] : []))));

  it('a breakpoint before the next clearing goes on the call before that result, past thinking; a string message is never turned into blocks', () => {
    assert.deepEqual(marks(withBreakpointBefore(loop, 'a')), ['1.1']);
    assert.deepEqual(marks(withBreakpointBefore(loop, 'b')), ['3.0']);
    assert.deepEqual(marks(withBreakpointBefore(loop, 'gone')), [], 'no such result: nothing marked');
    const stringFirst: MessageParam[] = [{ role: 'user', content: 'hi' }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'X' }] }];
    assert.deepEqual(withBreakpointBefore(stringFirst, 'x'), stringFirst, 'only a string before it: left as it was');
    assert.equal(breakpoints(loop), 0, 'the history itself is untouched');
  });

  it('with the tail left out of the cache, the breakpoint sits where the request before put it', () => {
    const before = withHistoryBreakpoint(loop.slice(0, 3));
    assert.deepEqual(marks(before), ['2.0']);
    assert.deepEqual(marks(withTailUncached(loop)), ['2.0'], 'the end of the previous request, not the new tail');
    assert.deepEqual(marks(withTailUncached(loop.slice(0, 1))), marks(withHistoryBreakpoint(loop.slice(0, 1))), 'no assistant message yet: the usual breakpoint');
  });

  it('a request with a clearing ahead still holds four breakpoints at most', () => {
    const req = buildMessagesRequest({ model: 'm', maxTokens: 100, system: buildSystemBlocks(['# Environment\n- x']), tools: [], history: loop, frontier: 'a', tailUncached: true });
    assert.equal(breakpoints(req.system) + breakpoints(req.messages), 4);
  });
});
