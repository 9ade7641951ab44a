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
