import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RetryView } from '../../../src/shared/viewState';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-retry-'));
  const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'standin-test-model' } });
  const seen: RetryView[] = [];
  store.subscribe(() => {
    const s = store.getState();
    if (s.retry && seen.at(-1) !== s.retry) seen.push(s.retry);
  });
  return { agent, store, seen };
}

const overloaded = { content: [{ type: 'text' as const, text: 'never sent' }], fault: { kind: 'http' as const, status: 529 as const, retryAfterSeconds: 0 } };

describe('agent: retries collapse', () => {
  it('shows each retry as one transient line with the API message, and leaves only the answer in the transcript', async () => {
    const { agent, store, seen } = setup();
    standin.enqueue(overloaded, overloaded, { content: [{ type: 'text', text: 'the answer' }] });
    await agent.submit('hello');
    assert.deepEqual(
      seen.map((r) => r.attempt),
      [1, 2],
      'one retry line per attempt, each replacing the last',
    );
    for (const r of seen) {
      assert.doesNotMatch(r.reason, /[{}]|"type"/, 'no JSON in the reason');
      assert.match(r.reason, /Overloaded/);
    }
    const state = store.getState();
    assert.equal(state.retry, null, 'the line goes when the answer comes');
    assert.deepEqual(
      state.messages.map((m) => m.kind),
      ['user', 'assistant'],
    );
    const last = state.messages.at(-1)!;
    assert.equal(last.kind === 'assistant' ? last.text : undefined, 'the answer');
  });

  it('ends a turn that keeps failing with one readable error offering Retry', async () => {
    const { agent, store } = setup();
    standin.enqueue({ ...overloaded, repeat: true });
    await agent.submit('hello');
    const state = store.getState();
    assert.equal(state.retry, null);
    const notices = state.messages.filter((m) => m.kind === 'notice');
    assert.equal(notices.length, 1, 'one final error, no retry notices');
    const notice = notices[0]!;
    assert.ok(notice.kind === 'notice');
    assert.equal(notice.action?.command, 'retry');
    assert.doesNotMatch(notice.text, /\{"type"/);
    assert.match(notice.text, /Overloaded/);
  });
});
