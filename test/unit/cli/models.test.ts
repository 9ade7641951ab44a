import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { standinModel } from '../../standin/models';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'));
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', ...env },
    cwd: mkdtempSync(join(tmpdir(), 'tl-cli-')),
  });
  return { code, out, err, stateDir };
}

const sentModel = () => (standin.requests.at(-1)!.body as { model: string }).model;

describe('threadline --model', () => {
  it('resolves sonnet, opus and haiku to the newest active model of the line the API lists', async () => {
    for (const [alias, id] of [
      [undefined, 'claude-sonnet-5-5'],
      ['sonnet', 'claude-sonnet-5-5'],
      ['opus', 'claude-opus-5-5'],
      ['haiku', 'claude-haiku-5-5'],
      ['claude-opus-4-8', 'claude-opus-4-8'],
    ] as const) {
      standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
      const r = await cli(['-p', 'hi', ...(alias ? ['--model', alias] : [])]);
      assert.equal(r.code, 0, r.err);
      assert.equal(sentModel(), id, alias ?? 'default');
      assert.equal(r.err, '');
    }
    assert.ok(standin.modelsRequests.length > 0);
  });

  it('refuses an id the API does not list, with close matches, before sending anything', async () => {
    const r = await cli(['-p', 'hi', '--model', 'claude-sonet-4-6']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^threadline: --model: The API does not know the model "claude-sonet-4-6"\. Close matches: claude-sonnet-4-6/);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.equal(standin.requests.length, 0);
  });

  it('warns about a deprecated model and says when it retires; caches the list in the state folder', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'hi', '--model', 'claude-sonnet-4-5']);
    assert.equal(r.code, 0);
    assert.match(r.err, /deprecated and retires on 2026-11-30/);
    assert.ok(existsSync(join(r.stateDir, 'models.json')));
  });

  it('offline (no Models API) an unknown id still runs, with a warning', async () => {
    standin.setModels(null);
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'hi', '--model', 'my-proxy-model', '--context-window', '32000']);
    assert.equal(r.code, 0);
    assert.equal(sentModel(), 'my-proxy-model');
    assert.match(r.err, /could not be fetched; assuming a 32k window \(from your setting\)/);
  });

  it('json: total_cost_usd is null when the model has no known price, tokens are still reported', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'hi', '--model', 'opus', '--output-format', 'json']);
    const j = JSON.parse(r.out) as { total_cost_usd: number | null; usage: { output_tokens: number } };
    assert.equal(j.total_cost_usd, null);
    assert.ok(j.usage.output_tokens > 0);
  });

  it('context shows the id an alias stands for, from the cached list, without going to the network', async () => {
    standin.setModels([standinModel({ id: 'claude-sonnet-77', line: 'sonnet', created: '2030-01-01', window: 777_000, maxTokens: 64_000 })]);
    const first = await cli(['-p', 'hi']);
    standin.reset();
    let out = '';
    const env = { THREADLINE_STATE_DIR: first.stateDir, ANTHROPIC_BASE_URL: standin.url, ANTHROPIC_API_KEY: 'k' };
    const code = await runCli(['context', '--json'], { io: { out: (t) => (out += t), err: () => undefined }, env, cwd: process.cwd() });
    assert.equal(code, 0);
    const j = JSON.parse(out) as { model: string; modelId: string; tokens: { contextWindow: number } };
    assert.deepEqual([j.model, j.modelId, j.tokens.contextWindow], ['sonnet', 'claude-sonnet-77', 777_000]);
    assert.equal(standin.modelsRequests.length, 0);
  });

  it('context on a fresh machine asks the Models API when there is a key, and says where the window comes from', async () => {
    standin.setModels([standinModel({ id: 'claude-sonnet-77', line: 'sonnet', created: '2030-01-01', window: 400_000, maxTokens: 64_000 })]);
    const fresh = await cli(['context', '--json']);
    assert.equal(fresh.code, 0, fresh.err);
    const j = JSON.parse(fresh.out) as { modelId: string; tokens: { contextWindow: number }; contextWindowFrom: { kind: string; text: string } };
    assert.deepEqual([j.modelId, j.tokens.contextWindow, j.contextWindowFrom.kind], ['claude-sonnet-77', 400_000, 'models-api']);
    const text = await cli(['context']);
    assert.match(text.out, /Context window \| 400k/);
    assert.match(text.out, /The context window is from the Models API, asked just now\./);
    // No key: the built-in table, and the report says so and how to do better.
    const offline = await cli(['context'], { ANTHROPIC_API_KEY: '' });
    assert.equal(offline.code, 0, offline.err);
    assert.match(offline.out, /The context window is from Threadline's built-in model table, which can differ from what the API says \(no ANTHROPIC_API_KEY to ask the Models API; set it, or pass --context-window\)\./);
  });
});
