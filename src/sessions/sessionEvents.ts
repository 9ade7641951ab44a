import type { HistoryChange } from '../conversation/conversation';

/**
 * The lifecycle of the sessions a driver runs, each fired once, in the order it happens. Whatever
 * follows a session (the open-session note, checkpoints of the files) listens here rather than
 * to the agent or the panel.
 */

/** How a session came to be the open one. */
export type OpenedHow = 'new' | 'reopened' | 'resumed' | 'imported' | 'forked';

export interface SessionOpened {
  sessionId: string;
  how: OpenedHow;
}

/** A prompt is about to go to the model; `promptId` is its panel message (Rewind and Fork name it). */
export interface PromptStarted {
  sessionId: string;
  promptId: string;
  text: string;
}

/**
 * The API history changed: messages completed (the prompt, an answer, tool results) or the
 * history was replaced (`change.reason`: compaction, undo, load). Fired once the change was
 * handed to the recorder; the loop waits for it to reach the disk before its next request.
 */
export interface HistoryChanged {
  sessionId: string;
  change: HistoryChange;
}

/** A compaction replaced the history (automatic, manual, asked for by the model), or one was undone. */
export interface Compacted {
  sessionId: string;
  undone: boolean;
}

/** The conversation went back to before the prompt `promptId`; files on disk were not changed. */
export interface Rewound {
  sessionId: string;
  promptId: string;
}

/** A new session `sessionId` was forked from `from` at the point before the prompt `promptId`. */
export interface Forked {
  sessionId: string;
  from: string;
  promptId: string;
}

/** A loop started by submit, retry or continue has ended; `result` is undefined when nothing was sent. */
export interface TurnEnded<R> {
  sessionId: string;
  result: R | undefined;
}
