import type { Store } from '../shared/store';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';
import type { ModelSwitcher } from './modelSwitch';

export interface ModelCommandDeps {
  store: Store<AppState>;
  switcher: Pick<ModelSwitcher, 'switchTo' | 'setThinking'>;
  /** Opens the host's model picker (the Select Model quick pick). */
  pick(): Promise<void>;
}

const ON = new Set(['on', 'adaptive', 'true', 'yes']);
const OFF = new Set(['off', 'false', 'no']);

/**
 * The composer's model commands. `/model` opens the picker, `/model NAME` switches to an alias
 * or id; `/think` toggles thinking, `/think on|off` sets it. Returns false for any other text,
 * which then goes to the model as a message.
 */
export async function runModelCommand(text: string, deps: ModelCommandDeps): Promise<boolean> {
  const m = /^\/(model|think)(?:\s+(\S+))?\s*$/i.exec(text.trim());
  if (!m) return false;
  const [, command, arg] = m;
  if (command!.toLowerCase() === 'model') {
    if (arg) await deps.switcher.switchTo(arg);
    else await deps.pick();
    return true;
  }
  const word = arg?.toLowerCase();
  if (word !== undefined && !ON.has(word) && !OFF.has(word)) {
    addNotice(deps.store, 'warning', `/think takes "on" or "off" (or nothing, to toggle), not "${arg}".`);
    return true;
  }
  await deps.switcher.setThinking(word === undefined ? undefined : ON.has(word));
  return true;
}
