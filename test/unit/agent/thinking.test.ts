import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ContentBlockParam, MessageParam } from '../../../src/api/types';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore } from '../../../src/sessions/sessionStore';
import { type RecordedRequest } from '../../standin/server';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const cwd = mkdtempSync(join(tmpdir(), 'tl-think-'));
writeFileSync(join(cwd, 'a.txt'), 'contents of a\n');

const standin = useStandin();

const bodyOf = (r: RecordedRequest | undefined) => r!.body as { model: string; thinking?: { type: string; budget_tokens?: number }; messages: MessageParam[] };
const blockTypes = (m: MessageParam | undefined) => (m && typeof m.content !== 'string' ? m.content.map((b) => b.type) : []);
const allValid = () => assert.deepEqual(standin.requests.map((r) => r.validationError), standin.requests.map(() => null), 'every request passed the API rules');

function agentFor(model: string, extra: Parameters<typeof createStandinAgent>[0]['extra'] = {}) {
  return createStandinAgent({ url: standin.url, cwd, settings: { model }, rules: { allow: ['Read'] }, extra });
}

const thinkThenRead = { content: [{ type: 'thinking' as const, thinking: 'Read a.txt first.' }, { type: 'redacted_thinking' as const }, { type: 'tool_use' as const, name: 'Read', input: { file_path: 'a.txt' } }] };
const thinkThenAnswer = { content: [{ type: 'thinking' as const, thinking: 'Now I know.' }, { type: 'text' as const, text: 'It says contents of a.' }] };

describe('thinking through the agent loop', () => {
  it('asks for adaptive thinking, streams it, and sends the signed blocks back through the tool loop', async () => {
    standin.enqueue(thinkThenRead, thinkThenAnswer);
    const thought: string[] = [];
    const { agent } = agentFor('claude-sonnet-4-6', { loopEvents: { onThinkingDelta: (t) => thought.push(t) } });
    await agent.submit('what is in a.txt?');
    assert.equal(agent.outcome, 'end_turn');
    allValid();
    assert.equal(standin.requests.length, 2);
    for (const r of standin.requests) assert.deepEqual(bodyOf(r).thinking, { type: 'adaptive', display: 'summarized' });
    assert.equal(thought.join(''), 'Read a.txt first.Now I know.');
    const second = bodyOf(standin.requests[1]).messages;
    assert.deepEqual(blockTypes(second.at(-2)), ['thinking', 'redacted_thinking', 'tool_use']);
    const history = agent.messages;
    assert.deepEqual(blockTypes(history.at(-1)), ['thinking', 'text']);
    // The next question goes out with every earlier thinking block as it was received.
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('thanks');
    allValid();
  });

  it('uses a budget on a model without adaptive thinking, and waits for the next turn when thinking is switched on mid tool loop', async () => {
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'text', text: 'done' }] });
    const { agent, store } = agentFor('claude-haiku-4-5', {
      // The user turns thinking on while the first tool runs.
      loopEvents: { onToolCall: () => store.setState((s) => ({ ...s, settings: { ...s.settings, thinking: 'adaptive' } })) },
    });
    store.setState((s) => ({ ...s, settings: { ...s.settings, thinking: 'off' } }));
    await agent.submit('read it');
    assert.equal(agent.outcome, 'end_turn');
    allValid();
    assert.deepEqual(bodyOf(standin.requests[0]).thinking, { type: 'disabled' });
    assert.equal(bodyOf(standin.requests[1]).thinking, undefined, 'the tool turn had no thinking: enabled would be refused');
    standin.enqueue({ content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'sure' }] });
    await agent.submit('again');
    allValid();
    const t = bodyOf(standin.requests[2]).thinking;
    assert.equal(t?.type, 'enabled');
    assert.ok(t!.budget_tokens! >= 1024 && t!.budget_tokens! < 32_000);
  });

  it('Stop while thinking streams drops the unsigned thinking; Continue is accepted', async () => {
    standin.enqueue({ content: [{ type: 'thinking', thinking: 'a long line of thought that is cut short by Stop' }, { type: 'text', text: 'never' }], chunkChars: 4, chunkDelayMs: 15 });
    const { agent } = agentFor('claude-sonnet-4-6', { loopEvents: { onThinkingDelta: () => agent.stop() } });
    await agent.submit('think');
    assert.equal(agent.outcome, 'aborted');
    assert.ok(!JSON.stringify(agent.messages).includes('"thinking"'), 'no partial thinking in history');
    standin.enqueue({ content: [{ type: 'text', text: 'continued' }] });
    await agent.continue();
    assert.equal(agent.outcome, 'end_turn');
    allValid();
  });

  it('Stop after a tool call streamed keeps the signed thinking, so Continue is accepted with thinking on', async () => {
    standin.enqueue(thinkThenRead);
    const { agent } = agentFor('claude-sonnet-4-6', { loopEvents: { onToolCall: () => agent.stop() } });
    await agent.submit('read it');
    assert.equal(agent.outcome, 'aborted');
    standin.enqueue({ content: [{ type: 'text', text: 'continued' }] });
    await agent.continue();
    assert.equal(agent.outcome, 'end_turn', JSON.stringify(standin.requests.at(-1)?.validationError));
    allValid();
    const sent = bodyOf(standin.requests.at(-1)).messages;
    assert.deepEqual(blockTypes(sent.at(-2)), ['thinking', 'redacted_thinking', 'tool_use']);
  });

  it('Stop while the answer streams after a finished tool call keeps that turn\'s signed thinking with it', async () => {
    standin.enqueue({ content: [...thinkThenRead.content, { type: 'text', text: 'and some words after the call' }], chunkChars: 3, chunkDelayMs: 15 });
    let stopped = false;
    const { agent } = agentFor('claude-sonnet-4-6', { loopEvents: { onTextDelta: () => stopped || ((stopped = true), agent.stop()) } });
    await agent.submit('read it');
    assert.equal(agent.outcome, 'aborted');
    const turn = agent.messages.find((m) => m.role === 'assistant');
    assert.deepEqual(blockTypes(turn), ['thinking', 'redacted_thinking', 'tool_use', 'text']);
    standin.enqueue({ content: [{ type: 'text', text: 'continued' }] });
    await agent.continue();
    assert.equal(agent.outcome, 'end_turn', String(standin.requests.at(-1)?.validationError));
    allValid();
  });

  it('a stream that fails after its thinking is retried whole: only the second, signed thinking is kept', async () => {
    standin.enqueue({ ...thinkThenAnswer, fault: { kind: 'stream-error', afterEvents: 6 } }, thinkThenAnswer);
    const { agent } = agentFor('claude-sonnet-4-6');
    await agent.submit('think twice');
    assert.equal(agent.outcome, 'end_turn');
    assert.deepEqual(blockTypes(agent.messages.at(-1)), ['thinking', 'text']);
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('next');
    allValid();
  });

  it('off sends disabled, and the stand-in leaves thinking out', async () => {
    standin.enqueue(thinkThenAnswer);
    const { agent, store } = agentFor('claude-sonnet-4-6');
    store.setState((s) => ({ ...s, settings: { ...s.settings, thinking: 'off' } }));
    await agent.submit('no thinking please');
    assert.deepEqual(bodyOf(standin.requests[0]).thinking, { type: 'disabled' });
    assert.deepEqual(blockTypes(agent.messages.at(-1)), ['text']);
  });

  it('a session saved with thinking in its tool loop resumes into a valid request', async () => {
    standin.enqueue(thinkThenRead, thinkThenAnswer);
    const { agent, store } = agentFor('claude-sonnet-4-6');
    await agent.submit('read it');
    const sessions = new SessionStore(mkdtempSync(join(tmpdir(), 'tl-think-sessions-')));
    const recorder = new SessionRecorder(sessions, { id: 's1', cwd, model: 'claude-sonnet-4-6' });
    await recorder.sync(agent.messages, store.getState().messages, 0);
    await recorder.flush();
    const loaded = await sessions.load('s1');
    assert.deepEqual(loaded.history, agent.messages);
    const { agent: resumed } = agentFor('claude-sonnet-4-6');
    resumed.setHistory(loaded.history as MessageParam[]);
    standin.enqueue({ content: [{ type: 'text', text: 'resumed' }] });
    await resumed.submit('and now?');
    assert.equal(resumed.outcome, 'end_turn');
    allValid();
    const thinkingBlocks = bodyOf(standin.requests.at(-1)).messages.flatMap((m) => (typeof m.content === 'string' ? [] : (m.content as ContentBlockParam[]))).filter((b) => b.type === 'thinking');
    assert.equal(thinkingBlocks.length, 2);
  });
});
