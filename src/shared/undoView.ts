// What the panel shows of Undo: a code restore being previewed (or just done, with Redo), and a
// partial compaction being asked for or previewed. Host and webview both import this file.

/** One file a restore would change. */
export interface RestoreFileView {
  /** Absolute, as the host names it (what `restore/openDiff` and the conflict choices send back). */
  path: string;
  /** Relative to the workspace when inside it. */
  rel: string;
  action: 'modify' | 'create' | 'delete';
  added: number;
  removed: number;
  binary: boolean;
  /** Changed by someone else since the agent last left it: restored only if the user says so. */
  conflict: boolean;
}

export type RestoreScope = 'code' | 'both';

export interface RestoreView {
  /** The user message the restore goes back to (its view id). */
  messageId: string;
  scope: RestoreScope;
  /** The message's first line, or what a Redo undoes, to name it. */
  label: string;
  /** preview: nothing changed yet; done: applied (Redo offered). */
  stage: 'preview' | 'done';
  files: readonly RestoreFileView[];
  /** Changed since, but not restorable, each with the reason. */
  refused: ReadonlyArray<{ rel: string; why: string }>;
  /** Changed since, and already as they were. */
  unchanged: number;
  /** Why there is nothing to apply (no checkpoint for the message, a failed restore). */
  error?: string;
  /** This preview is a Redo (it undoes the restore before it). */
  redo?: boolean;
  /** After applying: the files changed and kept, and whether Redo is there. */
  restored?: number;
  kept?: number;
  canRedo?: boolean;
}

export type SummarizeDirection = 'from' | 'upTo';

export interface SummarizeView {
  messageId: string;
  direction: SummarizeDirection;
  /** ask: focus text wanted; running: the summary is being written; preview: shown, not applied. */
  stage: 'ask' | 'running' | 'preview';
  focus?: string;
  previewId?: string;
  tokensBefore?: number;
  tokensAfter?: number;
  summary?: string;
  error?: string;
}
