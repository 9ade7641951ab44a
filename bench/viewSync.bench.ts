// Bytes posted to the webview per streamed token, at several history lengths.
import { getDefaultAppState, type AppState } from '../src/state/appState';
import { appendMessage, updateMessage } from '../src/state/actions';
import { createStore } from '../src/shared/store';
import { ViewSync } from '../src/state/viewSync';
import { createChatHandlers } from '../src/chat/chatController';
import { silentLogger } from '../src/ports/logger';
import type { ViewMessage } from '../src/shared/viewState';
import { chatDeps } from '../test/support/chatDeps';

export async function benchViewSync(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const historySize of [10, 200, 2000]) {
    const messages: ViewMessage[] = Array.from({ length: historySize }, (_, i) =>
      i % 2 === 0
        ? { kind: 'user', id: `u${i}`, text: 'Please look at src/app.ts and fix the failing test. '.repeat(4), createdAt: i }
        : { kind: 'assistant', id: `a${i}`, text: 'I read the file and changed the assertion. '.repeat(20), streaming: false, createdAt: i },
    );
    const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: 'bench' }), messages });
    const handlers = createChatHandlers(chatDeps(store));
    const sync = new ViewSync(store, handlers, silentLogger);
    let bytes = 0;
    let posts = 0;
    sync.attach({ postMessage: (m) => { bytes += JSON.stringify(m).length; posts++; } });
    await sync.receive({ type: 'view/ready', payload: {} });
    const snapshotBytes = bytes;
    appendMessage(store, { kind: 'assistant', id: 'streaming', text: '', streaming: true, createdAt: 0 });
    sync.flush();
    bytes = 0;
    posts = 0;
    const tokens = 500;
    const started = process.hrtime.bigint();
    for (let i = 0; i < tokens; i++) {
      updateMessage(store, 'streaming', (m) => (m.kind === 'assistant' ? { ...m, text: m.text + ' token' } : m));
      sync.flush();
    }
    const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
    out[`bytesPerToken@${historySize}`] = Math.round((bytes / posts) * 10) / 10;
    out[`hostUsPerToken@${historySize}`] = Math.round((elapsedUs / tokens) * 10) / 10;
    out[`snapshotKB@${historySize}`] = Math.round(snapshotBytes / 102.4) / 10;
    sync.dispose();
  }
  return out;
}
