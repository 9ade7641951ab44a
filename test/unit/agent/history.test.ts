import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { appendUserContent, lastUserText, unansweredToolUses } from '../../../src/conversation/history';

describe('appendUserContent', () => {
  it('starts a new user message after an assistant message', () => {
    const h: MessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ];
    const next = appendUserContent(h, [{ type: 'text', text: 'more' }]);
    assert.equal(next.length, 3);
    assert.equal(next[2]!.role, 'user');
    assert.equal(h.length, 2, 'input untouched');
  });

  it('merges into a trailing user message and keeps tool_results first', () => {
    const h: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'note' }] }];
    const next = appendUserContent(h, [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]);
    assert.equal(next.length, 1);
    const content = next[0]!.content as { type: string }[];
    assert.deepEqual(content.map((b) => b.type), ['tool_result', 'text']);
  });

  it('turns string content into a block when merging', () => {
    const next = appendUserContent([{ role: 'user', content: 'a' }], [{ type: 'text', text: 'b' }]);
    assert.deepEqual(next[0]!.content, [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });
});

describe('history queries', () => {
  it('finds the last user text and unanswered tool uses', () => {
    const h: MessageParam[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
    ];
    assert.equal(lastUserText(h), 'first');
    assert.deepEqual(unansweredToolUses(h), ['t1']);
    assert.deepEqual(unansweredToolUses([{ role: 'user', content: 'x' }]), []);
  });
});
