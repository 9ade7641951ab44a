import type { ModelSource, Resolution } from '../api/models';
import type { Store } from '../shared/store';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';

/**
 * A resolution's warning in the chat (a deprecated model, an id only assumed), unless the chat
 * already shows it. A deprecated model's notice switches to its successor in one click.
 */
export function noteModelWarning(store: Store<AppState>, models: ModelSource | undefined, r: Extract<Resolution, { ok: true }>): boolean {
  const text = r.warning;
  if (!text || store.getState().messages.some((m) => m.kind === 'notice' && m.text === text)) return false;
  const successor = r.successor && models ? models.current(r.successor) : undefined;
  addNotice(store, 'warning', text, successor ? { label: `Switch to ${successor.displayName}`, command: 'switchModel', model: successor.id } : undefined);
  return true;
}

/**
 * Asked before each prompt: refuses a model the API does not know (the message is kept, as
 * without a key) and warns once about a deprecated one.
 */
export function modelCheck(store: Store<AppState>, models: ModelSource): () => Promise<boolean> {
  const warned = new Set<string>();
  return async () => {
    const s = store.getState().settings;
    const r = await models.resolve?.(s.model, { contextWindow: s.contextWindow });
    if (!r) return true;
    if (!r.ok) {
      addNotice(store, 'error', `${r.error} Your message is kept: choose another model, then press Retry.`, { label: 'Retry', command: 'retry' });
      return false;
    }
    if (r.warning && !warned.has(r.warning)) {
      warned.add(r.warning);
      noteModelWarning(store, models, r);
    }
    return true;
  };
}
