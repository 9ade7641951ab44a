import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { buildMessagesRequest, withHistoryBreakpoint } from '../../../src/context/requestBuilder';
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
});
