import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ViewMirror } from '../../../webview-ui/src/mirror';
import { createChatHandlers } from '../../../src/chat/chatController';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../../src/shared/protocol';
import { pickView, getDefaultAppState, type AppState } from '../../../src/state/appState';
import { appendMessage } from '../../../src/state/actions';
import { createStore } from '../../../src/shared/store';
import { ViewSync } from '../../../src/state/viewSync';
import { chatDeps } from '../../support/chatDeps';

const tick = () => new Promise((r) => setImmediate(r));

/** The real host ViewSync and the real webview ViewMirror, joined by a lossy, controllable pipe. */
function pair() {
  const store = createStore<AppState>(getDefaultAppState({ sessionId: 's1' }));
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const sync = new ViewSync(store, createChatHandlers(chatDeps(store, { log })), log);
  const toWebview: HostToWebviewMessage[] = [];
  const toHost: WebviewToHostMessage[] = [];
  sync.attach({ postMessage: (m) => toWebview.push(structuredClone(m)) });
  const mirror = new ViewMirror((m) => toHost.push(structuredClone(m)));
  const pump = async (drop?: (m: HostToWebviewMessage) => boolean) => {
    await tick(); // the host coalesces changes into one patch per microtask
    for (let i = 0; i < 10 && (toWebview.length || toHost.length); i++) {
      for (const m of toHost.splice(0)) await sync.receive(m);
      await tick();
      for (const m of toWebview.splice(0)) if (!drop?.(m)) mirror.receive(m);
      await tick();
    }
  };
  return { store, sync, mirror, toWebview, toHost, pump };
}

describe('webview mirror', () => {
  it('draws nothing until the snapshot that answers ready, then follows patches exactly', async () => {
    const p = pair();
    appendMessage(p.store, { kind: 'user', id: 'u1', text: 'before ready', createdAt: 0 });
    await tick();
    assert.equal(p.toWebview.length, 0, 'the host sends nothing before ready');
    assert.equal(p.mirror.store.getState(), null);
    p.mirror.start();
    await p.pump();
    assert.deepEqual(p.mirror.store.getState(), pickView(p.store.getState()));
    for (let i = 0; i < 20; i++) appendMessage(p.store, { kind: 'user', id: `m${i}`, text: `message ${i}`, createdAt: 0 });
    await p.pump();
    assert.deepEqual(p.mirror.store.getState(), pickView(p.store.getState()));
  });

  it('asks for a fresh snapshot after a lost patch and never shows a state the host did not have', async () => {
    const p = pair();
    p.mirror.start();
    await p.pump();
    appendMessage(p.store, { kind: 'user', id: 'a', text: 'one', createdAt: 0 });
    await tick();
    // Lose exactly this patch.
    let dropped = 0;
    await p.pump((m) => m.type === 'state/patch' && dropped++ === 0);
    appendMessage(p.store, { kind: 'user', id: 'b', text: 'two', createdAt: 0 });
    await tick();
    const seen: unknown[] = [];
    p.mirror.store.subscribe(() => seen.push(p.mirror.store.getState()));
    await p.pump();
    assert.equal(dropped, 1);
    assert.ok(seen.length >= 1, 'the mirror recovered');
    assert.deepEqual(p.mirror.store.getState(), pickView(p.store.getState()));
    for (const s of seen) assert.ok(s === null || (s as { messages: unknown[] }).messages.length === 2, 'no half state drawn');
  });

  it('ignores a malformed patch by resynchronising instead of throwing', async () => {
    const p = pair();
    p.mirror.start();
    await p.pump();
    // The next sequence number, but an op that cannot apply (no message 99 to append to).
    p.mirror.receive({ type: 'state/patch', payload: { seq: 2, ops: [{ op: 'msg/appendText', index: 99, text: 'x' }] } });
    assert.equal(p.toHost.at(-1)?.type, 'view/resync');
    await p.pump();
    assert.deepEqual(p.mirror.store.getState(), pickView(p.store.getState()));
  });
});
