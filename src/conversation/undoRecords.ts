import type { MessageParam } from '../api/types';

/**
 * What undoing one compaction needs, whenever it is undone: the summary block it put in the
 * history (where that block is now is where the originals go back), the messages the block
 * stands for, word for word, and the kept messages it changed (a re-read pointer given its
 * target's text), to change them back. Records are data: they go in the transcript with the
 * session, so a compaction stays undoable, and a rewind can reach behind it, after a resume.
 * (compact/undo.ts makes and applies them.)
 */
export interface CompactionRecord {
  id: string;
  block: string;
  replaced: MessageParam[];
  /** The first kept message was merged into the block's message. */
  merged: boolean;
  /** Kept messages the compaction changed: k-th kept message, as it was and as the compaction left it. */
  fixed: Array<{ k: number; was: MessageParam; now: MessageParam }>;
}

/**
 * Which user message a Rewind, Fork or partial compaction names, in a way that survives
 * compaction and resume: its text (by length and hash, so a 1 MB paste is not stored twice) and
 * how many user text blocks with the same text came before it in the whole conversation, the
 * parts compactions replaced counted in. Taken when the message is sent; kept in the transcript.
 */
export interface PromptRef {
  len: number;
  hash: string;
  nth: number;
}
