import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { estimateTokens } from '../../../src/conversation/tokens';
import { ContextService } from '../../../src/context/contextService';
import type { AppSettings } from '../../../src/state/appState';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';
import { testHost } from '../../support/host';

const standin = useStandin();

const bulk = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');

function setup(settings: Partial<AppSettings> = {}, withContext = false) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-agent-'));
  const home = mkdtempSync(join(tmpdir(), 'tl-home-'));
  const { agent, store } = createStandinAgent({
    url: standin.url,
    cwd,
    // Auto-compaction at 27k and blocking at 28.6k tokens (thresholds scale below 200k).
    settings: { model: 'standin-test-model', contextWindow: 32_336, ...settings },
    ...(withContext ? { extra: { context: new ContextService({ cwd, home, host: testHost() }) } } : {}),
  });
  const sent = (i = -1) => (standin.requests.at(i)!.body as { messages: MessageParam[] }).messages;
  return { cwd, store, agent, sent };
}

describe('agent: compaction in the loop', () => {
  it('compacts automatically above the threshold, shows a divider, and continues from the summary', async () => {
    const { store, agent, sent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first' }] });
    await agent.submit(bulk(1500));
    standin.enqueue({ content: [{ type: 'text', text: '<summary>the summary</summary>' }] }, { content: [{ type: 'text', text: 'second' }] });
    await agent.submit(bulk(700));
    assert.deepEqual(store.getState().messages.map((m) => m.kind), ['user', 'assistant', 'user', 'compaction', 'assistant']);
    assert.match(JSON.stringify(sent()[0]), /the summary/);
    assert.ok(store.getState().tokens.used < store.getState().tokens.warningAt, 'the indicator dropped after compacting');
    // Undo puts the old history back, and keeps the turn answered on top of the summary.
    const divider = store.getState().messages.find((m) => m.kind === 'compaction')!;
    assert.ok(divider.kind === 'compaction' && divider.canUndo, 'a turn on top of the compaction leaves its Undo');
    assert.equal(agent.undoCompaction(divider.id), true);
    const texts = agent.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('')));
    assert.equal(texts[0], bulk(1500), 'the first prompt word for word');
    assert.equal(texts.at(-1), 'second', 'the answer after the compaction stays');
    assert.doesNotMatch(texts.join('\n'), /the summary/);
  });

  it('asks count_tokens for the exact figure when the estimate is near the threshold', async () => {
    const { agent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first' }] });
    await agent.submit(bulk(1500));
    assert.equal(standin.countTokensRequests.length, 0, 'far from the threshold: no count');
    standin.enqueue({ when: 'about to be replaced by a summary', content: [{ type: 'text', text: '<summary>s</summary>' }] }, { content: [{ type: 'text', text: 'second' }] });
    await agent.submit(bulk(330));
    assert.equal(standin.countTokensRequests.length, 1);
  });

  it('refuses a new prompt at the blocking threshold when auto-compaction is off, offering Compact', async () => {
    const { store, agent } = setup({ autoCompact: false });
    standin.enqueue({ content: [{ type: 'text', text: 'first' }] });
    await agent.submit(bulk(1500));
    const before = standin.requests.length;
    assert.equal(before, 1);
    await agent.submit(bulk(1200));
    assert.equal(standin.requests.length, before, 'nothing was sent');
    const notice = store.getState().messages.at(-1)!;
    assert.ok(notice.kind === 'notice' && notice.action?.command === 'compact');
  });

  it('compacts and retries once when the API says the prompt is too long', async () => {
    const { store, agent } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'x' }], fault: { kind: 'http', status: 400, message: 'prompt is too long: 70000 tokens > 60000 maximum' } },
      { content: [{ type: 'text', text: '<summary>short</summary>' }] },
      { content: [{ type: 'text', text: 'answered after compacting' }] },
    );
    await agent.submit('hello');
    const kinds = store.getState().messages.map((m) => m.kind);
    assert.ok(kinds.includes('compaction'));
    assert.equal(store.getState().messages.at(-1)!.kind, 'assistant');
    assert.equal(standin.requests.length, 3);
  });

  it('the model can ask for a compaction with the Compact tool', async () => {
    const { store, agent, sent } = setup();
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Compact', input: { focus: 'the API design' } }] },
      { content: [{ type: 'text', text: '<summary>design summary</summary>' }] },
      { content: [{ type: 'text', text: 'continuing' }] },
    );
    await agent.submit('design an API, then compact');
    assert.match(JSON.stringify(sent(1).at(-1)), /focus on: the API design/);
    assert.match(JSON.stringify(sent(2)[0]), /design summary/);
    assert.equal(store.getState().messages.at(-1)!.kind, 'assistant');
    assert.ok(store.getState().messages.some((m) => m.kind === 'compaction'));
  });

  it('manual compaction with Undo restores the transcript', async () => {
    const { store, agent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first answer' }] });
    await agent.submit('question');
    const before = [...agent.messages];
    standin.enqueue({ content: [{ type: 'text', text: '<summary>sum</summary>' }] });
    assert.equal(await agent.compactNow('focus'), true);
    assert.equal(agent.messages.length, 1);
    const divider = store.getState().messages.find((m) => m.kind === 'compaction')!;
    assert.equal(agent.undoCompaction(divider.id), true);
    assert.deepEqual(agent.messages, before);
  });
});

describe('agent: one token figure (system + tools + messages)', () => {
  const overhead = (req: { system?: unknown; tools?: unknown }) => estimateTokens(req.system) + estimateTokens(req.tools);

  it('after a resume, the figure includes the system prompt and tools before any reply', async () => {
    const { store, agent } = setup();
    const history: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: bulk(50) }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ];
    agent.setHistory(history);
    const request = await agent.previewContext();
    await new Promise((r) => setImmediate(r));
    const used = store.getState().tokens.used;
    assert.ok(used >= estimateTokens(history) + 1000, `the figure ${used} counts more than the messages`);
    assert.equal(used, agent.usedTokens());
    assert.ok(request.total > 0);
  });

  it('right after a manual compaction the figure is the compacted request, and the divider agrees with it', async () => {
    const { store, agent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first answer' }] });
    await agent.submit(bulk(300));
    const before = store.getState().tokens.used;
    standin.enqueue({ content: [{ type: 'text', text: '<summary>sum</summary>' }] });
    assert.equal(await agent.compactNow(), true);
    const after = store.getState().tokens.used;
    const divider = store.getState().messages.find((m) => m.kind === 'compaction')!;
    assert.ok(divider.kind === 'compaction');
    assert.equal(divider.tokensBefore, before, 'the divider starts from what the status bar showed');
    assert.equal(divider.tokensAfter, after, 'and ends where the status bar is now');
    assert.ok(after < before);
    const sentBefore = standin.requests.at(-2)!.body as { system?: unknown; tools?: unknown };
    assert.ok(after > overhead(sentBefore), 'the figure after compacting still counts system and tools');
  });

  it('after Undo the figure returns to the restored history and the divider says so', async () => {
    const { store, agent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'first answer' }] });
    await agent.submit(bulk(300));
    standin.enqueue({ content: [{ type: 'text', text: '<summary>sum</summary>' }] });
    await agent.compactNow();
    const divider = store.getState().messages.find((m) => m.kind === 'compaction')!;
    assert.equal(agent.undoCompaction(divider.id), true);
    const undone = store.getState().messages.find((m) => m.id === divider.id)!;
    assert.ok(undone.kind === 'compaction' && undone.undone === true && !undone.canUndo);
    assert.equal(store.getState().tokens.used, agent.usedTokens());
    assert.ok(store.getState().tokens.used > (divider.kind === 'compaction' ? divider.tokensAfter : 0));
  });
});

describe('agent: a resumed session', () => {
  it('clears old tool results on its first request when its last answer is older than the cache lifetime', async () => {
    const { agent, sent } = setup();
    const history: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'read eight files' }] }];
    for (let i = 0; i < 8; i++) {
      history.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `f${i}.ts` } }] });
      history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `file ${i}\n${bulk(20)}` }] });
    }
    history.push({ role: 'assistant', content: [{ type: 'text', text: 'read them' }] });
    agent.setHistory(history, { lastAssistantAt: Date.now() - 24 * 3600_000 });
    standin.enqueue({ content: [{ type: 'text', text: 'next day' }] });
    await agent.submit('and now?');
    const results = sent().flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
    const cleared = results.filter((b) => JSON.stringify(b).includes('Old tool result cleared'));
    assert.equal(results.length, 8);
    assert.equal(cleared.length, 5, 'all but the three latest results are cleared for a cold cache');
  });
});

describe('agent: rewind and fork', () => {
  it('rewinds to before a message: the panel and the next request both lose what followed', async () => {
    const { store, agent, sent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await agent.submit('q1');
    await agent.submit('q2');
    const q2 = store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q2')!;
    assert.ok(q2.kind === 'user' && q2.rewindable);
    const fork = agent.forkPoint(q2.id)!;
    assert.equal(fork.history.length, 2);
    assert.deepEqual(fork.messages.map((m) => m.kind), ['user', 'assistant']);
    assert.equal(agent.rewindTo(q2.id), true);
    assert.deepEqual(store.getState().messages.map((m) => (m.kind === 'user' || m.kind === 'assistant' ? m.text : m.kind)), ['q1', 'a1']);
    standin.enqueue({ content: [{ type: 'text', text: 'a3' }] });
    await agent.submit('q3');
    const last = JSON.stringify(sent());
    assert.match(last, /q1/);
    assert.doesNotMatch(last, /q2|a2/);
    assert.equal(agent.rewindTo(q2.id), false, 'a message that is gone cannot be rewound to again');
  });

  it('a mark from before a compaction still gives the history from before it', async () => {
    const { store, agent } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await agent.submit('q1');
    await agent.submit('q2');
    standin.enqueue({ content: [{ type: 'text', text: '<summary>s</summary>' }] });
    assert.equal(await agent.compactNow(), true);
    standin.enqueue({ content: [{ type: 'text', text: 'a3' }] });
    await agent.submit('q3');
    const q2 = store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q2')!;
    const point = agent.forkPoint(q2.id)!;
    assert.equal(point.history.length, 2, 'q1 and a1, as they were before the compaction');
    assert.match(JSON.stringify(point.history), /q1.*a1/s);
  });
});

describe('agent: context', () => {
  it('sends instruction files as a reminder and a conditional rule after reading a matching file', async () => {
    const { cwd, agent, sent } = setup({}, true);
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Project rule: be brief.');
    mkdirSync(join(cwd, '.claude', 'rules'), { recursive: true });
    writeFileSync(join(cwd, '.claude', 'rules', 'ts.md'), '---\npaths: ["**/*.ts"]\n---\nTS rule: no any.');
    writeFileSync(join(cwd, 'a.ts'), 'export {};\n');
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.ts' } }] }, { content: [{ type: 'text', text: 'done' }] });
    await agent.submit('read a.ts');
    assert.match(JSON.stringify(sent(0)[0]), /Project rule: be brief\./);
    assert.doesNotMatch(JSON.stringify(sent(0)), /TS rule/);
    const last = JSON.stringify(sent(1).at(-1));
    assert.match(last, /tool_result/);
    assert.match(last, /TS rule: no any\./);
  });
});
