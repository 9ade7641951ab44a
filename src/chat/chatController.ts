import { newId } from '../base/ids';
import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import { addNotice, appendMessage } from '../state/actions';
import type { Store } from '../state/store';
import type { ChatHandlers } from '../state/viewSync';
import type { ActionCommand, PermissionDecision } from '../shared/viewState';

/** What the chat needs from whoever runs model turns (the agent, once configured). */
export interface TurnRunner {
  /** Runs one user turn to completion; failures are reported into the store, not thrown. */
  submit(text: string): Promise<void>;
  stop(): void;
  retry(): Promise<void>;
  continue(): Promise<void>;
  respondToPermission(requestId: string, decision: PermissionDecision): void;
}

export interface ChatControllerDeps {
  store: Store<AppState>;
  log: Logger;
  hasApiKey(): Promise<boolean>;
  runCommand(command: ActionCommand): void;
  runner?: TurnRunner;
}

/** Turns what the user does in the panel into state changes and agent calls. */
export function createChatHandlers(deps: ChatControllerDeps): ChatHandlers {
  const { store, runner } = deps;
  const busy = () => store.getState().status !== 'idle';
  return {
    'chat/send': async ({ text }) => {
      if (busy()) {
        addNotice(store, 'warning', 'Threadline is still answering. Press Stop first, or wait for the answer to finish.');
        return;
      }
      if (!(await deps.hasApiKey())) {
        appendMessage(store, { kind: 'user', id: newId('user'), text, createdAt: Date.now() });
        addNotice(store, 'warning', 'Set an Anthropic API key to get answers. Your message is kept; press Retry after setting it.', {
          label: 'Set API Key',
          command: 'setApiKey',
        });
        return;
      }
      if (!runner) {
        appendMessage(store, { kind: 'user', id: newId('user'), text, createdAt: Date.now() });
        return;
      }
      await runner.submit(text);
    },
    'chat/stop': () => runner?.stop(),
    'chat/retry': async () => {
      if (!busy()) await runner?.retry();
    },
    'chat/continue': async () => {
      if (!busy()) await runner?.continue();
    },
    'permission/respond': ({ requestId, decision }) => runner?.respondToPermission(requestId, decision),
    'command/run': ({ command }) => {
      if (command === 'retry') {
        if (!busy()) void runner?.retry();
        return;
      }
      if (command === 'continue') {
        if (!busy()) void runner?.continue();
        return;
      }
      deps.runCommand(command);
    },
  };
}
