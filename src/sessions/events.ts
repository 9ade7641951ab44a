import type { MessageParam } from '../api/types';
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
  | { t: 'usage'; tokens: number };
