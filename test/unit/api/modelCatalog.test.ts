import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type Anthropic from '@anthropic-ai/sdk';
import { MessagesClient } from '../../../src/api/messagesClient';
import { DAY_MS, ModelCatalog, type ModelCatalogOptions } from '../../../src/api/modelCatalog';
import { CONTEXT_1M_BETA, DEFAULT_MODEL, resolveModel } from '../../../src/api/models';
import { standinModel, type ModelSpec } from '../../standin/models';
import { useStandin } from '../../support/useStandin';

const spec = (s: Partial<ModelSpec> & Pick<ModelSpec, 'id' | 'created'>): ModelSpec => ({ line: 'sonnet', window: 300_000, maxTokens: 50_000, ...s });

/** A catalog a test controls: two sonnets (the newest deprecated), an opus, a retired haiku. */
const CATALOG: ModelSpec[] = [
  spec({ id: 'claude-sonnet-9', created: '2027-03-01', lifecycle: 'deprecated', deprecatedAt: '2027-04-01', retiresAt: '2027-09-30' }),
  spec({ id: 'claude-sonnet-8', created: '2027-01-01', window: 700_000, thinking: { adaptive: true, enabled: false } }),
  spec({ id: 'claude-sonnet-7', created: '2026-06-01', window: 500_000 }),
  spec({ id: 'claude-opus-8', line: 'opus', created: '2027-02-01', window: 900_000, maxTokens: 90_000 }),
  spec({ id: 'claude-haiku-7', line: 'haiku', created: '2026-01-01', lifecycle: 'retired', retiresAt: '2026-12-01' }),
  spec({ id: 'claude-haiku-8', line: 'haiku', created: '2027-01-15', window: 250_000 }),
];

const standin = useStandin({ models: CATALOG.map(standinModel), reset: 'after' });

const client = () => new MessagesClient({ apiKey: 'k', baseUrl: standin.url });

function catalog(over: Partial<ModelCatalogOptions> = {}, pageSize = 2) {
  return new ModelCatalog({ fetch: (signal) => client().listModels(signal, pageSize), endpoint: standin.url, ...over });
}

describe('model catalog from the Models API', () => {
  it('lists every page over HTTP; aliases name the newest active model of their line', async () => {
    const c = catalog();
    const snap = await c.refresh();
    assert.equal(snap.source, 'api');
    assert.equal(standin.modelsRequests.length, 3, 'six models in pages of two');
    const r = await c.resolve('sonnet');
    assert.ok(r.ok);
    assert.equal(r.model.id, 'claude-sonnet-8', 'the newer sonnet is deprecated');
    assert.equal(r.model.contextWindow, 700_000);
    assert.deepEqual(r.model.thinking, { adaptive: true, enabled: false, disabled: true });
    const opus = await c.resolve('OPUS');
    assert.ok(opus.ok);
    assert.deepEqual([opus.model.id, opus.model.contextWindow, opus.model.maxOutputTokens], ['claude-opus-8', 900_000, 90_000]);
    const haiku = await c.resolve('haiku');
    assert.ok(haiku.ok && haiku.model.id === 'claude-haiku-8', 'a retired model never answers for its line');
  });

  it('marks a deprecated model with its retirement date, and hides retired ones from the list', async () => {
    const c = catalog();
    const r = await c.resolve('claude-sonnet-9');
    assert.ok(r.ok);
    assert.equal(r.model.lifecycle, 'deprecated');
    assert.equal(r.model.retiresAt, '2027-09-30T00:00:00Z');
    assert.match(r.warning ?? '', /deprecated and retires on 2027-09-30\. Switch to claude-sonnet-8\./);
    assert.ok(!c.list().some((m) => m.id === 'claude-haiku-7'));
    assert.ok(c.list().some((m) => m.id === 'claude-sonnet-9'));
    const retired = await c.resolve('claude-haiku-7');
    assert.ok(!retired.ok);
    assert.match(retired.error, /was retired on 2026-12-01.*successor is claude-haiku-8/);
    assert.deepEqual(retired.suggestions, ['claude-haiku-8']);
  });

  it('refuses an id the API does not know, with close matches, instead of guessing', async () => {
    const c = catalog();
    const r = await c.resolve('claude-sonet-8');
    assert.ok(!r.ok);
    assert.equal(r.suggestions[0], 'claude-sonnet-8');
    assert.match(r.error, /does not know the model "claude-sonet-8"\. Close matches: claude-sonnet-8/);
    const far = await c.resolve('gpt-4o');
    assert.ok(!far.ok && far.suggestions.length > 0);
    // current() never refuses: it answers with assumed limits until resolve() has refused.
    assert.equal(c.current('claude-sonet-8').known, false);
  });

  it('lets a context-window override win over the API', async () => {
    const c = catalog();
    const r = await c.resolve('sonnet', { contextWindow: 123_456 });
    assert.ok(r.ok && r.model.contextWindow === 123_456);
  });

  it('falls back to the built-in table offline: aliases still resolve, an unknown id works with a warning', async () => {
    standin.setModels(null);
    const c = catalog();
    const snap = await c.refresh();
    assert.equal(snap.source, 'table');
    assert.match(snap.error ?? '', /404/);
    const alias = await c.resolve('sonnet');
    assert.ok(alias.ok);
    assert.equal(alias.model.id, resolveModel('sonnet').id);
    const custom = await c.resolve('my-proxy-model', { contextWindow: 64_000 });
    assert.ok(custom.ok);
    assert.equal(custom.model.known, false);
    assert.equal(custom.model.contextWindow, 64_000);
    assert.match(custom.warning ?? '', /not in Threadline's built-in model table.*could not be fetched/);
    // No hammering: the next refresh within minutes does not ask again; a forced one does.
    const asked = standin.modelsRequests.length;
    await c.refresh();
    assert.equal(standin.modelsRequests.length, asked);
    await c.refresh({ force: true });
    assert.equal(standin.modelsRequests.length, asked + 1);
  });

  it('without a key it does not fetch and keeps the table', async () => {
    const c = new ModelCatalog({ fetch: async () => undefined });
    assert.equal((await c.refresh()).source, 'table');
    assert.equal(standin.modelsRequests.length, 0);
    assert.equal(c.current(DEFAULT_MODEL).id, resolveModel(DEFAULT_MODEL).id);
  });

  it('resolves a 1M-context variant with its beta header, and refuses one a model lacks', async () => {
    const c = new ModelCatalog();
    const wide = await c.resolve('claude-sonnet-4-6[1m]');
    assert.ok(wide.ok);
    assert.deepEqual([wide.model.id, wide.model.contextWindow, wide.model.betas], ['claude-sonnet-4-6', 1_000_000, [CONTEXT_1M_BETA]]);
    const native = await c.resolve('claude-opus-4-8[1m]');
    assert.ok(native.ok && native.model.betas.length === 0 && native.model.contextWindow === 1_000_000);
    const none = await c.resolve('claude-haiku-4-5[1m]');
    assert.ok(!none.ok);
    assert.match(none.error, /no 1M-context variant/);
  });
});

describe('model catalog cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-models-'));
  let clock = 1_000_000_000;
  const now = () => clock;

  it('fetches at most once a day, across restarts, and fires onDidChange when the list changes', async () => {
    const cachePath = join(dir, 'daily.json');
    const changes: string[] = [];
    const first = catalog({ cachePath, now });
    first.onDidChange((s) => changes.push(s.source));
    assert.equal(first.current('sonnet').id, resolveModel('sonnet').id, 'the table answers before the first fetch');
    await first.refresh();
    assert.equal(first.current('sonnet').id, 'claude-sonnet-8');
    assert.deepEqual(changes, ['api']);
    const fetched = standin.modelsRequests.length;
    assert.ok(existsSync(cachePath));

    clock += 60 * 60 * 1000;
    await first.refresh();
    const restarted = catalog({ cachePath, now });
    const snap = await restarted.refresh();
    assert.equal(snap.source, 'cache');
    assert.equal(restarted.current('opus').id, 'claude-opus-8');
    assert.equal(standin.modelsRequests.length, fetched, 'an hour later: no request, in this process or the next');

    clock += DAY_MS;
    standin.setModels([...CATALOG, spec({ id: 'claude-sonnet-10', created: '2027-06-01' })].map(standinModel));
    await restarted.refresh();
    assert.ok(standin.modelsRequests.length > fetched, 'a day later it asks again');
    assert.equal(restarted.current('sonnet').id, 'claude-sonnet-10');
    const onDisk = JSON.parse(readFileSync(cachePath, 'utf8')) as { fetchedAt: number; models: Array<{ id: string }> };
    assert.equal(onDisk.fetchedAt, clock);
    assert.ok(onDisk.models.some((m) => m.id === 'claude-sonnet-10'));
  });

  it('ignores a corrupt cache, a foreign one and one dated in the future, and replaces it', async () => {
    for (const [name, content] of [
      ['garbage', '{ not json'],
      ['wrong shape', JSON.stringify({ version: 1, endpoint: standin.url, fetchedAt: clock, models: [{ id: 42 }] })],
      ['other endpoint', JSON.stringify({ version: 1, endpoint: 'https://elsewhere', fetchedAt: clock, models: [{ id: 'x', displayName: 'x', line: null, releasedAt: '2020', lifecycle: 'active' }] })],
      ['future', JSON.stringify({ version: 1, endpoint: standin.url, fetchedAt: clock + 10 * DAY_MS, models: [{ id: 'x', displayName: 'x', line: null, releasedAt: '2020', lifecycle: 'active' }] })],
    ] as const) {
      standin.reset();
      standin.setModels(CATALOG.map(standinModel));
      const cachePath = join(dir, `${name.replace(/ /g, '-')}.json`);
      writeFileSync(cachePath, content);
      const logs: string[] = [];
      const c = catalog({ cachePath, now, log: (m) => logs.push(m) });
      const snap = await c.refresh();
      assert.equal(snap.source, 'api', name);
      assert.equal(standin.modelsRequests.length > 0, true, name);
      assert.ok(JSON.parse(readFileSync(cachePath, 'utf8')).models.some((m: { id: string }) => m.id === 'claude-sonnet-8'), name);
      if (name === 'garbage' || name === 'wrong shape') assert.match(logs.join('\n'), /ignoring the model cache/, name);
    }
  });

  it('keeps the last good list when a later fetch fails', async () => {
    const cachePath = join(dir, 'keep.json');
    const c = catalog({ cachePath, now });
    await c.refresh();
    clock += 2 * DAY_MS;
    standin.setModels(null);
    const snap = await c.refresh();
    assert.equal(snap.source, 'api');
    assert.match(snap.error ?? '', /404/);
    assert.equal(c.current('sonnet').id, 'claude-sonnet-8');
  });

  it('maps the API fields it uses, nulls included', async () => {
    const bare: Anthropic.ModelInfo = { ...standinModel(spec({ id: 'claude-bare-1', created: '2027-01-01' })), capabilities: null, max_input_tokens: null, line: null };
    standin.setModels([bare]);
    const c = catalog();
    await c.refresh();
    const r = await c.resolve('claude-bare-1');
    assert.ok(r.ok);
    assert.equal(r.model.known, true);
    assert.equal(r.model.contextWindow, 200_000, 'no max_input_tokens: the assumed window');
    assert.equal(r.model.thinking, undefined, 'no capabilities: no thinking sent');
  });
});

describe('a server whose model list has another shape', () => {
  it('reads what it can (a proxy in the OpenAI style), skips what it cannot, and still refuses what is not listed', async () => {
    const odd = [{ id: 'gateway-sonnet', object: 'model', created: 1_700_000_000, owned_by: 'proxy' }, { id: 42 }, { id: 'gateway-haiku', lifecycle: null, line: 7, max_tokens: -5 }];
    standin.setModels(odd as unknown as Anthropic.ModelInfo[]);
    const cachePath = join(mkdtempSync(join(tmpdir(), 'tl-models-odd-')), 'models.json');
    // One page: a junk id cannot serve as the next page's cursor.
    const c = catalog({ cachePath }, 100);
    const snap = await c.refresh();
    assert.equal(snap.source, 'api');
    assert.deepEqual(snap.models.map((m) => [m.id, m.lifecycle, m.maxOutputTokens]), [
      ['gateway-sonnet', 'active', undefined],
      ['gateway-haiku', 'active', undefined],
    ]);
    const ok = await c.resolve('gateway-haiku');
    assert.ok(ok.ok && ok.model.contextWindow === 200_000 && ok.model.thinking === undefined);
    const no = await c.resolve('gateway-sonet');
    assert.ok(!no.ok && no.suggestions[0] === 'gateway-sonnet');
    // What was written reads back next time (the cache schema accepts every fact it wrote).
    const again = catalog({ cachePath }, 100);
    assert.equal((await again.refresh()).source, 'cache');
  });
});
