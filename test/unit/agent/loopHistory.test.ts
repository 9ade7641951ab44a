// The loop's hand-over to whoever keeps the history (the session recorder): every change is
// handed over once, in order, and the loop waits for it before anything depends on it.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runQueryLoop, type LoopDeps } from '../../../src/agent/queryLoop';
import { createTools } from '../../../src/tools/builtin';
import { MessagesClient } from '../../../src/api/messagesClient';
import type { MessageParam } from '../../../src/api/types';
import { buildMessagesRequest } from '../../../src/context/requestBuilder';
import { useStandin } from '../../support/useStandin';

const cwd = mkdtempSync(join(tmpdir(), 'tl-loop-history-'));
writeFileSync(join(cwd, 'a.txt'), 'contents of a\n');

const standin = useStandin();

function deps(over: Partial<LoopDeps>): LoopDeps {
  const client = new MessagesClient({ apiKey: 'k', baseUrl: standin.url, maxRetries: 0, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 50 });
  const tools = createTools();
  return {
    client,
    tools: new Map(tools.map((t) => [t.name, t])),
    buildRequest: (history) =>
      buildMessagesRequest({ model: 'claude-sonnet-4-6', maxTokens: 1000, system: [{ type: 'text', text: 'sys' }], tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })), history }),
    checkPermission: async () => ({ allowed: true }),
    cwd,
    maxTurns: 10,
    ...over,
  };
}

const start: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
const text = (m: MessageParam | undefined): string => JSON.stringify(m?.content ?? null);
const tick = () => new Promise((r) => setTimeout(r, 5));

/** One tool round, then an answer: the history grows prompt → call → result → answer. */
function scriptOneToolRound() {
  standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'text', text: 'done' }] });
}

describe('query loop: the history hand-over', () => {
  it('hands over each change once, in order, and waits for it before the next request', async () => {
    scriptOneToolRound();
    const log: string[] = [];
    const handed: MessageParam[][] = [];
    const r = await runQueryLoop(
      start,
      deps({
        // Compaction that finds nothing to do returns the history it was given.
        prepareHistory: async (h) => h,
        buildRequest: (h) => {
          log.push(`request ${h.length}`);
          return deps({}).buildRequest(h);
        },
        events: {
          onHistory: async (h) => {
            handed.push(h);
            log.push(`write ${h.length}`);
            // A slow disk: the loop must not go on before the write is done.
            await tick();
            log.push(`written ${h.length}`);
          },
        },
      }),
      new AbortController().signal,
    );
    assert.equal(r.outcome, 'end_turn');
    assert.deepEqual(log, ['write 1', 'written 1', 'request 1', 'write 2', 'written 2', 'write 3', 'written 3', 'request 3', 'write 4', 'written 4']);
    // Each hand-over is the history as it was then, ending with the final one.
    assert.deepEqual(handed.map((h) => h.length), [1, 2, 3, 4]);
    assert.deepEqual(handed.at(-1), r.history);
    for (const h of handed) assert.deepEqual(h, r.history.slice(0, h.length));
  });

  it('hands over a history that compaction replaced, before the request that sends it', async () => {
    scriptOneToolRound();
    const log: string[] = [];
    let calls = 0;
    const summary: MessageParam = { role: 'user', content: [{ type: 'text', text: 'summary of the start' }] };
    const r = await runQueryLoop(
      start,
      deps({
        // The second request is compacted: the prompt becomes a summary.
        prepareHistory: async (h) => (++calls === 2 ? [summary, ...h.slice(1)] : h),
        buildRequest: (h) => {
          log.push(`request ${text(h[0])}`);
          return deps({}).buildRequest(h);
        },
        events: { onHistory: (h) => void log.push(`write ${h.length} ${text(h[0])}`) },
      }),
      new AbortController().signal,
    );
    assert.equal(r.outcome, 'end_turn');
    const go = text(start[0]);
    const sum = text(summary);
    assert.deepEqual(log, [`write 1 ${go}`, `request ${go}`, `write 2 ${go}`, `write 3 ${go}`, `write 3 ${sum}`, `request ${sum}`, `write 4 ${sum}`]);
    assert.deepEqual(r.history[0], summary, 'the replaced history is the history from then on');
  });

  it('takes a replaced history without anyone listening', async () => {
    scriptOneToolRound();
    const summary: MessageParam = { role: 'user', content: [{ type: 'text', text: 'summary' }] };
    let calls = 0;
    const r = await runQueryLoop(start, deps({ prepareHistory: async (h) => (++calls === 2 ? [summary, ...h.slice(1)] : h), events: {} }), new AbortController().signal);
    assert.equal(r.outcome, 'end_turn');
    assert.equal(r.finalText, 'done');
    assert.deepEqual(r.history[0], summary);
    assert.equal(r.history.length, 4);
  });
});
