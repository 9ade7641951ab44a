import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_MODEL_SPECS, standinModel } from '../../standin/models';
import { startStandin, type Standin } from '../../standin/server';
import { rejection } from '../../support/rejection';

describe('Models API stand-in with the real SDK', () => {
  let standin: Standin;
  let client: Anthropic;
  const listed = DEFAULT_MODEL_SPECS.filter((m) => (m.lifecycle ?? 'active') !== 'retired');

  before(async () => {
    standin = await startStandin();
    client = new Anthropic({ apiKey: 'test', baseURL: standin.url, maxRetries: 0 });
  });
  after(() => standin.close());
  afterEach(() => standin.reset());

  it('pages through active and deprecated models, newest first, with has_more and the cursors', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list({ limit: 3 })) ids.push(m.id);
    const expected = [...listed].sort((a, b) => (a.created < b.created ? 1 : -1)).map((m) => m.id);
    assert.deepEqual(ids, expected);
    assert.equal(standin.modelsRequests.length, Math.ceil(expected.length / 3));
    assert.match(standin.modelsRequests[1]!.path, new RegExp(`after_id=${expected[2]}`));

    const first = await client.models.list({ limit: 2 });
    assert.deepEqual(
      first.data.map((m) => m.id),
      expected.slice(0, 2),
    );
    assert.equal(first.has_more, true);
    assert.equal(first.first_id, expected[0]);
    assert.equal(first.last_id, expected[1]);
    const back = await client.models.list({ limit: 2, before_id: expected[3]! });
    assert.deepEqual(
      back.data.map((m) => m.id),
      expected.slice(1, 3),
    );
    assert.equal(back.has_more, true, 'one more model before this page');
  });

  it('lists retired models only when asked, and retrieves any model by id or undated alias', async () => {
    const retired = await client.models.list({ lifecycle: ['retired'] });
    assert.deepEqual(retired.data.map((m) => m.lifecycle), ['retired', 'retired']);
    const deprecated = await client.models.retrieve('claude-sonnet-4-5');
    assert.equal(deprecated.id, 'claude-sonnet-4-5-20250929');
    assert.equal(deprecated.lifecycle, 'deprecated');
    assert.equal(deprecated.retires_at, '2026-11-30T00:00:00Z');
    assert.equal(deprecated.display_name, 'Claude Sonnet 4.5');
    assert.equal(deprecated.capabilities?.thinking.types.enabled.supported, true);
    const err = await rejection(client.models.retrieve('claude-nonesuch-9'));
    assert.ok(err instanceof Anthropic.NotFoundError, String(err));
  });

  it('refuses bad paging parameters, and a message to a retired model', async () => {
    assert.ok((await rejection(client.models.list({ limit: 0 }))) instanceof Anthropic.BadRequestError);
    assert.ok((await rejection(client.models.list({ after_id: 'nope' }))) instanceof Anthropic.BadRequestError);
    const err = await rejection(client.messages.create({ model: 'claude-opus-4-1-20250805', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }));
    assert.ok(err instanceof Anthropic.NotFoundError, String(err));
  });

  it('serves the catalog a test sets, or no Models API at all', async () => {
    standin.setModels([standinModel({ id: 'only-one', line: 'sonnet', created: '2026-01-01', window: 50_000, maxTokens: 4_000 })]);
    const page = await client.models.list();
    assert.deepEqual(
      page.data.map((m) => [m.id, m.max_input_tokens]),
      [['only-one', 50_000]],
    );
    standin.setModels(null);
    assert.ok((await rejection(client.models.list())) instanceof Anthropic.NotFoundError);
    const viaControl = await fetch(`${standin.url}/_standin/models`, { method: 'POST', body: JSON.stringify([standinModel({ id: 'ctl', line: null, created: '2026-01-01', window: 1, maxTokens: 1 })]) });
    assert.equal(viaControl.status, 200);
    assert.deepEqual(
      (await client.models.list()).data.map((m) => m.id),
      ['ctl'],
    );
    standin.reset();
    assert.equal((await client.models.list({ limit: 1 })).data[0]?.id, 'claude-fable-5-2', 'reset restores the default catalog');
  });
});
