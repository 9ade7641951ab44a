// The broker turns the engine's verdicts into answers for the loop: allow and deny at once, ask
// through the panel's prompt; nothing waits on a prompt nobody will answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PermissionBroker, safeJson, safeSummary, type PermissionEngine, type PermissionVerdict } from '../../../src/permissions/permissionBroker';
import { createTools } from '../../../src/tools/builtin';
import { createStore } from '../../../src/shared/store';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';
import type { Tool } from '../../../src/tools/types';

const bash = createTools().find((t) => t.name === 'Bash') as Tool;

function setup(verdict: PermissionVerdict) {
  const granted: unknown[] = [];
  let readyCalls = 0;
  const engine: PermissionEngine = {
    ready: async () => {
      readyCalls++;
    },
    decide: () => verdict,
    grantForSession: (call) => granted.push(call.input),
  };
  const store = createStore<AppState>(getDefaultAppState({ sessionId: 's' }));
  const broker = new PermissionBroker(engine, store);
  return { broker, store, granted, ready: () => readyCalls };
}

const call = { tool: bash, input: { command: 'make' }, id: 'tu_1' };
const live = () => new AbortController().signal;

/** Lets the broker's awaits run. */
const tick = () => new Promise((r) => setImmediate(r));

describe('permission broker', () => {
  it('allows and denies at once, after the engine is ready', async () => {
    const allow = setup({ behavior: 'allow', reason: 'Read-only.' });
    assert.deepEqual(await allow.broker.check(call, live()), { allowed: true });
    assert.equal(allow.ready(), 1);
    assert.equal(allow.store.getState().permission, null);
    const deny = setup({ behavior: 'deny', reason: 'Denied by the rule Bash.' });
    assert.deepEqual(await deny.broker.check(call, live()), { allowed: false, reason: 'Denied by the rule Bash.' });
  });

  it('asks through the store, showing the reason and the input, and answers as the user did', async () => {
    const { broker, store, granted } = setup({ behavior: 'ask', reason: 'Runs a shell command.' });
    const answer = broker.check(call, live());
    await tick();
    const shown = store.getState().permission!;
    assert.equal(store.getState().status, 'awaiting-permission');
    assert.equal(shown.toolName, 'Bash');
    assert.equal(shown.toolUseId, 'tu_1');
    assert.equal(shown.summary, bash.summarize(call.input));
    assert.equal(shown.detail, `Runs a shell command.\n\n${JSON.stringify(call.input, null, 2)}`);
    assert.equal(shown.input, JSON.stringify(call.input, null, 2));
    assert.match(shown.requestId, /^perm/);
    broker.respond(shown.requestId, 'allow-once');
    assert.deepEqual(await answer, { allowed: true });
    assert.equal(store.getState().permission, null);
    assert.equal(store.getState().status, 'running-tools');
    assert.deepEqual(granted, [], 'allow once grants nothing for later');
  });

  it('"allow for this session" grants; deny refuses; an unknown or repeated answer changes nothing', async () => {
    const { broker, store, granted } = setup({ behavior: 'ask', reason: 'r' });
    const first = broker.check(call, live());
    await tick();
    const id = store.getState().permission!.requestId;
    broker.respond(id, 'allow-session');
    assert.deepEqual(await first, { allowed: true });
    assert.deepEqual(granted, [{ command: 'make' }]);
    broker.respond(id, 'allow-session');
    assert.equal(granted.length, 1, 'an answered request is gone');
    const second = broker.check(call, live());
    await tick();
    broker.respond('perm-unknown', 'allow-once');
    assert.notEqual(store.getState().permission, null, 'a stranger answer leaves the prompt open');
    broker.respond(store.getState().permission!.requestId, 'deny');
    assert.deepEqual(await second, { allowed: false, reason: 'The user denied this tool call.' });
  });

  it('an interrupted turn is not asked; stopping denies every open request', async () => {
    const { broker, store } = setup({ behavior: 'ask', reason: 'r' });
    const stopped = new AbortController();
    stopped.abort();
    assert.deepEqual(await broker.check(call, stopped.signal), { allowed: false, reason: 'interrupted' });
    assert.equal(store.getState().permission, null);
    const a = broker.check(call, live());
    const b = broker.check({ ...call, id: 'tu_2' }, live());
    await tick();
    broker.denyAll();
    assert.deepEqual(await Promise.all([a, b]), [
      { allowed: false, reason: 'The user denied this tool call.' },
      { allowed: false, reason: 'The user denied this tool call.' },
    ]);
  });

  it('an input that cannot be shown as JSON, or summarized, still shows', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.equal(safeJson(loop), '[object Object]');
    assert.equal(safeJson(undefined), '');
    assert.equal(safeJson({ a: 1 }), '{\n  "a": 1\n}');
    const broken: Tool = {
      ...bash,
      summarize: () => {
        throw new Error('no');
      },
    };
    assert.equal(safeSummary(broken, {}), 'Bash');
    assert.equal(safeSummary(bash, { command: 'make' }), bash.summarize({ command: 'make' }));
  });
});
