import type { MessageParam } from '../api/types';
import type { Conversation } from '../conversation/conversation';
import type { Store } from '../shared/store';
import type { ViewMessage } from '../shared/viewState';
import type { AppState } from '../state/appState';

export interface RewindControlDeps {
  store: Store<AppState>;
  conversation: Conversation;
  /** A turn is running: nothing may replace the history under it. */
  busy(): boolean;
  /** Replaces the history as a load does (token figure, request rebuilt). */
  setHistory(history: MessageParam[]): void;
}

/**
 * Going back to just before a user message: Rewind (here, with Undo until something changes the
 * conversation) and the starting point of a Fork. Nothing on disk changes; the marks the
 * Conversation keeps before each user message say where the history stood.
 */
export class RewindControl {
  /** What the newest rewind dropped, while it can be put back (the history is still as the rewind left it). */
  private rewound: { history: readonly MessageParam[]; messages: readonly ViewMessage[]; marks: ReturnType<Conversation['saveMarks']>; after: readonly MessageParam[] } | undefined;

  constructor(private readonly deps: RewindControlDeps) {}

  /** The conversation as it was before this user message. */
  rewindTo(viewId: string): boolean {
    const { store, conversation } = this.deps;
    const before = conversation.marked(viewId);
    if (!before || this.deps.busy()) return false;
    const messages = store.getState().messages;
    const index = messages.findIndex((m) => m.id === viewId);
    if (index < 0) return false;
    const undo = { history: conversation.history, messages, marks: conversation.saveMarks() };
    // Marks of the messages that go stay valid no longer.
    conversation.keepMarks(new Set(messages.slice(0, index).map((m) => m.id)));
    this.deps.setHistory(before);
    store.setState((s) => ({ ...s, messages: s.messages.slice(0, index), canContinue: false }));
    this.rewound = { ...undo, after: conversation.history };
    return true;
  }

  /** Puts back what the newest rewind dropped (history, panel messages, marks), if nothing changed the conversation since. */
  undo(): boolean {
    const r = this.rewound;
    if (!r || this.deps.busy() || this.deps.conversation.history !== r.after) return false;
    this.rewound = undefined;
    this.deps.setHistory([...r.history]);
    this.deps.conversation.restoreMarks(r.marks);
    this.deps.store.setState((s) => ({ ...s, messages: r.messages, canContinue: false }));
    return true;
  }

  /** A new message (or Continue) is what an Undo would lose: it is no longer offered. */
  retire(): void {
    this.rewound = undefined;
  }

  /** What a fork from this message starts with: the API history and the panel's messages. */
  forkPoint(viewId: string): { history: MessageParam[]; messages: ViewMessage[] } | undefined {
    const before = this.deps.conversation.marked(viewId);
    const index = this.deps.store.getState().messages.findIndex((m) => m.id === viewId);
    if (!before || index < 0) return undefined;
    return { history: before, messages: this.deps.store.getState().messages.slice(0, index) };
  }
}
