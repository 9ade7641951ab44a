import type { MessageParam } from '../api/types';
import { historyBeforePrompt } from '../compact/undo';
import type { Conversation } from '../conversation/conversation';
import type { SessionHistoryExtras } from '../sessions/sessionAgent';
import type { Store } from '../shared/store';
import type { ViewMessage } from '../shared/viewState';
import type { AppState } from '../state/appState';

export interface RewindControlDeps {
  store: Store<AppState>;
  conversation: Conversation;
  /** A turn is running: nothing may replace the history under it. */
  busy(): boolean;
  /** The history was replaced: the token figure is measured again. */
  replaced(): void;
}

/**
 * Going back to just before a user message: Rewind (here, with Undo until something changes the
 * conversation) and the starting point of a Fork. Nothing on disk changes. A message is found by
 * the reference the Conversation keeps of it, behind compactions too (they are undone on the way).
 */
export class RewindControl {
  /** What the newest rewind dropped, while it can be put back (the history is still as the rewind left it). */
  private rewound: { history: readonly MessageParam[]; messages: readonly ViewMessage[]; after: readonly MessageParam[] } | undefined;

  constructor(private readonly deps: RewindControlDeps) {}

  /** The history just before a user message, compactions that hide it undone; the panel's index of it. */
  private before(viewId: string): { history: MessageParam[]; index: number } | undefined {
    const { conversation, store } = this.deps;
    const ref = conversation.prompt(viewId);
    const index = store.getState().messages.findIndex((m) => m.id === viewId);
    if (!ref || index < 0) return undefined;
    const r = historyBeforePrompt(conversation.history, conversation.compactions, ref);
    return r && { history: r.history, index };
  }

  /** The conversation as it was before this user message. */
  rewindTo(viewId: string): boolean {
    if (this.deps.busy()) return false;
    const point = this.before(viewId);
    if (!point) return false;
    const { store, conversation } = this.deps;
    const undo = { history: conversation.history, messages: store.getState().messages };
    conversation.set(point.history, 'rewind');
    store.setState((s) => ({ ...s, messages: s.messages.slice(0, point.index), canContinue: false }));
    this.deps.replaced();
    this.rewound = { ...undo, after: conversation.history };
    return true;
  }

  /** Puts back what the newest rewind dropped (history and panel messages), if nothing changed the conversation since. */
  undo(): boolean {
    const r = this.rewound;
    const { store, conversation } = this.deps;
    if (!r || this.deps.busy() || conversation.history !== r.after) return false;
    this.rewound = undefined;
    // The prompts' references stayed with the conversation: Rewind and Fork find them again.
    conversation.set(r.history, 'rewind');
    store.setState((s) => ({ ...s, messages: [...r.messages], canContinue: false }));
    this.deps.replaced();
    return true;
  }

  /** A new message (or Continue) is what an Undo would lose: it is no longer offered. */
  retire(): void {
    this.rewound = undefined;
  }

  /** What a fork from this message starts with: the API history, the panel's messages, and what lets them go back. */
  forkPoint(viewId: string): ({ history: MessageParam[]; messages: ViewMessage[] } & SessionHistoryExtras) | undefined {
    const point = this.before(viewId);
    if (!point) return undefined;
    const { conversation, store } = this.deps;
    const messages = store.getState().messages.slice(0, point.index);
    const refs = conversation.promptRefs();
    const prompts = Object.fromEntries(messages.flatMap((m) => (m.kind === 'user' && refs[m.id] ? [[m.id, refs[m.id]!]] : [])));
    return { history: point.history, messages, compactions: conversation.compactions.slice(), prompts };
  }
}
