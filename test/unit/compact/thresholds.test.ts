import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeThresholds, tokenLevel } from '../../../src/conversation/thresholds';
import { resolveModel } from '../../../src/api/models';

describe('thresholds', () => {
  it('follow the seeds for a 200k window with 64k max output', () => {
    const t = computeThresholds(200_000, 64_000);
    assert.equal(t.effectiveWindow, 180_000);
    assert.equal(t.autoCompactAt, 167_000);
    assert.equal(t.warningAt, 160_000);
    assert.equal(t.errorAt, 160_000);
    assert.equal(t.blockingAt, 177_000);
  });

  it('reserve only the model output when it is below 20k', () => {
    assert.equal(computeThresholds(100_000, 8_192).effectiveWindow, 91_808);
  });

  it('map usage to levels in order', () => {
    const t = computeThresholds(200_000, 64_000);
    assert.equal(tokenLevel(0, t), 'ok');
    assert.equal(tokenLevel(159_999, t), 'ok');
    assert.equal(tokenLevel(160_000, t), 'warning');
    assert.equal(tokenLevel(167_000, t), 'error');
    assert.equal(tokenLevel(177_000, t), 'blocking');
  });
});

describe('resolveModel', () => {
  it('knows dated ids by family and prefers the longest prefix', () => {
    const m = resolveModel('claude-opus-4-1-20250805');
    assert.equal(m.known, true);
    assert.equal(m.maxOutputTokens, 32_000);
    assert.equal(m.price?.input, 15);
  });

  it('falls back for unknown ids and honours a context window override', () => {
    const m = resolveModel('my-local-model', { contextWindow: 32_768 });
    assert.equal(m.known, false);
    assert.equal(m.contextWindow, 32_768);
  });
});
