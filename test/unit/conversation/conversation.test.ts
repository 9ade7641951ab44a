import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { Conversation, firstChange, type HistoryChange } from '../../../src/conversation/conversation';
import { TokenMeter } from '../../../src/conversation/tokenMeter';
import { estimateTokens } from '../../../src/conversation/tokens';
import { createToolRegistry } from '../../../src/tools/builtin';
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

  it('keeps every compaction record and prompt reference a change brings, once, and tells listeners', () => {
    const c = new Conversation();
    const seen: HistoryChange[] = [];
    c.onDidChange((e) => seen.push(e));
    const record = { id: 'k1', block: 'sum', replaced: [user('q'), asst('a')], merged: false, fixed: [] };
    const ref = { len: 1, hash: 'h'.repeat(64), nth: 0 };
    c.set([user('q')], 'user', { prompts: { u1: ref } });
    c.set([user('sum')], 'compaction', { records: [record] });
    c.set([user('sum'), asst('b')], 'turn', { records: [record] });
    assert.deepEqual(c.compactions, [record]);
    assert.deepEqual(c.prompt('u1'), ref);
    assert.deepEqual(seen.map((e) => [e.reason, e.records?.length ?? 0, Object.keys(e.prompts ?? {})]), [
      ['user', 0, ['u1']],
      ['compaction', 1, []],
      ['turn', 1, []],
    ]);
    c.load([], {});
    assert.deepEqual(c.compactions, [], 'another session starts with its own');
    assert.equal(c.prompt('u1'), undefined);
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
