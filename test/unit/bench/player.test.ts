import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunLedger } from '../../../bench/cost/accounting';
import { SessionPlayer } from '../../../bench/cost/player';
import { buildSession, type SessionSpec } from '../../../bench/cost/session';
import type { RecordedRequest, ScriptedTurn } from '../../standin/server';

type Json = Record<string, unknown>;

const READ_TOOL = { name: 'Read', description: 'read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } };
const CLINE_TOOL = { name: 'read_files', description: 'read', input_schema: { type: 'object', properties: { files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' } } } } } } };

function rec(body: Json, usage = { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 }): RecordedRequest {
  return { method: 'POST', path: '/v1/messages', headers: {}, body, status: 200, validationError: null, apiKey: 'k', at: 0, usage };
}

/** Numbered lines, as a Read tool shows a file. */
const shown = (s: SessionSpec, path: string, cut = Infinity) =>
  s.files
    .get(path)!
    .text.split('\n')
    .slice(0, Math.min(cut, s.files.get(path)!.lines))
    .map((l, i) => `${i + 1}\t${l}`)
    .join('\n');

/** Drives a player the way an agent would: each answer's tool call comes back with the file. */
class FakeAgent {
  messages: Json[] = [];
  constructor(
    readonly s: SessionSpec,
    readonly player: SessionPlayer,
    readonly ledger: RunLedger,
    readonly tools: Json[] = [READ_TOOL],
    readonly cut = Infinity,
  ) {}

  send(extra: Json[] = []): { answer: ScriptedTurn; body: Json } {
    const body = { model: 'claude-sonnet-4-6', tools: this.tools, system: 'sys', messages: [...this.messages, ...extra] };
    const r = rec(body);
    const answer = this.player.respond(body, r);
    this.ledger.record(r);
    return { answer, body };
  }

  /** Plays one prompt to its end: the prompt, then each tool call answered with the file's text. */
  prompt(text: string): void {
    this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
    for (;;) {
      const { answer } = this.send();
      const call = answer.content.find((b) => b.type === 'tool_use');
      this.messages.push({ role: 'assistant', content: answer.content });
      if (!call || call.type !== 'tool_use') return;
      const input = call.input as Json;
      const path = String(input.file_path ?? (input.files as Json[])[0]!.path).replace(/^.*?\/(src\/)/, '$1');
      this.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: shown(this.s, path, this.cut) }] });
    }
  }
}

describe('the cost benchmark script player', () => {
  it('answers each main turn with the next read, in order, and ends with the final answer', () => {
    const s = buildSession('newFiles', 'quick');
    const player = new SessionPlayer(s, '/ws');
    const agent = new FakeAgent(s, player, new RunLedger(player));
    agent.prompt(s.prompts[0]!.text);
    const calls = agent.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content as Json[]).filter((b) => b.type === 'tool_use');
    assert.deepEqual(
      calls.map((c) => (c.input as Json).file_path),
      s.prompts[0]!.reads.map((p) => `/ws/${p}`),
    );
    assert.ok(player.finished);
    assert.equal(agent.ledger.requests.filter((r) => r.kind === 'main').length, s.prompts[0]!.reads.length + 1);
    assert.equal(agent.ledger.requests.filter((r) => (r.missing?.length ?? 0) > 0).length, 0);
  });

  it('speaks a peer tool shape it finds in the request (Cline: read_files with a list of files)', () => {
    const s = buildSession('chat', 'quick');
    const player = new SessionPlayer(s, '/ws');
    const agent = new FakeAgent(s, player, new RunLedger(player), [CLINE_TOOL]);
    const { answer } = agent.send([{ role: 'user', content: s.prompts[0]!.text }]);
    assert.deepEqual(answer.content[0]?.type === 'tool_use' ? answer.content[0].input : undefined, { files: [{ path: `/ws/${s.prompts[0]!.reads[0]}` }] });
  });

  it('tells a fork from the main loop and does not let it take a main turn', () => {
    const s = buildSession('newFiles', 'quick');
    const player = new SessionPlayer(s, '/ws');
    const ledger = new RunLedger(player);
    const agent = new FakeAgent(s, player, ledger);
    agent.messages.push({ role: 'user', content: s.prompts[0]!.text });
    const first = agent.send().answer;
    agent.messages.push({ role: 'assistant', content: first.content });
    const call = first.content[0]!;
    assert.equal(call.type, 'tool_use');
    const result = { type: 'tool_result', tool_use_id: call.type === 'tool_use' ? call.id : '', content: shown(s, s.prompts[0]!.reads[0]!) };
    // A summary request made mid-loop: the same result, and the instruction after it.
    const fork = agent.send([{ role: 'user', content: [result, { type: 'text', text: 'The conversation above is about to be replaced by a summary. Write that summary now.' }] }]);
    assert.match(JSON.stringify(fork.answer), /<summary>/);
    // A session-notes fork, given no Edit tool here: a short text answer.
    const notes = agent.send([{ role: 'user', content: 'Update the session notes in /state/notes.md so that they describe this conversation.' }]);
    assert.deepEqual(notes.answer.content, [{ type: 'text', text: 'Nothing to save.' }]);
    const main = agent.send([{ role: 'user', content: [result] }]);
    const next = main.answer.content[0];
    assert.equal(next?.type === 'tool_use' ? (next.input as Json).file_path : undefined, `/ws/${s.prompts[0]!.reads[1]}`, 'the main loop still gets the second read');
    assert.deepEqual(
      ledger.requests.map((r) => r.kind),
      ['main', 'background', 'background', 'main'],
    );
  });

  it('goes on with the next read when the loop continues from a summary after compacting', () => {
    const s = buildSession('newFiles', 'quick');
    const player = new SessionPlayer(s, '/ws');
    const agent = new FakeAgent(s, player, new RunLedger(player));
    agent.messages.push({ role: 'user', content: s.prompts[0]!.text });
    const first = agent.send().answer;
    assert.equal(first.content[0]?.type, 'tool_use');
    // The history is now a summary; no tool result, no prompt text.
    const after = player.respond({ model: 'm', tools: [READ_TOOL], messages: [{ role: 'user', content: '[Conversation compacted] This session continues from an earlier conversation. Summary: reading modules.' }] }, rec({}));
    const c = after.content[0];
    assert.equal(c?.type === 'tool_use' ? (c.input as Json).file_path : undefined, `/ws/${s.prompts[0]!.reads[1]}`);
  });

  it('finds a read result that is not there in full', () => {
    const s = buildSession('newFiles', 'quick');
    const player = new SessionPlayer(s, '/ws');
    const ledger = new RunLedger(player);
    // Results cut to 20 lines, as an agent that caps tool results would send them.
    new FakeAgent(s, player, ledger, [READ_TOOL], 20).prompt(s.prompts[0]!.text);
    const main = ledger.requests.filter((r) => r.kind === 'main');
    assert.equal(main[0]!.missing!.length, 0, 'nothing to hold before the first read');
    assert.deepEqual(main[1]!.missing, [s.prompts[0]!.reads[0]]);
    assert.equal(main.at(-1)!.missing!.length, 3);
  });

  it('builds the floor from the script with the agent\'s own sizes', () => {
    const s = buildSession('workingSet', 'quick');
    const player = new SessionPlayer(s, '/ws');
    const ledger = new RunLedger(player);
    new FakeAgent(s, player, ledger).prompt(s.prompts[0]!.text);
    const steps = ledger.floorSteps();
    assert.equal(steps.length, s.prompts[0]!.reads.length + 1);
    assert.deepEqual(
      steps.slice(1).map((x) => x.result?.content),
      s.prompts[0]!.reads,
    );
    assert.ok(steps.slice(1).every((x) => x.result!.tokens >= s.files.get(x.result!.content)!.tokens));
    assert.ok(ledger.prefixTokens! > 0);
  });
});
