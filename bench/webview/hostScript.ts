import { createChatHandlers } from '../../src/chat/chatController';
import { silentLogger } from '../../src/ports/logger';
import type { HostToWebviewMessage } from '../../src/shared/protocol';
import type { ViewMessage } from '../../src/shared/viewState';
import { appendMessage, updateMessage } from '../../src/state/actions';
import { getDefaultAppState, type AppState } from '../../src/state/appState';
import { createStore } from '../../src/shared/store';
import { ViewSync } from '../../src/state/viewSync';
import { chatDeps } from '../../test/support/chatDeps';

/** What the host posts for one benchmark run: the snapshot that answers `view/ready`, then one patch per delta. */
export interface HostScript {
  snapshot: HostToWebviewMessage;
  patches: HostToWebviewMessage[];
  /** Id of the answer being streamed, so the page can tell when its last delta is drawn. */
  answerId: string;
  lastMessageId: string;
}

/**
 * Plays a streamed answer through the real host path — the store, the same actions the agent
 * uses, and ViewSync's snapshot and diffing — and records what it would post to the webview.
 */
export async function recordHostScript(history: ViewMessage[], deltas: readonly string[]): Promise<HostScript> {
  const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: 'bench' }), apiKeySet: true, sessionTitle: 'Benchmark session', messages: history });
  const handlers = createChatHandlers(chatDeps(store));
  const sync = new ViewSync(store, handlers, silentLogger);
  const posted: HostToWebviewMessage[] = [];
  sync.attach({ postMessage: (m) => posted.push(m) });
  await sync.receive({ type: 'view/ready', payload: {} });
  const snapshot = posted.shift();
  if (!snapshot) throw new Error('ViewSync posted no snapshot after view/ready');

  const answerId = 'bench-answer';
  appendMessage(store, { kind: 'user', id: 'bench-question', text: 'What changed, and why?', createdAt: 2_000_000_000_000 });
  store.setState((s) => ({ ...s, status: 'streaming' }));
  appendMessage(store, { kind: 'assistant', id: answerId, text: '', streaming: true, createdAt: 2_000_000_000_001 });
  sync.flush();
  for (const delta of deltas) {
    updateMessage(store, answerId, (m) => (m.kind === 'assistant' ? { ...m, text: m.text + delta } : m));
    sync.flush();
  }
  updateMessage(store, answerId, (m) => (m.kind === 'assistant' ? { ...m, streaming: false } : m));
  store.setState((s) => ({ ...s, status: 'idle' }));
  sync.flush();
  sync.dispose();
  // Every delta must have gone out as its own patch, or the page would be timing something else.
  if (posted.length !== deltas.length + 2) throw new Error(`expected ${deltas.length + 2} patches, ViewSync posted ${posted.length}`);
  const last = store.getState().messages.at(-1);
  return { snapshot, patches: posted, answerId, lastMessageId: last?.id ?? answerId };
}

/** The snapshot of a session as it would be resumed: nothing streaming, the history only. */
export async function recordSnapshot(history: ViewMessage[]): Promise<HostToWebviewMessage> {
  const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: 'bench' }), apiKeySet: true, sessionTitle: 'Benchmark session', messages: history });
  const sync = new ViewSync(store, createChatHandlers(chatDeps(store)), silentLogger);
  const posted: HostToWebviewMessage[] = [];
  sync.attach({ postMessage: (m) => posted.push(m) });
  await sync.receive({ type: 'view/ready', payload: {} });
  sync.dispose();
  const snapshot = posted[0];
  if (!snapshot) throw new Error('ViewSync posted no snapshot after view/ready');
  return snapshot;
}
