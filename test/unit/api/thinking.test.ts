import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thinkingParam, toolLoopWithoutThinking } from '../../../src/api/thinking';
import type { MessageParam } from '../../../src/api/types';

const ADAPTIVE = { thinking: { adaptive: true, enabled: true, disabled: true } };
const BUDGET = { thinking: { adaptive: false, enabled: true, disabled: true } };
const ALWAYS = { thinking: { adaptive: true, enabled: false, disabled: false } };
const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const toolTurn = (first: 'thinking' | 'text'): MessageParam[] => [
  user('go'),
  {
    role: 'assistant',
    content: [first === 'thinking' ? { type: 'thinking', thinking: 't', signature: 's' } : { type: 'text', text: 'x' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] },
];

describe('thinking per model', () => {
  it('prefers adaptive (the SDK warns against enabled where adaptive exists), with summarised display', () => {
    assert.deepEqual(thinkingParam(ADAPTIVE, 'adaptive', 32_000, [user('x')]), { type: 'adaptive', display: 'summarized' });
    assert.deepEqual(thinkingParam(ALWAYS, 'adaptive', 32_000, [user('x')]), { type: 'adaptive', display: 'summarized' });
  });

  it('uses a budget below max_tokens where only enabled exists, and none when max_tokens leaves no room', () => {
    const p = thinkingParam(BUDGET, 'adaptive', 32_000, [user('x')]);
    assert.equal(p?.type, 'enabled');
    assert.ok(p?.type === 'enabled' && p.budget_tokens >= 1024 && p.budget_tokens < 32_000);
    assert.equal(thinkingParam(BUDGET, 'adaptive', 2000, [user('x')]), undefined);
  });

  it('sends nothing for unknown capabilities; off sends disabled, or nothing where thinking is always on', () => {
    assert.equal(thinkingParam({}, 'adaptive', 32_000, [user('x')]), undefined);
    assert.equal(thinkingParam({}, 'off', 32_000, [user('x')]), undefined);
    assert.deepEqual(thinkingParam(ADAPTIVE, 'off', 32_000, [user('x')]), { type: 'disabled' });
    assert.equal(thinkingParam(ALWAYS, 'off', 32_000, [user('x')]), undefined);
  });

  it('holds a budget back inside a tool loop whose turn did not think (the API would refuse it)', () => {
    assert.equal(toolLoopWithoutThinking(toolTurn('text')), true);
    assert.equal(toolLoopWithoutThinking(toolTurn('thinking')), false);
    assert.equal(toolLoopWithoutThinking([...toolTurn('text'), { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, user('next')]), false);
    assert.equal(thinkingParam(BUDGET, 'adaptive', 32_000, toolTurn('text')), undefined);
    assert.equal(thinkingParam(BUDGET, 'adaptive', 32_000, toolTurn('thinking'))?.type, 'enabled');
    assert.equal(thinkingParam(ADAPTIVE, 'adaptive', 32_000, toolTurn('text'))?.type, 'adaptive', 'adaptive may skip thinking, so no such rule');
  });
});
