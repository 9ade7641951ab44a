// Finding 11: files are put back after a summary up to 5 x 5,000 tokens whatever the window, and
// nothing checks that the compacted conversation is below the threshold that triggered it, so on
// a small window (a model the table does not know, --context-window) compaction ends over the
// line and the thrash guard switches automatic compaction off.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

let standin: Standin;
before(async () => {
  standin = await startStandin();
});
after(() => standin.close());
beforeEach(() => standin.reset());

const bulk = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');
// A window a proxy model may have (thresholds scale with it: auto-compact at about 26.7k).
const SMALL = { model: 'standin-test-model', contextWindow: 32_768 };

describe('finding 11: compaction can end above the threshold that triggered it', () => {

  it('a 32k window: reading five 20 KB files, one compaction, and automatic compaction stays on', async () => {
    const cwd = tempDir('budget');
    for (let i = 0; i < 5; i++) writeFileSync(join(cwd, `f${i}.ts`), Array.from({ length: 500 }, (_, k) => `export const value_${i}_${k} = compute(${k}, "file ${i}");`).join('\n'));
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: SMALL });
    standin.enqueue(
      { content: [0, 1, 2, 3, 4].map((i) => ({ type: 'tool_use' as const, name: 'Read', input: { file_path: `f${i}.ts` } })) },
      { when: 'about to be replaced', content: [{ type: 'text', text: '<summary>Read the five files.</summary>' }] },
      { content: [{ type: 'text', text: 'done reading' }] },
      { content: [{ type: 'text', text: 'next answer' }] },
    );
    await agent.submit('read all five files');
    await agent.submit('now what?');
    const { messages, tokens } = store.getState();
    const divider = messages.find((m) => m.kind === 'compaction');
    assert.ok(divider?.kind === 'compaction', 'it compacted');
    assert.ok(divider.tokensAfter < tokens.autoCompactAt, `compacted to ${divider.tokensAfter}, auto-compact threshold ${tokens.autoCompactAt}`);
    const stopped = messages.find((m) => m.kind === 'notice' && /Automatic compaction stopped/.test(m.text));
    assert.equal(stopped, undefined, 'automatic compaction was switched off after one compaction');
  });

  it('a summary longer than the conversation is not taken as a compaction', async () => {
    const { agent, store } = createStandinAgent({ url: standin.url, cwd: tempDir('budget'), settings: SMALL });
    standin.enqueue({ content: [{ type: 'text', text: 'first' }] });
    await agent.submit(bulk(1500));
    // The summary would leave the conversation over the line: no compaction, and (still over the
    // blocking limit) nothing is sent, so no second answer is scripted.
    standin.enqueue({ when: 'about to be replaced', content: [{ type: 'text', text: `<summary>${bulk(2500)}</summary>` }] });
    await agent.submit(bulk(500));
    const { messages, tokens } = store.getState();
    assert.equal(messages.find((m) => m.kind === 'compaction'), undefined, 'the long summary was not taken');
    assert.ok(messages.some((m) => m.kind === 'notice' && /Compaction failed/.test(m.text)));
    assert.ok(messages.some((m) => m.kind === 'notice' && /nothing was sent/.test(m.text)));
    assert.equal(standin.requests.length, 2, 'the first answer and the summary; the turn over the limit was not sent');
    const overBlocking = standin.requests.filter((r) => (r.usage?.input_tokens ?? 0) + (r.usage?.cache_creation_input_tokens ?? 0) + (r.usage?.cache_read_input_tokens ?? 0) > tokens.blockingAt);
    assert.equal(overBlocking.length, 0, `a request of more than the blocking limit (${tokens.blockingAt}) went out`);
  });
});
