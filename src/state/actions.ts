import { newId } from '../base/ids';
import type { NoticeAction, ViewMessage } from '../shared/viewState';
import type { AppState } from './appState';
import type { Store } from '../shared/store';

// Small, named state transitions shared by the controller, the agent and the shell,
// so that no caller rebuilds the message array by hand.

export function appendMessage(store: Store<AppState>, message: ViewMessage): void {
  store.setState((s) => ({ ...s, messages: [...s.messages, message] }));
}

export function updateMessage(store: Store<AppState>, id: string, update: (m: ViewMessage) => ViewMessage): void {
  store.setState((s) => {
    // Streaming updates hit the newest messages, so search from the end.
    for (let i = s.messages.length - 1; i >= 0; i--) {
      const current = s.messages[i]!;
      if (current.id !== id) continue;
      const next = update(current);
      if (next === current) return s;
      const messages = s.messages.slice();
      messages[i] = next;
      return { ...s, messages };
    }
    return s;
  });
}

export function addNotice(store: Store<AppState>, level: 'info' | 'warning' | 'error', text: string, action?: NoticeAction): string {
  const id = newId('notice');
  appendMessage(store, { kind: 'notice', id, level, text, createdAt: Date.now(), ...(action ? { action } : {}) });
  return id;
}
