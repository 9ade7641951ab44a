import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MessagesClient } from '../../../src/api/messagesClient';
import { ModelCatalog } from '../../../src/api/modelCatalog';
import { resolveModel } from '../../../src/api/models';
import type { MessageParam } from '../../../src/api/types';
import { createChatHandlers } from '../../../src/chat/chatController';
import { runModelCommand } from '../../../src/chat/modelCommands';
import { ModelSwitcher, planSwitch, type CompactChoice, type SwitchPlan } from '../../../src/chat/modelSwitch';
import { computeThresholds } from '../../../src/conversation/thresholds';
import type { ViewMessage } from '../../../src/shared/viewState';
import { standinModel, type ModelSpec } from '../../standin/models';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';
import { chatDeps, stubSession } from '../../support/chatDeps';

const spec = (s: Partial<ModelSpec> & Pick<ModelSpec, 'id' | 'created'>): ModelSpec => ({ line: 'sonnet', window: 1_000_000, maxTokens: 64_000, ...s });

/** A big window, a small one, and a deprecated model whose line has a newer active one. */
const CATALOG: ModelSpec[] = [
  spec({ id: 'claude-sonnet-9', created: '2027-03-01', displayName: 'Claude Sonnet 9' }),
  spec({ id: 'claude-haiku-9', line: 'haiku', created: '2027-02-01', window: 32_000, maxTokens: 8_000, displayName: 'Claude Haiku 9' }),
  spec({ id: 'claude-sonnet-8', created: '2026-01-01', window: 200_000, lifecycle: 'deprecated', deprecatedAt: '2026-10-01', retiresAt: '2027-01-31', displayName: 'Claude Sonnet 8' }),
  spec({ id: 'claude-opus-7', line: 'opus', created: '2025-01-01', lifecycle: 'retired', retiresAt: '2026-01-01' }),
];

const cwd = mkdtempSync(join(tmpdir(), 'tl-switch-'));
const standin = useStandin({ models: CATALOG.map(standinModel) });

const bulk = (kTokens: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil((kTokens * 1000 * 4) / 27));
/** About `kTokens` thousand tokens of conversation. */
const bigHistory = (kTokens: number): MessageParam[] => [
  { role: 'user', content: [{ type: 'text', text: bulk(kTokens) }] },
  { role: 'assistant', content: [{ type: 'text', text: 'noted' }] },
];

function setup(model = 'claude-sonnet-9', choice: CompactChoice = 'compact') {
  const models = new ModelCatalog({ fetch: (signal) => new MessagesClient({ apiKey: 'k', baseUrl: standin.url }).listModels(signal), endpoint: standin.url });
  const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { model }, extra: { models } });
  const asked: SwitchPlan[] = [];
  const persisted: Array<[string, string]> = [];
  const compactions: number[] = [];
  const switcher = new ModelSwitcher({
    store,
    models,
    agent: () => agent,
    confirmCompact: async (plan) => {
      asked.push(plan);
      return choice;
    },
    compact: async () => {
      compactions.push(agent.usedTokens());
      return agent.compactNow();
    },
    persist: async (key, value) => {
      persisted.push([key, value]);
    },
  });
  return { agent, store, models, switcher, asked, persisted, compactions };
}

const notices = (messages: readonly ViewMessage[]) => messages.filter((m): m is Extract<ViewMessage, { kind: 'notice' }> => m.kind === 'notice');

describe('planSwitch: does the conversation fit the new window', () => {
  it('offers compaction exactly from the target window’s blocking threshold', () => {
    const small = resolveModel('claude-haiku-4-5', { contextWindow: 32_000 });
    const { blockingAt } = computeThresholds(small.contextWindow, small.maxOutputTokens);
    assert.equal(planSwitch(blockingAt - 1, small).kind, 'fits');
    const at = planSwitch(blockingAt, small);
    assert.equal(at.kind, 'compactFirst');
    assert.ok(at.kind === 'compactFirst' && at.blockingAt === blockingAt && at.used === blockingAt);
    assert.equal(planSwitch(150_000, resolveModel('claude-sonnet-4-6')).kind, 'fits');
    assert.equal(planSwitch(199_000, resolveModel('claude-sonnet-4-6')).kind, 'compactFirst');
  });
});

describe('switching the model mid-session', () => {
  it('keeps the conversation; the window, thresholds and header follow at once; the setting is saved', async () => {
    const { agent, store, models, switcher, asked, persisted } = setup('claude-haiku-9');
    await models.refresh();
    agent.setHistory(bigHistory(5));
    const history = [...agent.messages];
    assert.equal(store.getState().tokens.contextWindow, 32_000);
    assert.equal(await switcher.switchTo('sonnet'), 'switched');
    const s = store.getState();
    assert.equal(s.settings.model, 'sonnet');
    assert.equal(s.model, 'sonnet');
    assert.equal(s.tokens.contextWindow, 1_000_000, 'the meter follows the new window without a request');
    assert.equal(s.tokens.blockingAt, computeThresholds(1_000_000, 64_000).blockingAt);
    assert.deepEqual({ id: s.modelView.id, name: s.modelView.displayName, requested: s.modelView.requested }, { id: 'claude-sonnet-9', name: 'Claude Sonnet 9', requested: 'sonnet' });
    assert.deepEqual(agent.messages, history, 'the conversation is kept');
    assert.deepEqual(asked, [], 'a bigger window needs no compaction');
    assert.deepEqual(persisted, [['model', 'sonnet']]);
    assert.match(notices(s.messages).at(-1)!.text, /Switched to Claude Sonnet 9 \(claude-sonnet-9, 1M window\)/);
    // The next request names the new model.
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('go on');
    assert.equal((standin.requests.at(-1)!.body as { model: string }).model, 'claude-sonnet-9');
    assert.equal(standin.requests.at(-1)!.validationError, null);
  });

  it('a conversation that no longer fits the smaller window is compacted first, then switched', async () => {
    const { agent, store, models, switcher, asked, compactions } = setup('claude-sonnet-9', 'compact');
    await models.refresh();
    agent.setHistory(bigHistory(40));
    // The figure counts the system prompt and tools once a request has been built.
    await agent.previewContext();
    const used = agent.usedTokens();
    const blockingAt = computeThresholds(32_000, 8_000).blockingAt;
    assert.ok(used > blockingAt, `the conversation (${used}) is past the small window's blocking threshold (${blockingAt})`);
    standin.enqueue({ content: [{ type: 'text', text: '<summary>what we did</summary>' }] });
    assert.equal(await switcher.switchTo('claude-haiku-9'), 'switched');
    assert.equal(asked.length, 1);
    const plan = asked[0]!;
    assert.ok(plan.kind === 'compactFirst');
    assert.equal(plan.used, used);
    assert.equal(plan.blockingAt, blockingAt);
    assert.equal(plan.target.id, 'claude-haiku-9');
    assert.deepEqual(compactions, [used], 'compacted before the switch, at the old size');
    assert.ok(store.getState().messages.some((m) => m.kind === 'compaction'));
    assert.equal(store.getState().settings.model, 'claude-haiku-9');
    assert.equal(store.getState().tokens.contextWindow, 32_000);
    assert.ok(store.getState().tokens.used < blockingAt);
    // The summarising request went to the model in use before the switch (its window held the conversation).
    assert.equal((standin.requests.at(-1)!.body as { model: string }).model, 'claude-sonnet-9');
  });

  it('Cancel keeps the model; "switch anyway" switches and says the conversation must be compacted', async () => {
    const cancelled = setup('claude-sonnet-9', 'cancel');
    await cancelled.models.refresh();
    cancelled.agent.setHistory(bigHistory(40));
    assert.equal(await cancelled.switcher.switchTo('claude-haiku-9'), 'cancelled');
    assert.equal(cancelled.store.getState().settings.model, 'claude-sonnet-9');
    assert.equal(cancelled.store.getState().tokens.contextWindow, 1_000_000);
    assert.deepEqual(cancelled.persisted, []);

    const anyway = setup('claude-sonnet-9', 'switch');
    await anyway.models.refresh();
    anyway.agent.setHistory(bigHistory(40));
    assert.equal(await anyway.switcher.switchTo('claude-haiku-9'), 'switched');
    assert.deepEqual(anyway.compactions, []);
    const last = notices(anyway.store.getState().messages).at(-1)!;
    assert.equal(last.level, 'warning');
    assert.match(last.text, /compact it before the next message/);
    assert.deepEqual(last.action, { label: 'Compact', command: 'compact' });
    assert.equal(anyway.store.getState().tokens.level, 'blocking');
  });

  it('a compaction that fails leaves the model as it was', async () => {
    const { agent, store, models, switcher } = setup('claude-sonnet-9', 'compact');
    await models.refresh();
    agent.setHistory(bigHistory(40));
    standin.enqueue({ content: [{ type: 'text', text: 'x' }], fault: { kind: 'http', status: 400, message: 'bad request' } });
    assert.equal(await switcher.switchTo('claude-haiku-9'), 'cancelled');
    assert.equal(store.getState().settings.model, 'claude-sonnet-9');
  });

  it('refuses an id the Models API does not know (close matches), a retired model, and a switch while answering', async () => {
    const { store, models, switcher, persisted } = setup();
    await models.refresh();
    assert.equal(await switcher.switchTo('claude-sonet-9'), 'refused');
    assert.match(notices(store.getState().messages).at(-1)!.text, /does not know the model "claude-sonet-9".*claude-sonnet-9/);
    assert.equal(await switcher.switchTo('claude-opus-7'), 'refused');
    assert.match(notices(store.getState().messages).at(-1)!.text, /retired/);
    store.setState((s) => ({ ...s, status: 'streaming' }));
    assert.equal(await switcher.switchTo('claude-haiku-9'), 'busy');
    assert.equal(store.getState().settings.model, 'claude-sonnet-9');
    assert.deepEqual(persisted, []);
  });
});

describe('a deprecated model in use', () => {
  it('gets a notice with its retirement date and a one-click switch to its successor, which works', async () => {
    const { agent, store, models, switcher } = setup('claude-sonnet-8');
    await models.refresh();
    standin.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    await agent.submit('hi');
    const notice = notices(store.getState().messages).find((n) => /deprecated/.test(n.text));
    assert.ok(notice, 'a deprecation notice');
    assert.match(notice.text, /Claude Sonnet 8 is deprecated and retires on 2027-01-31/);
    assert.deepEqual(notice.action, { label: 'Switch to Claude Sonnet 9', command: 'switchModel', model: 'claude-sonnet-9' });
    // The notice's button as the panel sends it.
    const handlers = createChatHandlers(chatDeps(store, { session: stubSession({ submit: (t) => agent.submit(t) }), models: { slashCommand: async () => false, switchModel: async (m) => void (await switcher.switchTo(m)) } }));
    await handlers['model/switch']({ model: 'claude-sonnet-9' });
    assert.equal(store.getState().settings.model, 'claude-sonnet-9');
    assert.equal(store.getState().modelView.lifecycle, 'active');
    // Once, not on every message.
    standin.enqueue({ content: [{ type: 'text', text: 'again' }] });
    await agent.submit('more');
    assert.equal(notices(store.getState().messages).filter((n) => /deprecated/.test(n.text)).length, 1);
  });

  it('choosing a deprecated model says so at once, with the switch back; the next message does not repeat it', async () => {
    const { agent, store, models, switcher } = setup('claude-sonnet-9');
    await models.refresh();
    assert.equal(await switcher.switchTo('claude-sonnet-8'), 'switched');
    const deprecation = () => notices(store.getState().messages).filter((n) => /deprecated/.test(n.text));
    assert.equal(deprecation().length, 1);
    assert.match(deprecation()[0]!.text, /retires on 2027-01-31/);
    assert.deepEqual(deprecation()[0]!.action, { label: 'Switch to Claude Sonnet 9', command: 'switchModel', model: 'claude-sonnet-9' });
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('hi');
    assert.equal(deprecation().length, 1);
    assert.equal((standin.requests.at(-1)!.body as { model: string }).model, 'claude-sonnet-8', 'a deprecated model still answers');
  });

  it('the header says deprecated with the date, before any message', async () => {
    const { agent, store, models } = setup('claude-sonnet-8');
    await models.refresh();
    agent.publishTokens();
    assert.deepEqual({ lifecycle: store.getState().modelView.lifecycle, retires: store.getState().modelView.retiresAt?.slice(0, 10) }, { lifecycle: 'deprecated', retires: '2027-01-31' });
  });
});

describe('/model and /think in the composer', () => {
  it('/model opens the picker, /model NAME switches, other text is a message', async () => {
    const { store, models, switcher } = setup();
    await models.refresh();
    let picks = 0;
    const deps = { store, switcher, pick: async () => void picks++ };
    assert.equal(await runModelCommand('/model', deps), true);
    assert.equal(picks, 1);
    assert.equal(await runModelCommand('  /model   haiku ', deps), true);
    assert.equal(store.getState().settings.model, 'haiku');
    assert.equal(store.getState().modelView.id, 'claude-haiku-9');
    assert.equal(await runModelCommand('/models are great', deps), false);
    assert.equal(await runModelCommand('what does /model do?', deps), false);
    assert.equal(await runModelCommand('/model a b', deps), false, 'two words are not a model name: sent as a message');
  });

  it('/think toggles thinking, /think on|off sets it, and the next request follows', async () => {
    const { agent, store, switcher, persisted } = setup();
    const deps = { store, switcher, pick: async () => undefined };
    assert.equal(store.getState().settings.thinking, 'adaptive');
    await runModelCommand('/think', deps);
    assert.equal(store.getState().settings.thinking, 'off');
    assert.equal(store.getState().modelView.thinking, false);
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('q');
    assert.deepEqual((standin.requests.at(-1)!.body as { thinking?: unknown }).thinking, { type: 'disabled' });
    await runModelCommand('/think on', deps);
    assert.equal(store.getState().settings.thinking, 'adaptive');
    await runModelCommand('/think off', deps);
    await runModelCommand('/think maybe', deps);
    assert.equal(store.getState().settings.thinking, 'off');
    assert.match(notices(store.getState().messages).at(-1)!.text, /takes "on" or "off"/);
    assert.deepEqual(persisted, [['thinking', 'off'], ['thinking', 'adaptive'], ['thinking', 'off']]);
  });

  it('the chat handler runs slash commands instead of sending them to the model', async () => {
    const { agent, store, switcher } = setup();
    const handlers = createChatHandlers(
      chatDeps(store, {
        session: stubSession({ submit: (t) => agent.submit(t) }),
        models: { slashCommand: (text) => runModelCommand(text, { store, switcher, pick: async () => undefined }), switchModel: async () => undefined },
      }),
    );
    await handlers['chat/send']({ text: '/think' });
    assert.equal(standin.requests.length, 0);
    assert.equal(agent.messages.length, 0);
    assert.equal(store.getState().settings.thinking, 'off');
  });
});
