// Finding 8: max_tokens is 32,000 whatever the window, and the API refuses a request whose input
// plus max_tokens exceeds the model's context ("input length and `max_tokens` exceed context
// limit", seen by Claude Code users as #228 and #408, and by docker-agent as #569). The stand-in
// enforces that limit when told the window (`contextLimit`), as the real API does.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MessageParam } from '../../src/api/types';
import { startStandin, type Standin } from '../standin/server';
import { countTextTokens } from '../standin/tokens';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

const refusals = (s: Standin) => s.requests.filter((r) => r.validationError).map((r) => r.validationError);
const standins: Standin[] = [];
after(async () => {
  // Every one closes even when one reports a scripted turn no request matched.
  const closed = await Promise.allSettled(standins.map((s) => s.close()));
  for (const c of closed) if (c.status === 'rejected') throw c.reason;
});
async function standinWithWindow(limit: number): Promise<Standin> {
  const s = await startStandin({ contextLimit: limit });
  standins.push(s);
  return s;
}

/** About `tokens` tokens of prose, by the stand-in's own tokenizer. */
function filler(tokens: number): string {
  const unit = 'the parser reads every line of the module and keeps the value it found. ';
  const per = countTextTokens(unit);
  return unit.repeat(Math.ceil(tokens / per));
}

describe('finding 8: max_tokens is not fitted to the context window', () => {

  it('a model with a 32k window (--context-window 32768, say behind a proxy) can answer "hi"', async () => {
    const standin = await standinWithWindow(32_768);
    const { agent, store } = createStandinAgent({ url: standin.url, cwd: tempDir('win'), settings: { model: 'proxy-model-32k', contextWindow: 32_768 } });
    standin.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    await agent.submit('hi');
    assert.deepEqual(refusals(standin), []);
    assert.ok(store.getState().messages.some((m) => m.kind === 'assistant' && m.text === 'hello'));
  });

  it('a 200k model with auto-compaction off accepts a request below the blocking limit', async () => {
    const standin = await standinWithWindow(200_000);
    const { agent, store } = createStandinAgent({ url: standin.url, cwd: tempDir('win'), settings: { model: 'claude-sonnet-4-6', autoCompact: false } });
    const history = (tokens: number): MessageParam[] => [
      { role: 'user', content: [{ type: 'text', text: filler(tokens) }] },
      { role: 'assistant', content: [{ type: 'text', text: 'read it' }] },
    ];
    // Sized by Threadline's own estimate (what its blocking check reads), not the tokenizer's.
    const estimate = async (tokens: number) => {
      agent.setHistory(history(tokens));
      await agent.previewContext(); // the system prompt and tools are counted once a request is built
      return agent.usedTokens();
    };
    const [small, large] = [await estimate(10_000), await estimate(20_000)];
    const slope = (large - small) / 10_000;
    await estimate(Math.round(20_000 + (176_000 - large) / slope));
    standin.enqueue({ content: [{ type: 'text', text: 'first' }] }, { content: [{ type: 'text', text: 'answered' }] });
    await agent.submit('first question');
    // The answer anchors the figure on the API's count; the next prompt brings the estimate to
    // about 176.5k: under the blocking limit (177k), past what fits beside 32k of output (168k).
    const anchored = agent.usedTokens();
    const limits = store.getState().tokens;
    await agent.submit(filler(Math.round((176_500 - anchored) / slope)));
    assert.equal(standin.requests.length, 2, `the second prompt went out (figure ${anchored} before it, blocking at ${limits.blockingAt})`);
    assert.deepEqual(refusals(standin), []);
    assert.ok(store.getState().messages.some((m) => m.kind === 'assistant' && m.text === 'answered'));
  });
});

describe('finding 8: on the "exceed context limit" 400, one retry with what fits', () => {
  it('a window smaller than the model table says: the turn retries with a smaller max_tokens and is answered', async () => {
    // The stand-in's model has 30k where the table says 200k: a proxy in front of a smaller model.
    const standin = await standinWithWindow(30_000);
    const { agent, store } = createStandinAgent({ url: standin.url, cwd: tempDir('win'), settings: { model: 'claude-sonnet-4-6' } });
    standin.enqueue({ content: [{ type: 'text', text: 'fits now' }] });
    await agent.submit('hi');
    assert.equal(standin.requests.length, 2);
    assert.match(standin.requests[0]!.validationError ?? '', /exceed context limit/);
    const [first, second] = standin.requests.map((r) => (r.body as { max_tokens: number }).max_tokens);
    assert.ok(second! < first! && second! <= 30_000 - 1_000, `max_tokens ${first} then ${second}`);
    assert.ok(store.getState().messages.some((m) => m.kind === 'assistant' && m.text === 'fits now'));
  });
});

describe('a request known to be over the blocking limit is never sent', () => {
  const SMALL = { model: 'proxy-model-32k', contextWindow: 32_768 };
  const notices = (store: ReturnType<typeof createStandinAgent>['store']) => store.getState().messages.filter((m) => m.kind === 'notice');

  it('a first prompt over the limit (which never compacts) is not sent: a notice offers Compact', async () => {
    const standin = await standinWithWindow(32_768);
    const { agent, store } = createStandinAgent({ url: standin.url, cwd: tempDir('block'), settings: { ...SMALL, autoCompact: true } });
    await agent.submit(filler(31_000));
    assert.equal(standin.requests.length, 0, 'a request went out');
    const n = notices(store).at(-1);
    assert.ok(n?.kind === 'notice' && /nothing was sent/.test(n.text) && n.action?.command === 'compact', JSON.stringify(n));
    assert.equal(agent.outcome, 'blocked');
  });

  it('tool results that push a turn over the limit with auto-compaction off end the turn before the next request', async () => {
    const standin = await standinWithWindow(32_768);
    const cwd = tempDir('block');
    writeFileSync(join(cwd, 'big.txt'), filler(30_000).replace(/\. /g, '.\n'));
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { ...SMALL, autoCompact: false } });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'big.txt', limit: 100_000 } }] });
    await agent.submit('read big.txt');
    assert.equal(standin.requests.length, 1, 'the request after the tool result went out');
    assert.deepEqual(refusals(standin), []);
    const n = notices(store).at(-1);
    assert.ok(n?.kind === 'notice' && /automatic compaction is off/.test(n.text) && n.action?.command === 'compact', JSON.stringify(n));
    // The history is whole: the call is answered, so Compact then Retry can carry on.
    assert.equal(agent.messages.at(-1)?.role, 'user');
  });

  it('when compaction fails (its summary request is itself over the window), the turn ends with the notice instead of sending', async () => {
    const standin = await standinWithWindow(32_768);
    const cwd = tempDir('block');
    writeFileSync(join(cwd, 'big.txt'), filler(30_000).replace(/\. /g, '.\n'));
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { ...SMALL, autoCompact: true } });
    // No answer is scripted for the summary: the API refuses it before any model sees it.
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'big.txt', limit: 100_000 } }] });
    await agent.submit('read big.txt');
    const summaries = standin.requests.filter((r) => /about to be replaced/.test(JSON.stringify(r.body)));
    assert.deepEqual(summaries.map((r) => /prompt is too long/.test(r.validationError ?? '')), [true], 'the summary request holds the 30k result too, and is refused');
    const main = standin.requests.filter((r) => !summaries.includes(r));
    assert.equal(main.length, 1, 'a main request over the limit went out');
    const n = notices(store).at(-1);
    assert.ok(n?.kind === 'notice' && /nothing was sent/.test(n.text) && n.action?.command === 'compact', JSON.stringify(n));
  });
});
