import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MessagesClient } from '../../../src/api/messagesClient';
import { ModelCatalog } from '../../../src/api/modelCatalog';
import { standinModel } from '../../standin/models';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const cwd = mkdtempSync(join(tmpdir(), 'tl-models-agent-'));
const standin = useStandin();

function agentWith(model: string) {
  const models = new ModelCatalog({ fetch: (signal) => new MessagesClient({ apiKey: 'k', baseUrl: standin.url }).listModels(signal) });
  return { ...createStandinAgent({ url: standin.url, cwd, settings: { model }, extra: { models } }), models };
}

const notices = (s: { messages: ReadonlyArray<{ kind: string; level?: string; text?: string }> }) => s.messages.filter((m) => m.kind === 'notice').map((m) => `${m.level}: ${m.text}`);

describe('the agent and the model catalog', () => {
  it('refuses a model the API does not list before sending, keeps the message, and sends once a good one is chosen', async () => {
    const { agent, store } = agentWith('claude-sonet-4-6');
    await agent.submit('hello');
    assert.equal(standin.requests.length, 0);
    assert.match(notices(store.getState()).join('\n'), /^error: The API does not know the model "claude-sonet-4-6"\. Close matches: claude-sonnet-4-6.*Your message is kept/m);
    assert.equal(store.getState().status, 'idle');
    store.setState((s) => ({ ...s, settings: { ...s.settings, model: 'opus' } }));
    standin.enqueue({ content: [{ type: 'text', text: 'hi' }] });
    await agent.retry();
    assert.equal(agent.outcome, 'end_turn');
    assert.equal((standin.requests[0]!.body as { model: string }).model, 'claude-opus-5-5');
  });

  it('warns once that a deprecated model retires, and uses its window from the API', async () => {
    const { agent, store } = agentWith('claude-sonnet-4-5');
    standin.enqueue({ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] });
    await agent.submit('a');
    await agent.submit('b');
    const warnings = notices(store.getState()).filter((n) => n.startsWith('warning'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /deprecated and retires on 2026-11-30\. Switch to claude-sonnet-5-5/);
    assert.equal(store.getState().tokens.contextWindow, 200_000);
    assert.equal((standin.requests[0]!.body as { model: string }).model, 'claude-sonnet-4-5');
  });

  it('the meter follows the catalog: the window of an alias changes when the list does', async () => {
    standin.setModels([standinModel({ id: 'claude-sonnet-77', line: 'sonnet', created: '2030-01-01', window: 777_000, maxTokens: 64_000 }), standinModel({ id: 'claude-sonnet-4-6', line: 'sonnet', created: '2026-02-17', window: 200_000, maxTokens: 64_000 })]);
    const { agent, store, models } = agentWith('sonnet');
    models.onDidChange(() => agent.publishTokens());
    assert.equal(store.getState().tokens.contextWindow, 1_000_000, 'the table, before the list is known');
    await models.refresh();
    assert.equal(store.getState().tokens.contextWindow, 777_000);
    store.setState((s) => ({ ...s, settings: { ...s.settings, model: 'claude-sonnet-4-6' } }));
    agent.publishTokens();
    assert.equal(store.getState().tokens.contextWindow, 200_000);
  });
});
