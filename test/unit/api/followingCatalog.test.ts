import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FollowingCatalog } from '../../../src/api/followingCatalog';
import { MessagesClient } from '../../../src/api/messagesClient';
import { ModelCatalog } from '../../../src/api/modelCatalog';
import { standinModel } from '../../standin/models';
import { startStandin, type Standin } from '../../standin/server';

let first: Standin;
let second: Standin;
before(async () => {
  first = await startStandin({ models: [standinModel({ id: 'claude-sonnet-9', line: 'sonnet', created: '2027-01-01', window: 300_000, maxTokens: 50_000 })] });
  second = await startStandin({ models: [standinModel({ id: 'claude-sonnet-10', line: 'sonnet', created: '2027-06-01', window: 700_000, maxTokens: 50_000 })] });
});
after(async () => {
  await first.close();
  await second.close();
});

describe('the catalog follows the endpoint', () => {
  it('a changed apiBaseUrl brings the new endpoint’s list at once; the same endpoint keeps its catalog', async () => {
    const cachePath = join(mkdtempSync(join(tmpdir(), 'tl-follow-')), 'models.json');
    const created: ModelCatalog[] = [];
    let onEndpoint: ((endpoint: string) => void) | undefined;
    let unsubscribed = false;
    const catalog = new FollowingCatalog(
      (endpoint) => {
        const c = new ModelCatalog({ cachePath, endpoint, fetch: (signal) => new MessagesClient({ apiKey: 'k', baseUrl: endpoint }).listModels(signal) });
        created.push(c);
        return c;
      },
      {
        initial: first.url,
        watch: (cb) => {
          onEndpoint = cb;
          return () => {
            unsubscribed = true;
          };
        },
      },
    );
    const changes: string[] = [];
    catalog.onDidChange((s) => changes.push(`${s.source}:${s.models.map((m) => m.id).join(',')}`));
    await catalog.refresh();
    assert.equal(catalog.current('sonnet').id, 'claude-sonnet-9');
    assert.equal(first.modelsRequests.length, 1);

    onEndpoint!(second.url);
    assert.equal(created.length, 2);
    assert.equal(catalog.currentEndpoint, second.url);
    await catalog.refresh();
    assert.equal(catalog.current('sonnet').id, 'claude-sonnet-10', 'the new endpoint’s newest sonnet');
    assert.equal(catalog.current('sonnet').contextWindow, 700_000);
    assert.equal((await catalog.resolve('claude-sonnet-9')).ok, false, 'an id only the old endpoint knew is refused');
    assert.equal(second.modelsRequests.length, 1, 'asked once');
    assert.ok(changes.at(-1)!.startsWith('api:claude-sonnet-10'));

    onEndpoint!(second.url);
    assert.equal(created.length, 2, 'the same endpoint does not make a new catalog');

    catalog.dispose();
    assert.ok(unsubscribed, 'stops watching the setting');
  });
});
