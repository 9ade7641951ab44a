import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { INTERRUPTED_MARKER } from '../../../src/conversation/history';
import { runQueryLoop, type LoopDeps } from '../../../src/agent/queryLoop';
import { createTools } from '../../../src/tools/builtin';
import type { PermissionOutcome, Tool } from '../../../src/tools/types';
import { MessagesClient } from '../../../src/api/messagesClient';
import type { MessageParam } from '../../../src/api/types';
import { buildMessagesRequest } from '../../../src/context/requestBuilder';
import { validateRequest } from '../../standin/validate';
import { useStandin } from '../../support/useStandin';

const cwd = mkdtempSync(join(tmpdir(), 'tl-loop-'));
for (const n of ['a', 'b', 'c']) writeFileSync(join(cwd, `${n}.txt`), `contents of ${n}\n`);

const standin = useStandin();

function deps(over: Partial<LoopDeps> & { permission?: (t: Tool, input: unknown) => Promise<PermissionOutcome> } = {}): LoopDeps {
  const client = new MessagesClient({ apiKey: 'k', baseUrl: standin.url, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5000, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 30))) });
  const tools = createTools();
  return {
    client,
    tools: new Map(tools.map((t) => [t.name, t])),
    buildRequest: (history) =>
      buildMessagesRequest({ model: 'claude-sonnet-4-6', maxTokens: 1000, system: [{ type: 'text', text: 'sys' }], tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })), history }),
    checkPermission: async ({ tool, input }) => (over.permission ? over.permission(tool, input) : { allowed: true }),
    cwd,
    maxTurns: 10,
    ...over,
  };
}

const start: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
/** The history must be one the real API accepts as the start of the next request. */
function assertValidNext(history: MessageParam[]) {
  const next = history.at(-1)!.role === 'user' ? history : [...history, { role: 'user' as const, content: [{ type: 'text' as const, text: 'next' }] }];
  assert.equal(validateRequest({ model: 'm', max_tokens: 10, messages: next }), null);
}

describe('query loop against the stand-in', () => {
  it('runs consecutive read-only calls together and answers each in order', async () => {
    standin.enqueue(
      { content: ['a', 'b', 'c'].map((n) => ({ type: 'tool_use' as const, name: 'Read', input: { file_path: `${n}.txt` } })) },
      { content: [{ type: 'text', text: 'Read all three.' }] },
    );
    const started: string[] = [];
    const r = await runQueryLoop(start, deps({ events: { onToolStatus: (id, s) => s === 'running' && started.push(id) } }), new AbortController().signal);
    assert.equal(r.outcome, 'end_turn');
    assert.equal(r.finalText, 'Read all three.');
    const results = (standin.requests[1]!.body as { messages: MessageParam[] }).messages.at(-1)!.content as Array<{ type: string; content: string }>;
    assert.deepEqual(results.map((b) => b.type), ['tool_result', 'tool_result', 'tool_result']);
    assert.match(results[0]!.content, /contents of a/);
    assert.match(results[2]!.content, /contents of c/);
    assert.equal(started.length, 3);
  });

  it('starts every call of a read-only batch before any of them finishes (they run together)', async () => {
    standin.enqueue(
      { content: ['a', 'b', 'c'].map((n) => ({ type: 'tool_use' as const, name: 'Read', input: { file_path: `${n}.txt` } })) },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const events: string[] = [];
    await runQueryLoop(start, deps({ events: { onToolStatus: (_id, s) => (s === 'running' || s === 'done') && events.push(s) } }), new AbortController().signal);
    assert.deepEqual(events, ['running', 'running', 'running', 'done', 'done', 'done']);
  });

  it('runs a write alone, in order: reads before it see the old file, reads after it the new one', async () => {
    writeFileSync(join(cwd, 'w.txt'), 'old text\n');
    standin.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'Read', input: { file_path: 'w.txt' } },
          { type: 'tool_use', name: 'Write', input: { file_path: 'w.txt', content: 'new text\n' } },
          { type: 'tool_use', name: 'Read', input: { file_path: 'w.txt' } },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const order: string[] = [];
    const names = new Map<string, string>();
    const r = await runQueryLoop(
      start,
      deps({ events: { onToolCall: ({ id, name }) => names.set(id, name), onToolStatus: (id, s) => (s === 'running' || s === 'done') && order.push(`${names.get(id)}:${s}`) } }),
      new AbortController().signal,
    );
    assert.equal(r.outcome, 'end_turn');
    assert.deepEqual(order, ['Read:running', 'Read:done', 'Write:running', 'Write:done', 'Read:running', 'Read:done']);
    const results = (standin.requests[1]!.body as { messages: MessageParam[] }).messages.at(-1)!.content as Array<{ content: string }>;
    assert.match(results[0]!.content, /old text/);
    assert.match(results[2]!.content, /new text/);
  });

  it('retries 429 (honouring retry-after), 529, 500, a mid-stream error and a dropped connection', async () => {
    for (const fault of [
      { kind: 'http' as const, status: 429 as const, retryAfterSeconds: 0 },
      { kind: 'http' as const, status: 529 as const },
      { kind: 'http' as const, status: 500 as const },
      { kind: 'stream-error' as const, afterEvents: 3 },
      { kind: 'drop' as const, afterEvents: 3 },
    ]) {
      standin.reset();
      standin.enqueue({ content: [{ type: 'text', text: 'partial then fail' }], fault }, { content: [{ type: 'text', text: 'second try' }] });
      const retries: string[] = [];
      const r = await runQueryLoop(start, deps({ events: { onRetry: (i) => retries.push(i.reason) } }), new AbortController().signal);
      assert.equal(r.outcome, 'end_turn', JSON.stringify(fault));
      assert.equal(r.finalText, 'second try', 'a retried stream starts over, with no half answer kept');
      assert.equal(retries.length, 1, JSON.stringify(fault));
    }
  });

  it('reports an invalid key as an auth error without retrying', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'x' }], fault: { kind: 'http', status: 401 } });
    const r = await runQueryLoop(start, deps(), new AbortController().signal);
    assert.equal(r.outcome, 'error');
    assert.equal(r.error?.kind, 'auth');
    assert.equal(standin.requests.length, 1);
    assert.deepEqual(r.history, start, 'the history is untouched, so Retry can send it again');
  });

  it('answers malformed input and unknown tools with an error result, and carries on', async () => {
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: { path: 'oops' } }, { type: 'tool_use', name: 'Teleport', input: {} }] },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const r = await runQueryLoop(start, deps(), new AbortController().signal);
    assert.equal(r.outcome, 'end_turn');
    const results = (standin.requests[1]!.body as { messages: MessageParam[] }).messages.at(-1)!.content as Array<{ is_error?: boolean; content: string }>;
    assert.equal(results.length, 2);
    assert.ok(results.every((x) => x.is_error));
    assert.match(results[0]!.content, /missing required field "file_path"/);
    assert.match(results[1]!.content, /Unknown tool/);
  });

  it('a denied call returns the reason to the model as an error result', async () => {
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'rm -rf /' } }] }, { content: [{ type: 'text', text: 'ok' }] });
    const r = await runQueryLoop(start, deps({ permission: async () => ({ allowed: false, reason: 'The user denied this tool call.' }) }), new AbortController().signal);
    assert.equal(r.outcome, 'end_turn');
    const res = (standin.requests[1]!.body as { messages: MessageParam[] }).messages.at(-1)!.content as Array<{ is_error?: boolean; content: string }>;
    assert.equal(res[0]!.is_error, true);
    assert.match(res[0]!.content, /denied/);
  });

  it('stops the loop at the turn limit', async () => {
    for (let i = 0; i < 2; i++) standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] });
    const r = await runQueryLoop(start, deps({ maxTurns: 2 }), new AbortController().signal);
    assert.equal(r.outcome, 'max_turns');
    assert.equal(standin.requests.length, 2, 'no third request');
    assertValidNext(r.history);
  });

  describe('Stop at each stage leaves a history the API accepts', () => {
    const cases: Array<[string, (ac: AbortController) => Partial<LoopDeps>, () => void]> = [
      // Nothing is scripted: Stop comes before the request, so none is sent.
      ['before the request', (ac) => ({ buildRequest: async (h) => (ac.abort(), deps().buildRequest(h)) }), () => undefined],
      ['mid-text', (ac) => ({ events: { onTextDelta: () => ac.abort() } }), () => standin.enqueue({ content: [{ type: 'text', text: 'a long answer that is cut' }], chunkDelayMs: 20 })],
      [
        'after a tool_use streamed, before it ran',
        (ac) => ({ events: { onToolCall: () => ac.abort() } }),
        () => standin.enqueue({ content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] }),
      ],
      [
        'while waiting for permission',
        (ac) => ({ checkPermission: async () => (ac.abort(), { allowed: false, reason: 'interrupted' }) }),
        () => standin.enqueue({ content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'z.txt', content: 'z' } }] }),
      ],
      [
        'while a tool runs',
        (ac) => ({ events: { onToolStatus: (_id, s) => s === 'running' && setTimeout(() => ac.abort(), 50) } }),
        () => standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 5' } }] }),
      ],
    ];
    for (const [name, make, script] of cases) {
      it(name, async () => {
        script();
        const ac = new AbortController();
        const r = await runQueryLoop(start, deps(make(ac)), ac.signal);
        assert.equal(r.outcome, 'aborted');
        assertValidNext(r.history);
        assert.match(JSON.stringify(r.history.at(-1)), new RegExp(INTERRUPTED_MARKER.replace(/[[\]]/g, '\\$&')));
        // And the stand-in accepts the continuation for real.
        const sent = standin.requests.length;
        standin.enqueue({ content: [{ type: 'text', text: 'continued' }] });
        const again = await runQueryLoop(r.history, deps(), new AbortController().signal);
        assert.equal(again.outcome, 'end_turn');
        assert.match(JSON.stringify(again.history.at(-1)), /continued/);
        assert.equal(standin.requests.length, sent + 1);
      });
    }
  });
});
