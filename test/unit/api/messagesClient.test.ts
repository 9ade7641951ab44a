import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/api/errors';
import { MessagesClient, type MessagesClientOptions } from '../../../src/api/messagesClient';
import type { AssistantBlock, MessagesRequest } from '../../../src/api/types';
import { rejection } from '../../support/rejection';
import { useStandin } from '../../support/useStandin';

const standin = useStandin({ reset: 'after' });

const client = (over: Partial<MessagesClientOptions> = {}) =>
  new MessagesClient({ apiKey: 'k', baseUrl: standin.url, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), ...over });

const request = (over: Partial<MessagesRequest> = {}): MessagesRequest => ({
  model: 'claude-sonnet-4-6',
  maxTokens: 4000,
  system: [{ type: 'text', text: 'sys' }],
  tools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  source: 'main',
  ...over,
});

describe('a stream that stops sending', () => {
  it('is cut after the idle timeout and retried whole', { timeout: 10_000 }, async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'half an answer' }], fault: { kind: 'stall', afterEvents: 4 } }, { content: [{ type: 'text', text: 'whole answer' }] });
    const retries: string[] = [];
    const seen: string[] = [];
    const turn = await client({ idleTimeoutMs: 300 }).stream(request(), new AbortController().signal, {
      onTextDelta: (_i, t) => seen.push(t),
      onRetry: (r) => retries.push(r.reason),
    });
    assert.deepEqual(turn.blocks, [{ type: 'text', text: 'whole answer' }]);
    assert.equal(retries.length, 1);
    assert.match(retries[0]!, /stopped sending for 0\.3 s/);
    assert.equal(standin.requests.length, 2);
  });

  it('ends in a clear error once the retries are spent', { timeout: 10_000 }, async () => {
    for (let i = 0; i < 3; i++) standin.enqueue({ content: [{ type: 'text', text: 'x' }], fault: { kind: 'stall', afterEvents: 0 } });
    const started = Date.now();
    const err = await rejection(client({ idleTimeoutMs: 200 }).stream(request(), new AbortController().signal));
    assert.ok(err instanceof ApiError);
    assert.equal(err.kind, 'stalled');
    assert.match(err.message, /The API stopped sending for 0\.2 s/);
    assert.equal(standin.requests.length, 3, 'the first attempt and two retries');
    assert.ok(Date.now() - started < 5_000);
  });

  it('counts keep-alive pings as life: a slow but living stream is not cut', { timeout: 10_000 }, async () => {
    // Each pause between deltas is longer than the idle timeout, but pings arrive within it.
    standin.enqueue({ content: [{ type: 'text', text: 'slow but steady' }], chunkChars: 8, chunkDelayMs: 500, keepAliveMs: 100 });
    const retries: string[] = [];
    const turn = await client({ idleTimeoutMs: 300 }).stream(request(), new AbortController().signal, { onRetry: (r) => retries.push(r.reason) });
    assert.deepEqual(turn.blocks, [{ type: 'text', text: 'slow but steady' }]);
    assert.deepEqual(retries, []);
    assert.equal(standin.requests.length, 1);
  });

  it('Stop during a stall ends at once as aborted, not as a stall', { timeout: 10_000 }, async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'x' }], fault: { kind: 'stall', afterEvents: 2 } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = await rejection(client({ idleTimeoutMs: 5_000 }).stream(request(), ac.signal));
    assert.ok(err instanceof ApiError);
    assert.equal(err.kind, 'aborted');
  });
});

describe('the SDK accumulates the stream', () => {
  it('keeps thinking with its signature, redacted thinking and tool input, and reports each as it arrives', async () => {
    standin.enqueue({
      content: [{ type: 'thinking', thinking: 'Think first.' }, { type: 'redacted_thinking' }, { type: 'text', text: 'Then read.' }, { type: 'tool_use', name: 'Read', input: { file_path: 'a.ts' } }],
    });
    const thinking: string[] = [];
    const completed: AssistantBlock['type'][] = [];
    const started: string[] = [];
    const turn = await client().stream(request({ thinking: { type: 'adaptive' } }), new AbortController().signal, {
      onThinkingDelta: (_i, t) => thinking.push(t),
      onBlockComplete: (_i, b) => completed.push(b.type),
      onToolUseStart: (_i, b) => started.push(b.name),
    });
    assert.equal(thinking.join(''), 'Think first.');
    assert.deepEqual(completed, ['thinking', 'redacted_thinking', 'text', 'tool_use']);
    assert.deepEqual(started, ['Read']);
    const [t, r, , u] = turn.blocks;
    assert.ok(t?.type === 'thinking' && t.thinking === 'Think first.' && t.signature.length > 20);
    assert.ok(r?.type === 'redacted_thinking' && r.data.length > 20);
    assert.deepEqual(u?.type === 'tool_use' ? u.input : null, { file_path: 'a.ts' });
    assert.equal(turn.stopReason, 'tool_use');
    assert.ok(turn.usage.inputTokens > 0 && turn.usage.outputTokens > 0);
    const body = standin.requests[0]!.body as { thinking?: unknown };
    assert.deepEqual(body.thinking, { type: 'adaptive' });
  });

  it('retries a stream that sends a tool input that is not JSON, then uses the good answer', async () => {
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: {}, rawJson: '{"file_path": not json}' }] },
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'b.ts' } }] },
    );
    const retries: string[] = [];
    const turn = await client().stream(request(), new AbortController().signal, { onRetry: (r) => retries.push(r.reason) });
    assert.equal(retries.length, 1);
    assert.match(retries[0]!, /not valid JSON/);
    assert.deepEqual(turn.blocks[0]?.type === 'tool_use' ? turn.blocks[0].input : null, { file_path: 'b.ts' });
  });

  it('sends the beta header a context-window variant needs', async () => {
    await client().stream(request({ betas: ['context-1m-2025-08-07'] }), new AbortController().signal);
    assert.equal(standin.requests[0]!.headers['anthropic-beta'], 'context-1m-2025-08-07');
  });
});

describe('listing models', () => {
  it('follows every page of the Models API, retired models included', async () => {
    const models = await client().listModels(undefined, 4);
    assert.ok(models.some((m) => m.lifecycle === 'retired'));
    assert.ok(models.some((m) => m.id === 'claude-sonnet-5-5'));
    assert.equal(standin.modelsRequests.length, Math.ceil(models.length / 4));
    assert.match(standin.modelsRequests[0]!.path, /lifecycle/);
  });

  it('reports a server without the Models API as an ApiError', async () => {
    standin.setModels(null);
    const err = await rejection(client().listModels());
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 404);
  });
});
