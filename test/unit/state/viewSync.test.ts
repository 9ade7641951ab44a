import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAgent } from '../../../src/agent/createAgent';
import { Permissions } from '../../../src/permissions/permissions';
import { createToolRegistry } from '../../../src/tools/builtin';
import { createChatHandlers } from '../../../src/chat/chatController';
import { RuntimeState } from '../../../src/state/runtimeState';
import { chatDeps, stubSession, stubWorkbench } from '../../support/chatDeps';
import { testHost } from '../../support/host';
import type { Logger } from '../../../src/ports/logger';
import type { HostToWebviewMessage } from '../../../src/shared/protocol';
import { applyViewPatch } from '../../../src/shared/viewPatch';
import type { ViewState } from '../../../src/shared/viewState';
import { getDefaultAppState, pickView, type AppState } from '../../../src/state/appState';
import { appendMessage, updateMessage } from '../../../src/state/actions';
import { createStore } from '../../../src/shared/store';
import { ViewSync } from '../../../src/state/viewSync';

function setup() {
  const store = createStore<AppState>(getDefaultAppState({ sessionId: 's1' }));
  const errors: string[] = [];
  const log: Logger = { info: () => undefined, warn: () => undefined, error: (m) => errors.push(m) };
  const commands: string[] = [];
  // The real agent, with no key set: it keeps the message and asks for one.
  const cwd = process.cwd();
  const agent = createAgent({ store, runtime: new RuntimeState(cwd), log, cwd, host: testHost(), tools: createToolRegistry(), permissions: new Permissions({ cwd, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => true }) });
  const handlers = createChatHandlers(chatDeps(store, { log, session: stubSession({ submit: (text) => agent.submit(text) }), workbench: stubWorkbench({ runCommand: (c) => commands.push(c) }) }));
  const sync = new ViewSync(store, handlers, log);
  const posted: HostToWebviewMessage[] = [];
  sync.attach({ postMessage: (m) => posted.push(structuredClone(m)) });
  // The webview side: a mirror fed only by what was posted.
  let mirror: ViewState | null = null;
  let lastSeq = 0;
  const drain = () => {
    for (const m of posted.splice(0)) {
      if (m.type !== 'state/snapshot' && m.type !== 'state/patch') continue;
      assert.equal(m.payload.seq, lastSeq + 1, 'patches arrive in sequence');
      lastSeq = m.payload.seq;
      mirror = m.type === 'state/snapshot' ? m.payload.state : applyViewPatch(mirror!, m.payload.ops);
    }
    return mirror;
  };
  const tick = () => new Promise((r) => setImmediate(r));
  return { store, sync, posted, drain, tick, errors, commands };
}

describe('ViewSync', () => {
  it('sends nothing before view/ready, then a full snapshot', async () => {
    const t = setup();
    appendMessage(t.store, { kind: 'user', id: 'u1', text: 'early', createdAt: 1 });
    await t.tick();
    assert.equal(t.posted.length, 0);
    await t.sync.receive({ type: 'view/ready', payload: {} });
    assert.equal(t.posted.length, 1);
    assert.equal(t.posted[0]!.type, 'state/snapshot');
    assert.deepEqual(t.drain(), pickView(t.store.getState()));
  });

  it('streams changes as patches that rebuild the same state', async () => {
    const t = setup();
    await t.sync.receive({ type: 'view/ready', payload: {} });
    appendMessage(t.store, { kind: 'assistant', id: 'a1', text: '', streaming: true, createdAt: 1 });
    await t.tick();
    for (const token of ['Hel', 'lo', ' there']) {
      updateMessage(t.store, 'a1', (m) => (m.kind === 'assistant' ? { ...m, text: m.text + token } : m));
      await t.tick();
    }
    const last = t.posted.at(-1)!;
    assert.equal(last.type, 'state/patch');
    assert.deepEqual(last.type === 'state/patch' && last.payload.ops, [{ op: 'msg/appendText', index: 0, text: ' there' }]);
    assert.deepEqual(t.drain(), pickView(t.store.getState()));
  });

  it('coalesces changes made in one tick into one patch', async () => {
    const t = setup();
    await t.sync.receive({ type: 'view/ready', payload: {} });
    t.drain();
    appendMessage(t.store, { kind: 'user', id: 'u1', text: 'a', createdAt: 1 });
    appendMessage(t.store, { kind: 'user', id: 'u2', text: 'b', createdAt: 1 });
    t.store.setState((s) => ({ ...s, sessionTitle: 'T' }));
    await t.tick();
    assert.equal(t.posted.length, 1);
    assert.deepEqual(t.drain(), pickView(t.store.getState()));
  });

  it('re-sends a full snapshot after a reload (a second ready)', async () => {
    const t = setup();
    await t.sync.receive({ type: 'view/ready', payload: {} });
    appendMessage(t.store, { kind: 'user', id: 'u1', text: 'kept', createdAt: 1 });
    await t.tick();
    t.drain();
    await t.sync.receive({ type: 'view/ready', payload: {} });
    const m = t.posted.at(-1)!;
    assert.equal(m.type, 'state/snapshot');
    assert.equal(m.type === 'state/snapshot' && m.payload.state.messages.length, 1);
  });

  it('rejects and logs a malformed message without throwing or changing state', async () => {
    const t = setup();
    const before = t.store.getState();
    await t.sync.receive({ type: 'chat/send', payload: { text: 7 } });
    await t.sync.receive('garbage');
    assert.equal(t.store.getState(), before);
    assert.equal(t.errors.length, 2);
    assert.match(t.errors[0]!, /malformed payload for chat\/send/);
  });

  it('keeps the message and offers Set API Key when no key is set', async () => {
    const t = setup();
    await t.sync.receive({ type: 'view/ready', payload: {} });
    await t.sync.receive({ type: 'chat/send', payload: { text: 'hi' } });
    const messages = t.store.getState().messages;
    assert.equal(messages[0]?.kind, 'user');
    const notice = messages[1];
    assert.equal(notice?.kind, 'notice');
    assert.equal(notice?.kind === 'notice' && notice.action?.command, 'setApiKey');
    await t.sync.receive({ type: 'command/run', payload: { command: 'setApiKey' } });
    assert.deepEqual(t.commands, ['setApiKey']);
  });

  it('stops sending once detached', async () => {
    const t = setup();
    const store = t.store;
    const sync2 = t.sync;
    await sync2.receive({ type: 'view/ready', payload: {} });
    t.drain();
    sync2.dispose();
    appendMessage(store, { kind: 'user', id: 'u1', text: 'x', createdAt: 1 });
    await t.tick();
    assert.equal(t.posted.length, 0);
  });

  it('brings the tool card of a new permission request into view, once per request', async () => {
    const t = setup();
    await t.sync.receive({ type: 'view/ready', payload: {} });
    appendMessage(t.store, { kind: 'tool', id: 'toolu_1', name: 'Write', summary: 'a.txt', input: '{}', status: 'pending', createdAt: 1 });
    const ask = (requestId: string) =>
      t.store.setState((s) => ({ ...s, status: 'awaiting-permission', permission: { requestId, toolName: 'Write', summary: 'a.txt', detail: '', toolUseId: 'toolu_1' } }));
    ask('perm_1');
    await t.tick();
    const reveals = () => t.posted.filter((m) => m.type === 'view/reveal').map((m) => m.payload);
    assert.deepEqual(reveals(), [{ id: 'toolu_1' }]);
    // The reveal follows the patch that shows the card and the prompt.
    assert.equal(t.posted.at(-1)!.type, 'view/reveal');
    t.store.setState((s) => ({ ...s, sessionTitle: 'renamed' }));
    await t.tick();
    assert.equal(reveals().length, 1, 'not again for the same request');
    ask('perm_2');
    await t.tick();
    assert.equal(reveals().length, 2);
  });
});
