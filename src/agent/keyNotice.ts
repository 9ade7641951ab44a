import type { Store } from '../shared/store';
import { addNotice, updateMessage } from '../state/actions';
import type { AppState } from '../state/appState';

/**
 * The one notice about a missing API key: it asks for the key while a message waits, and once a
 * key is stored it becomes the offer to send that message. VS Code reports a stored key more than
 * once, and Retry may be pressed again without one: neither adds a second notice.
 */
export class KeyNotice {
  /** A message is waiting for an API key. */
  waiting = false;
  private id: string | undefined;

  constructor(private readonly store: Store<AppState>) {}

  ask(): void {
    this.waiting = true;
    if (this.id && this.store.getState().messages.at(-1)?.id === this.id) return;
    this.id = addNotice(this.store, 'warning', 'Set an Anthropic API key to get answers. Your message is kept; press Retry after setting it.', { label: 'Set API Key', command: 'setApiKey' });
  }

  /** A request is going out: nothing waits any more. */
  answered(): void {
    this.waiting = false;
    this.id = undefined;
  }

  /** A key was stored: the notice that asked for it offers to send the waiting message, with no Set API Key left behind. */
  arrived(): void {
    if (!this.waiting) return;
    const text = 'API key saved. Send your waiting message now?';
    const action = { label: 'Retry', command: 'retry' } as const;
    const id = this.id;
    if (id && this.store.getState().messages.some((m) => m.id === id)) updateMessage(this.store, id, (m) => (m.kind === 'notice' ? { ...m, level: 'info', text, action } : m));
    else this.id = addNotice(this.store, 'info', text, action);
  }
}
