import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { Conversation, firstChange, type HistoryChange } from '../../../src/conversation/conversation';
import { TokenMeter } from '../../../src/conversation/tokenMeter';
import { estimateTokens } from '../../../src/conversation/tokens';
import { createToolRegistry } from '../../../src/agent/tools';
import { ToolRegistry } from '../../../src/tools/registry';
import { toInputSchema } from '../../../src/tools/schema';
import { z } from 'zod';

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const asst = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('Conversation', () => {
  it('tells listeners only what changed: an append, a replaced tail, a full replacement', () => {
    const c = new Conversation();
    const seen: HistoryChange[] = [];
    c.onDidChange((e) => seen.push(e));
    const a = user('a');
    const b = asst('b');
    c.set([a], 'user');
    c.set([a, b], 'turn');
    const merged = user('c');
    c.set([a, b, merged], 'user');
    c.set([a, b, user('c+d')], 'user');
    c.set([user('summary')], 'compaction');
    assert.deepEqual(
      seen.map((e) => [e.from, e.messages.length, e.reason]),
      [
        [0, 1, 'user'],
        [1, 1, 'turn'],
        [2, 1, 'user'],
        [2, 1, 'user'],
        [0, 1, 'compaction'],
      ],
    );
    assert.equal(firstChange([a, b], [a, b]), 2);
  });

  it('keeps one undo point, retired by a turn on top of it', () => {
    const c = new Conversation();
    const before = [user('q'), asst('a')];
    c.set(before, 'load');
    assert.equal(c.rememberUndo('d1', before), undefined);
    c.set([user('sum')], 'compaction');
    assert.equal(c.rememberUndo('d2', before), 'd1', 'a newer compaction retires the older undo');
    assert.equal(c.undo('d1'), false);
    assert.equal(c.undo('d2'), true);
    assert.deepEqual(c.history, before);
    c.rememberUndo('d3', before);
    assert.equal(c.retireUndo(), 'd3');
    assert.equal(c.undo('d3'), false);
  });

  it('marks share the growing history array instead of copying it per message', () => {
    const c = new Conversation();
    c.set([user('q1'), asst('a1')], 'turn');
    c.mark('u2');
    c.set([...c.history, user('q2'), asst('a2')], 'turn');
    c.shareMarks();
    assert.deepEqual(c.marked('u2')!.map((m) => (m.content as Array<{ text: string }>)[0]!.text), ['q1', 'a1']);
    c.keepMarks(new Set());
    assert.equal(c.marked('u2'), undefined);
  });
});

describe('TokenMeter', () => {
  it('counts system and tools before the first response, and anchors on usage after it', () => {
    const m = new TokenMeter();
    const h = [user('x'.repeat(400))];
    m.setOverhead(1000);
    assert.equal(m.used(h), 1000 + estimateTokens(h));
    m.anchor({ inputTokens: 5000, outputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, 1);
    const answered = [...h, asst('y')];
    assert.equal(m.used(answered), 5100, 'the answer is inside the anchor');
    assert.equal(m.used([...answered, user('z'.repeat(40))]), 5100 + estimateTokens([user('z'.repeat(40))]));
    m.invalidateFrom(1);
    assert.equal(m.used(answered), 5100, 'appending the answer does not invalidate');
    m.invalidateFrom(0);
    assert.equal(m.used(answered), 1000 + estimateTokens(answered), 'a change inside the request does');
  });
});

describe('ToolRegistry and tool schemas', () => {
  it('answers questions from traits, refuses duplicate names, and gives clean input schemas', () => {
    const r = createToolRegistry();
    assert.equal(r.has('writesFiles', 'Edit'), true);
    assert.equal(r.has('writesFiles', 'Read'), false);
    assert.equal(r.has('runsCommands', 'Nope'), false);
    assert.throws(() => new ToolRegistry([...r.tools, r.tools[0]!]), /share a name/);
    for (const d of r.definitions()) {
      assert.equal(d.input_schema.type, 'object');
      assert.equal('$schema' in d.input_schema, false, `${d.name}: no $schema key`);
      assert.doesNotMatch(JSON.stringify(d.input_schema), /9007199254740991/);
    }
    const s = toInputSchema(z.object({ n: z.number().int().min(1).optional().describe('count') }));
    assert.deepEqual(s, { type: 'object', properties: { n: { type: 'integer', minimum: 1, description: 'count' } } });
  });
});
