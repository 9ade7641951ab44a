// Findings 6-7: answers a real model (or an Anthropic-compatible server) gives that the stand-in's
// usual scripts do not, and after which every later request of the session is refused.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadClaudeSession } from '../../src/sessions/claudeCode';
import { startStandin, type Standin } from '../standin/server';
import { validateRequest } from '../standin/validate';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

let standin: Standin;
before(async () => {
  standin = await startStandin();
});
after(() => standin.close());
beforeEach(() => standin.reset());

const refusals = () => standin.requests.filter((r) => r.validationError).map((r) => r.validationError);
const lastAnswer = (messages: ReadonlyArray<{ kind: string }>) => {
  const last = [...messages].reverse().find((m) => m.kind === 'assistant') as { text?: string } | undefined;
  return last?.text;
};

describe('finding 6: a text block of only whitespace is kept in history', () => {
  // Claude sometimes answers "\n\n" before a tool call (kibitz#78, opencode#3194 saw it); the
  // API then refuses every request that carries it back: "text content blocks must contain
  // non-whitespace text". toParam in queryLoop.ts keeps any text with length > 0.
  it('"\\n\\n" before a tool call: the turn still finishes', async () => {
    const cwd = tempDir('ws');
    writeFileSync(join(cwd, 'a.txt'), 'hello');
    const { agent, store } = createStandinAgent({ url: standin.url, cwd });
    standin.enqueue({ content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'text', text: 'it says hello' }] });
    await agent.submit('what is in a.txt?');
    assert.deepEqual(refusals(), []);
    assert.equal(lastAnswer(store.getState().messages), 'it says hello');
  });

  it('an answer of only whitespace does not wedge the session', async () => {
    const cwd = tempDir('ws');
    const { agent, store } = createStandinAgent({ url: standin.url, cwd });
    standin.enqueue({ content: [{ type: 'text', text: ' \n' }] }, { content: [{ type: 'text', text: 'second answer' }] });
    await agent.submit('one');
    await agent.submit('two');
    assert.deepEqual(refusals(), []);
    assert.equal(lastAnswer(store.getState().messages), 'second answer');
  });

  it('a history saved before the fix (blank blocks in it) is cleaned before it is sent', async () => {
    const { agent } = createStandinAgent({ url: standin.url, cwd: tempDir('ws') });
    agent.setHistory([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, { type: 'text', text: 'the answer' }] },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
      { role: 'assistant', content: [{ type: 'text', text: ' \n' }] },
    ]);
    standin.enqueue({ content: [{ type: 'text', text: 'third answer' }] });
    await agent.submit('three');
    assert.deepEqual(refusals(), []);
    const sent = (standin.requests.at(-1)!.body as { messages: Array<{ content: unknown }> }).messages;
    assert.deepEqual(sent[3]!.content, [{ type: 'text', text: '(no content)' }]);
  });
});

describe('finding 7: two tool calls with one id', () => {
  // A proxy or compatible server (threadline.apiBaseUrl) that repeats ids: both calls run, both
  // results carry the id, and the API refuses the history ("`tool_use` ids must be unique") on
  // this and every later request. Claude Code's peers rename colliding ids or refuse the reply.
  it('the session goes on', async () => {
    const cwd = tempDir('dup');
    writeFileSync(join(cwd, 'a.txt'), 'hello');
    const { agent, store } = createStandinAgent({ url: standin.url, cwd });
    const read = { type: 'tool_use' as const, id: 'toolu_01', name: 'Read', input: { file_path: 'a.txt' } };
    standin.enqueue({ content: [read, { ...read, input: { file_path: 'b.txt' } }] }, { content: [{ type: 'text', text: 'read both' }] }, { content: [{ type: 'text', text: 'next' }] });
    await agent.submit('read a and b');
    await agent.submit('and then?');
    assert.deepEqual(refusals(), []);
    assert.equal(lastAnswer(store.getState().messages), 'next');
  });

  it('a server that says toolu_01 on every turn: each call keeps its own result', async () => {
    const cwd = tempDir('dup');
    writeFileSync(join(cwd, 'a.txt'), 'alpha');
    writeFileSync(join(cwd, 'b.txt'), 'bravo');
    const { agent, store } = createStandinAgent({ url: standin.url, cwd });
    const read = (file: string) => ({ content: [{ type: 'tool_use' as const, id: 'toolu_01', name: 'Read', input: { file_path: file } }] });
    standin.enqueue(read('a.txt'), read('b.txt'), { content: [{ type: 'text', text: 'both read' }] });
    await agent.submit('read a, then b');
    assert.deepEqual(refusals(), []);
    assert.equal(lastAnswer(store.getState().messages), 'both read');
    // The second call's result is b.txt's, under the second call's (new) id.
    const sent = (standin.requests.at(-1)!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages;
    const calls = sent.flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));
    const results = sent.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    assert.equal(new Set(calls.map((c) => c.id)).size, 2);
    assert.equal(results[1]!.tool_use_id, calls[1]!.id);
    assert.match(JSON.stringify(results[1]!.content), /bravo/);
  });

  it('a Claude Code transcript with a repeated id imports as a history the API takes', async () => {
    const base = { sessionId: 's', cwd: '/w', version: '2.1.197', userType: 'external', isSidechain: false };
    const call = (file: string) => ({ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: file } });
    const result = (text: string) => ({ type: 'tool_result', tool_use_id: 'toolu_01', content: text });
    const lines = [
      { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'read a and b' } },
      { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'm1', role: 'assistant', content: [call('a'), call('b')] } },
      { ...base, type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: [result('alpha'), result('bravo')] } },
      { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'u2', message: { id: 'm2', role: 'assistant', content: [call('c')] } },
      { ...base, type: 'user', uuid: 'u3', parentUuid: 'a2', message: { role: 'user', content: [result('charlie')] } },
      { ...base, type: 'assistant', uuid: 'a3', parentUuid: 'u3', message: { id: 'm3', role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
    ];
    const file = join(tempDir('ccdup'), 's.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const { history } = await loadClaudeSession(file);
    assert.equal(validateRequest({ model: 'm', max_tokens: 1, messages: [...history, { role: 'user', content: 'next' }] }), null);
    const pairs = new Map<string, string>();
    const calls: string[] = [];
    for (const m of history) {
      if (typeof m.content === 'string') continue;
      for (const b of m.content) {
        if (b.type === 'tool_use') calls.push(`${b.id}:${(b.input as { file_path: string }).file_path}`);
        if (b.type === 'tool_result') pairs.set(b.tool_use_id, String(b.content));
      }
    }
    const answered = calls.map((c) => `${c.split(':')[1]}=${pairs.get(c.split(':')[0]!)}`);
    assert.deepEqual(answered, ['a=alpha', 'b=bravo', 'c=charlie']);
  });
});
