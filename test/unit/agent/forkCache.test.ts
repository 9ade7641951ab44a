import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { SUMMARY_TOOLS_REFUSED } from '../../../src/compact/summaryRequest';
import { type RecordedRequest } from '../../standin/server';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

interface Body {
  system: unknown;
  tools: unknown;
  thinking?: unknown;
  messages: MessageParam[];
}
const bodyOf = (r: RecordedRequest) => r.body as Body;
const readShare = (r: RecordedRequest) => {
  const u = r.usage!;
  return u.cache_read_input_tokens / (u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens);
};
const lastText = (r: RecordedRequest) => JSON.stringify(bodyOf(r).messages.at(-1));
const breakpoints = (b: Body) => (JSON.stringify([b.system, b.tools, b.messages]).match(/"cache_control"/g) ?? []).length;

// Enough text that every prefix is well over the cache's minimum, as in a real session.
const bulk = (tag: string) => Array.from({ length: 900 }, (_, i) => `${tag} row ${i}: a line of data the session has been working with`).join('\n');

function setup(opts: { notes?: boolean; auto?: boolean } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-forkcache-'));
  const dir = join(mkdtempSync(join(tmpdir(), 'tl-forkcache-mem-')), 'memory');
  const notesPath = join(cwd, '.notes', 'session.md');
  const { agent } = createStandinAgent({
    url: standin.url,
    cwd,
    settings: { model: 'claude-sonnet-4-6', contextWindow: 200_000 },
    headless: true,
    extra: { memory: { dir, enabled: () => opts.auto ?? true, ...(opts.notes ? { sessionNotesPath: notesPath } : {}) } },
  });
  return { agent, notesPath };
}

describe('forks share the main loop prefix', () => {
  it('the memory extraction fork sends the main request byte for byte plus its instruction, and reads >= 90% from the cache', async () => {
    const { agent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Here is the answer.' }] }, { content: [{ type: 'text', text: 'Nothing to save.' }] });
    await agent.submit(`Look at this data:\n${bulk('a')}`);
    await agent.drain();
    assert.equal(standin.requests.length, 2, 'the answer, then the extraction fork');
    const [main, fork] = standin.requests.map(bodyOf) as [Body, Body];
    assert.deepEqual(fork.system, main.system, 'same system blocks');
    assert.deepEqual(fork.tools, main.tools, 'same tool definitions');
    assert.deepEqual(fork.thinking, main.thinking, 'same thinking setting (a change would invalidate the cached messages)');
    const stripped = (ms: MessageParam[]) => JSON.parse(JSON.stringify(ms).replace(/,"cache_control":\{"type":"ephemeral"\}/g, '')) as MessageParam[];
    assert.deepEqual(stripped(fork.messages).slice(0, main.messages.length), stripped(main.messages), 'the main messages are the prefix');
    assert.match(lastText(standin.requests[1]!), /remembered in future conversations/, 'the instruction comes last');
    assert.ok(breakpoints(fork) <= 4, 'within the API limit of four breakpoints');
    assert.ok(readShare(standin.requests[1]!) >= 0.9, `fork read share ${readShare(standin.requests[1]!).toFixed(3)}`);
  });

  it('the session-notes fork reads >= 90% of its request from the cache, and its successful edit ends it', async () => {
    const { agent, notesPath } = setup({ notes: true, auto: false });
    standin.enqueue(
      { content: [{ type: 'text', text: 'Loaded.' }] },
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: notesPath, old_string: '## Current task', new_string: '## Current task\nLook at the rows.' } }] },
    );
    await agent.submit(`Please look at this:\n${bulk('b')}\n${bulk('c')}\n${bulk('d')}`);
    await agent.drain();
    const forks = standin.requests.slice(1);
    assert.equal(forks.length, 1, 'the notes fork: its edit, and no request for closing words');
    assert.match(lastText(forks[0]!), /session notes/i);
    for (const r of forks) assert.ok(readShare(r) >= 0.9, `notes fork read share ${readShare(r).toFixed(3)}`);
  });

  it('a notes edit that fails gets its result back and another turn to fix it', async () => {
    const { agent, notesPath } = setup({ notes: true, auto: false });
    standin.enqueue(
      { content: [{ type: 'text', text: 'Loaded.' }] },
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: notesPath, old_string: '## Not a heading there', new_string: 'x' } }] },
      { content: [{ type: 'text', text: 'I could not edit it.' }] },
    );
    await agent.submit(`Please look at this:\n${bulk('h')}\n${bulk('i')}\n${bulk('j')}`);
    await agent.drain();
    const forks = standin.requests.slice(1);
    assert.equal(forks.length, 2, 'the failed edit, then a turn that sees its error');
    assert.match(lastText(forks[1]!), /is_error/);
  });

  it('a fork that calls a tool outside its own set is refused by name, and nothing runs', async () => {
    const { agent } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'answer' }] },
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch hacked' } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    await agent.submit('hello');
    await agent.drain();
    assert.ok((bodyOf(standin.requests[1]!).tools as Array<{ name: string }>).some((t) => t.name === 'Bash'), 'the fork sees the main tool list');
    assert.match(lastText(standin.requests[2]!), /background agent may not use Bash/);
  });

  it('the compaction summary extends the cached conversation and reads >= 90% from the cache', async () => {
    const { agent } = setup({ auto: false });
    standin.enqueue({ content: [{ type: 'text', text: 'First answer.' }] }, { content: [{ type: 'text', text: 'Second answer.' }] });
    await agent.submit(`Part one:\n${bulk('e')}`);
    await agent.submit(`Part two:\n${bulk('f')}`);
    standin.enqueue({ content: [{ type: 'text', text: '<summary>1. Primary request: look at the rows.</summary>' }] });
    assert.equal(await agent.compactNow(), true);
    const [, second, summary] = standin.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
    assert.match(lastText(summary), /about to be replaced by a summary/);
    assert.deepEqual(bodyOf(summary).tools, bodyOf(second).tools, 'the summary sees the same tools (a different list would miss the cache)');
    assert.deepEqual(bodyOf(summary).system, bodyOf(second).system);
    assert.ok(readShare(summary) >= 0.9, `summary read share ${readShare(summary).toFixed(3)}`);
    assert.match(JSON.stringify(agent.messages), /look at the rows/);
  });

  it('a summary reply that calls a tool is refused and asked again; the summary still comes back', async () => {
    const { agent } = setup({ auto: false });
    standin.enqueue({ content: [{ type: 'text', text: 'First answer.' }] });
    await agent.submit(`Part one:\n${bulk('g')}`);
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: '/etc/hostname' } }] },
      { content: [{ type: 'text', text: '<summary>1. Primary request: part one of the rows.</summary>' }] },
    );
    assert.equal(await agent.compactNow(), true);
    assert.equal(standin.requests.length, 3, 'the answer, the summary request, the request asked again');
    const retry = standin.requests[2]!;
    assert.equal(retry.validationError, null, 'the retry is a valid request (the tool call is answered)');
    assert.ok(lastText(retry).includes(SUMMARY_TOOLS_REFUSED));
    assert.ok(readShare(retry) >= 0.9, 'the retry reads the cache too');
    assert.match(JSON.stringify(agent.messages), /part one of the rows/);
  });

  it('a summary reply that calls a tool after a blank line of text is asked again with a request the API accepts', async () => {
    const { agent } = setup({ auto: false });
    standin.enqueue({ content: [{ type: 'text', text: 'First answer.' }] });
    await agent.submit(`Part one:\n${bulk('g')}`);
    standin.enqueue(
      { content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', name: 'Read', input: { file_path: '/etc/hostname' } }] },
      { content: [{ type: 'text', text: '<summary>1. Primary request: part one of the rows.</summary>' }] },
    );
    assert.equal(await agent.compactNow(), true);
    const retry = standin.requests[2]!;
    assert.equal(retry.validationError, null, 'the blank text block is not echoed back');
    assert.match(JSON.stringify(agent.messages), /part one of the rows/);
  });

  it('after tool results the main request uses all four breakpoints; a fork gives up the one before the next clearing for its own at the parent\'s end', async () => {
    const { agent } = setup();
    standin.enqueue(
      ...['a', 'b'].map((x) => ({ content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: `printf '%s' "${bulk(x).slice(0, 6000)}"` } }] })),
      { content: [{ type: 'text', text: 'Both printed.' }] },
      { content: [{ type: 'text', text: 'Nothing to save.' }] },
    );
    await agent.submit(`Print two blocks:\n${bulk('k')}`);
    await agent.drain();
    const main = standin.requests.filter((r) => !/remembered in future conversations/.test(lastText(r)));
    const fork = standin.requests.find((r) => /remembered in future conversations/.test(lastText(r)));
    assert.ok(fork, 'the extraction fork ran');
    assert.equal(breakpoints(bodyOf(main.at(-1)!)), 4, 'system twice, before the oldest result, the end');
    assert.equal(fork.validationError, null);
    assert.equal(breakpoints(bodyOf(fork)), 4);
    const forkBlocks = bodyOf(fork).messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    assert.ok(JSON.stringify(forkBlocks.at(-2)).includes('cache_control'), 'the parent\'s last block carries the fork\'s breakpoint');
    assert.ok(readShare(fork) >= 0.9);
  });
});
