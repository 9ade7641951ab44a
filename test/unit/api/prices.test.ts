import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { costUsd } from '../../../src/api/cost';
import { priceFor } from '../../../src/api/prices';
import { RuntimeState } from '../../../src/state/runtimeState';

const usage = (input: number, output: number, write = 0, read = 0) => ({ inputTokens: input, outputTokens: output, cacheCreationInputTokens: write, cacheReadInputTokens: read });

describe('prices', () => {
  it('prices known models, dated ids by their undated entry, cache writes at 1.25x and reads at 0.1x', () => {
    assert.equal(costUsd('claude-sonnet-4-6', usage(100_000, 0)), 0.3);
    assert.equal(costUsd('claude-haiku-4-5-20251001', usage(0, 1_000_000)), 5);
    assert.equal(costUsd('claude-opus-4-8', usage(0, 0, 1_000_000, 1_000_000)), 6.25 + 0.5);
    assert.equal(priceFor('claude-fable-5')?.output, 50);
  });

  it('has no price for models without a published one, and none for a 1M-beta request billed at a premium', () => {
    for (const id of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-fable-5-2', 'my-proxy-model']) {
      assert.equal(costUsd(id, usage(1000, 1000)), undefined, id);
    }
    assert.equal(costUsd('claude-sonnet-4-6', usage(150_000, 100, 0, 60_000)), undefined, 'over 200k input on a 200k model');
    assert.ok((costUsd('claude-opus-4-8', usage(150_000, 100, 0, 60_000)) ?? 0) > 0, 'a native 1M model has no premium');
  });

  it('the runtime adds up known costs and counts the requests it could not price', () => {
    const r = new RuntimeState('/tmp');
    r.recordUsage('claude-sonnet-4-6', usage(1_000_000, 0), 3);
    r.recordUsage('claude-sonnet-5-5', usage(10, 10), undefined);
    r.recordUsage('claude-sonnet-5-5', usage(10, 10), undefined);
    assert.equal(r.totalCostUsd, 3);
    assert.equal(r.unpricedRequests, 2);
    assert.equal(r.modelUsage.get('claude-sonnet-5-5')?.costUsd, undefined);
    assert.equal(r.modelUsage.get('claude-sonnet-5-5')?.requests, 2);
    assert.equal(r.modelUsage.get('claude-sonnet-4-6')?.costUsd, 3);
  });
});
