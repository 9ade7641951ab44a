import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeThresholds, tokenLevel, contextWindowOverride, MIN_CONTEXT_WINDOW } from '../../../src/conversation/thresholds';
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

describe('the threadline.contextWindow setting', () => {
  it('keeps the model window for 0 or a value that is no number, and raises a tiny override to the minimum', () => {
    for (const v of [0, -5, undefined, null, '200000', Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(contextWindowOverride(v), 0, String(v));
    // Before, 200 was taken as a 200-token window and every request was refused as too long.
    assert.equal(contextWindowOverride(200), MIN_CONTEXT_WINDOW);
    assert.equal(contextWindowOverride(8191.9), MIN_CONTEXT_WINDOW);
    assert.equal(contextWindowOverride(100_000.7), 100_000);
  });
});
