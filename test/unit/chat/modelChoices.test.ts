import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelFacts } from '../../../src/api/models';
import { FALLBACK_MODELS } from '../../../src/api/modelTable';
import { modelChoices } from '../../../src/chat/modelChoices';
import { parseWebviewMessage } from '../../../src/shared/protocol';

const facts = (f: Partial<ModelFacts> & Pick<ModelFacts, 'id' | 'releasedAt'>): ModelFacts => ({ displayName: f.id, line: 'sonnet', lifecycle: 'active', contextWindow: 200_000, ...f });

const MODELS: ModelFacts[] = [
  facts({ id: 'claude-sonnet-9', displayName: 'Claude Sonnet 9', releasedAt: '2027-03-01', contextWindow: 1_000_000 }),
  facts({ id: 'claude-sonnet-8', displayName: 'Claude Sonnet 8', releasedAt: '2026-01-01', lifecycle: 'deprecated', retiresAt: '2027-01-31T00:00:00Z' }),
  facts({ id: 'claude-opus-7', displayName: 'Claude Opus 7', line: 'opus', releasedAt: '2025-01-01', lifecycle: 'retired', retiresAt: '2026-01-01' }),
  facts({ id: 'claude-haiku-9', displayName: 'Claude Haiku 9', line: 'haiku', releasedAt: '2027-02-01', contextWindow: 32_000 }),
  facts({ id: 'proxy-model', displayName: 'proxy-model', line: null, releasedAt: '', contextWindow: undefined }),
];

describe('the model picker’s entries', () => {
  it('aliases first (newest of each line), then every model that is not retired, newest first, with window and lifecycle', () => {
    const choices = modelChoices(MODELS, { requested: 'sonnet', id: 'claude-sonnet-9' });
    assert.deepEqual(
      choices.map((c) => [c.group, c.value, c.label]),
      [
        ['alias', 'sonnet', 'Sonnet (latest)'],
        ['alias', 'haiku', 'Haiku (latest)'],
        ['model', 'claude-sonnet-9', 'Claude Sonnet 9'],
        ['model', 'claude-haiku-9', 'Claude Haiku 9'],
        ['model', 'claude-sonnet-8', 'Claude Sonnet 8'],
        ['model', 'proxy-model', 'proxy-model'],
      ],
    );
    assert.ok(!choices.some((c) => c.value === 'claude-opus-7' || c.value === 'opus'), 'retired models (and a line with only them) are hidden');
    const byValue = new Map(choices.map((c) => [c.value, c]));
    assert.equal(byValue.get('claude-sonnet-9')!.description, 'claude-sonnet-9 · 1M window');
    assert.equal(byValue.get('claude-haiku-9')!.description, 'claude-haiku-9 · 32k window');
    assert.equal(byValue.get('proxy-model')!.description, 'proxy-model · window unknown');
    assert.equal(byValue.get('claude-sonnet-8')!.detail, 'Deprecated: retires on 2027-01-31');
    assert.equal(byValue.get('claude-sonnet-9')!.detail, undefined);
    assert.match(byValue.get('sonnet')!.description, /Claude Sonnet 9 · claude-sonnet-9 · 1M window/);
  });

  it('marks the entry the setting names: the alias, an id, or (typed by hand) the model it resolves to', () => {
    const current = (requested: string, id: string) => modelChoices(MODELS, { requested, id }).filter((c) => c.current).map((c) => c.value);
    assert.deepEqual(current('sonnet', 'claude-sonnet-9'), ['sonnet']);
    assert.deepEqual(current('claude-sonnet-9', 'claude-sonnet-9'), ['claude-sonnet-9']);
    assert.deepEqual(current('claude-sonnet-9-20270301', 'claude-sonnet-9'), ['claude-sonnet-9']);
    assert.deepEqual(current('unknown', 'unknown'), []);
  });

  it('a context-window override is the window shown for every model', () => {
    const choices = modelChoices(MODELS, { requested: 'sonnet', id: 'claude-sonnet-9' }, 64_000);
    assert.ok(choices.every((c) => c.description.endsWith('64k window')));
  });

  it('offline, the built-in table still gives a usable picker', () => {
    const choices = modelChoices(FALLBACK_MODELS, { requested: 'sonnet', id: 'claude-sonnet-5-5' });
    assert.ok(choices.some((c) => c.value === 'opus') && choices.some((c) => c.value === 'claude-sonnet-4-5' && /retires on 2026-11-30/.test(c.detail ?? '')));
    assert.ok(!choices.some((c) => c.value === 'claude-3-5-haiku'));
  });
});

describe('model/switch from the panel', () => {
  it('takes a model id or alias, nothing else', () => {
    for (const model of ['claude-sonnet-9', 'sonnet', 'claude-sonnet-4-6[1m]', 'claude-opus-4-5-20251101']) {
      assert.ok(parseWebviewMessage({ type: 'model/switch', payload: { model } }).ok, model);
    }
    for (const model of ['', ' sonnet', 'a b', 'x'.repeat(300), 'rm -rf /', 'sonnet\n', 42]) {
      assert.equal(parseWebviewMessage({ type: 'model/switch', payload: { model } }).ok, false, String(model));
    }
    assert.ok(parseWebviewMessage({ type: 'command/run', payload: { command: 'selectModel' } }).ok);
  });
});
