import type { MessageParam } from '../api/types';
import type { CompactionRecord, PromptRef } from '../conversation/undoRecords';
import type { ViewMessage } from '../shared/viewState';

export const SCHEMA_VERSION = 1;

/**
 * One line of a transcript. Append-only: a compaction or an undo writes a `history` event
 * that replaces the API history from there on; nothing earlier is ever rewritten.
 */
export type SessionEvent =
  | { t: 'meta'; v: number; id: string; createdAt: number; cwd: string; model: string; branch?: string }
  | { t: 'msg'; m: MessageParam }
  | { t: 'history'; h: MessageParam[]; reason: string }
  | { t: 'view'; v: ViewMessage }
  | { t: 'title'; title: string }
  | { t: 'usage'; tokens: number }
  /** A compaction, as undoing it needs it (see CompactionRecord); written with the history it made. */
  | { t: 'compaction'; r: CompactionRecord }
  /** How Rewind and Fork find the user message `id` again (see PromptRef); written with the message. */
  | { t: 'prompt'; id: string; ref: PromptRef }
  /**
   * The panel's messages are these, in this order: written when they changed other than by
   * appending (a rewind dropped some, a summary's divider went in before a message).
   */
  | { t: 'viewOrder'; ids: string[] };
