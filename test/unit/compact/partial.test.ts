import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AssistantTurn, ContentBlockParam, MessageParam, MessagesRequest } from '../../../src/api/types';
import { compactWithSummary, type SummaryClient } from '../../../src/compact/compact';
import { CompactionRefused, compactPartially, partialPoints } from '../../../src/compact/partial';
import { historyBefore, recordCompaction, undoableCompactions, undoCompaction } from '../../../src/compact/undo';
import { appendUserContent } from '../../../src/conversation/history';

const signal = new AbortController().signal;
const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

function client(): SummaryClient & { requests: MessagesRequest[] } {
  const requests: MessagesRequest[] = [];
  return {
    requests,
    async stream(request): Promise<AssistantTurn> {
      requests.push(request);
      return { blocks: [{ type: 'text', text: `<summary>Summary ${requests.length}.</summary>` }], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, model: 'm' };
    },
  };
}

/** Four rounds with long answers, so that summarising any of them frees room. */
const session = (): MessageParam[] => [user('first task'), assistant('a'.repeat(4000)), user('second task'), assistant('b'.repeat(4000)), user('third task'), assistant('c'.repeat(4000)), user('fourth task'), assistant('d'.repeat(4000))];
const texts = (m: MessageParam) => (typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
const requestText = (r: MessagesRequest) => r.messages.flatMap(texts).join('\n');

describe('partial compaction', () => {
  it('"up to here" summarises only what comes before the message, with the focus asked for, and keeps the rest word for word', async () => {
    const history = session();
    const c = client();
    const archived: MessageParam[][] = [];
    const r = await compactPartially({ history, at: 4, direction: 'upTo', focus: 'the parser', client: c, model: 'm', signal, archive: async (h) => void archived.push([...h]) });
    assert.equal(c.requests.length, 1);
    assert.match(requestText(c.requests[0]!), /second task/);
    assert.doesNotMatch(requestText(c.requests[0]!), /third task/, 'the kept part is not sent to be summarised');
    assert.match(requestText(c.requests[0]!), /focus on: the parser/);
    assert.deepEqual(r.history.slice(1), history.slice(5));
    assert.deepEqual(texts(r.history[0]!).slice(1), ['third task']);
    assert.match(texts(r.history[0]!)[0]!, /Summary 1\./);
    assert.ok(r.tokensAfter < r.tokensBefore, `${r.tokensAfter} < ${r.tokensBefore}`);
    assert.deepEqual(archived, [history], 'the originals are archived before anything is replaced');
  });

  it('"from here" sends the whole conversation (its cache), names where the summary starts, and keeps what is before word for word', async () => {
    const history = session();
    const c = client();
    const r = await compactPartially({ history, at: 4, direction: 'from', client: c, model: 'm', signal });
    assert.match(requestText(c.requests[0]!), /first task[\s\S]*fourth task[\s\S]*starts with: "third task"/);
    assert.deepEqual(r.history.slice(0, 4), history.slice(0, 4));
    assert.equal(r.history.length, 5);
    assert.match(texts(r.history[4]!)[0]!, /from here on, was summarised[\s\S]*Summary 1\./);
  });

  it('refuses what would not make the conversation smaller, and a point that is not a message of yours', async () => {
    const small = [user('hi'), assistant('hello'), user('bye'), assistant('ok')];
    await assert.rejects(compactPartially({ history: small, at: 2, direction: 'upTo', client: client(), model: 'm', signal }), (e: unknown) => e instanceof CompactionRefused && /not make the conversation smaller/.test(e.message));
    const withTool: MessageParam[] = [user('go'), { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] }, assistant('done')];
    assert.deepEqual(partialPoints(withTool, 'upTo'), []);
    await assert.rejects(compactPartially({ history: withTool, at: 2, direction: 'upTo', client: client(), model: 'm', signal }), CompactionRefused);
  });
});

describe('undo of any compaction', () => {
  it('undoes an older compaction after a newer one, and the newer one stays undoable', async () => {
    const history = session();
    const full = await compactWithSummary({ history: history.slice(0, 4), client: client(), model: 'm', signal });
    const first = recordCompaction('c1', history.slice(0, 4), full);
    let h = [...first.history, ...history.slice(4)];
    h = appendUserContent([...h, assistant('e'.repeat(4000))], [{ type: 'text', text: 'fifth task' }]);
    h = [...h, assistant('f'.repeat(4000))];
    const at = h.findIndex((m) => texts(m).includes('fifth task'));
    const from = await compactPartially({ history: h, at, direction: 'from', client: client(), model: 'm', signal });
    const second = recordCompaction('c2', h, from, [first.record]);
    assert.deepEqual(undoableCompactions(second.history, [first.record, second.record]), ['c1', 'c2']);
    const olderUndone = undoCompaction(second.history, first.record)!;
    assert.deepEqual(olderUndone.slice(0, 4), history.slice(0, 4), 'the older compaction is undone');
    assert.deepEqual(undoableCompactions(olderUndone, [first.record, second.record]), ['c2']);
    assert.deepEqual(undoCompaction(olderUndone, second.record), [...history.slice(0, 4), ...h.slice(1)]);
  });

  it('rewinds to a message a compaction hides by undoing just that compaction', async () => {
    const history = session();
    const r = await compactPartially({ history, at: 6, direction: 'upTo', client: client(), model: 'm', signal });
    const { record, history: h } = recordCompaction('c1', history, r);
    const is = (t: string) => (b: ContentBlockParam) => b.type === 'text' && b.text === t;
    assert.deepEqual(historyBefore(h, [record], is('second task')), { history: history.slice(0, 2), undone: ['c1'] });
    const afterKept = historyBefore(h, [record], is('fourth task'))!;
    assert.deepEqual(afterKept.undone, [], 'a rewind to a kept message keeps the compaction before it');
    // The summary shares its message with the kept one: the blocks before the target stay.
    assert.deepEqual(afterKept.history, [{ role: 'user', content: [{ type: 'text', text: record.block }] }]);
  });
});
