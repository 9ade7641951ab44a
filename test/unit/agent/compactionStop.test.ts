import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

const bulk = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');
/** A summary that starts and then never finishes: only a Stop ends its request. */
const stalledSummary = { content: [{ type: 'text' as const, text: '<summary>never finished</summary>' }], fault: { kind: 'stall' as const, afterEvents: 2 } };

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-stopcompact-'));
  // Auto-compaction at 27k tokens on this window (thresholds scale below 200k).
  return createStandinAgent({ url: standin.url, cwd, settings: { model: 'standin-test-model', contextWindow: 32_336 } });
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const notices = (messages: ReadonlyArray<{ kind: string; text?: string }>) => messages.filter((m) => m.kind === 'notice').map((m) => m.text);

describe('Stop during a compaction', () => {
  it('a manual compaction: its summary request is aborted, the history stays as it was, the panel is idle', async () => {
    const { agent, store } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first answer' }] });
    await agent.submit('a question worth summarising');
    const before: MessageParam[] = [...agent.messages];
    const viewBefore = store.getState().messages.length;
    standin.enqueue(stalledSummary);
    const compacting = agent.compactNow();
    await until('the summary request', () => standin.requests.length === 2);
    assert.equal(store.getState().status, 'compacting');
    agent.stop();
    assert.equal(await compacting, false, 'the compaction ended without a result');
    await until('the stand-in to see the request closed', () => standin.requests[1]!.closedEarly === true);
    assert.deepEqual(agent.messages, before, 'the history is unchanged');
    assert.equal(store.getState().status, 'idle');
    assert.equal(store.getState().messages.filter((m) => m.kind === 'compaction').length, 0, 'no divider');
    assert.equal(store.getState().messages.length, viewBefore + 1, 'one notice says it stopped');
    assert.match(notices(store.getState().messages).at(-1) ?? '', /Compaction stopped; the conversation is as it was/);
    // A stop is not a failure: the next compaction runs, and nothing trips the circuit breaker.
    standin.enqueue({ content: [{ type: 'text', text: '<summary>done this time</summary>' }] });
    assert.equal(await agent.compactNow(), true);
  });

  it('an automatic compaction before a request: Stop ends it and the turn, keeping the prompt and the history', async () => {
    const { agent, store } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first' }] });
    await agent.submit(bulk(1500));
    const before = [...agent.messages];
    standin.enqueue(stalledSummary, { content: [{ type: 'text', text: 'never asked for' }] });
    const turn = agent.submit(bulk(700));
    await until('the summary request', () => standin.requests.length === 2);
    agent.stop();
    const result = await turn;
    assert.equal(result?.outcome, 'aborted');
    await until('the stand-in to see the request closed', () => standin.requests[1]!.closedEarly === true);
    assert.equal(standin.requests.length, 2, 'no request went out after the stop');
    assert.equal(standin.discardScript(), 1, 'the answer scripted after the summary was never asked for');
    assert.deepEqual(agent.messages.slice(0, before.length), before, 'nothing was replaced by a summary');
    assert.match(JSON.stringify(agent.messages.at(-1)), /line 699/, 'the prompt is kept');
    assert.equal(store.getState().status, 'idle');
    assert.equal(store.getState().canContinue, true);
  });
});
