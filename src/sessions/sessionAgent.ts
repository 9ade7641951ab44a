import type { MessageParam } from '../api/types';
import type { Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { HistoryChange } from '../conversation/conversation';
import type { CompactionRecord, PromptRef } from '../conversation/undoRecords';
import type { PermissionDecision, ViewMessage } from '../shared/viewState';

/**
 * What the session driver gives the agent of each session it opens. The agent layer builds the
 * agent from it; the driver never needs the agent's own types.
 */
export interface SessionContext {
  /** The session's id: its transcript, its notes and its archives are named after it. */
  readonly id: string;
  /** Where this session's notes live (used when session memory is on). */
  readonly notesPath: string;
  /** Keeps the whole transcript before a compaction replaces it; resolves with where it went. */
  archive(history: readonly MessageParam[]): Promise<string>;
  /** The session's code checkpoints (the agent keeps files before its tools change them); none: not kept. */
  readonly checkpoints?: SessionCheckpoints;
  /**
   * Resolves once every change of the history so far is on disk. The loop waits for it before
   * each request, so nothing a next step depends on can be lost to a crash.
   */
  saved(): Promise<void>;
}

/** What a session's history brings besides the messages: what lets it go back (kept in its transcript). */
export interface SessionHistoryExtras {
  compactions?: readonly CompactionRecord[];
  /** Prompt references by the user message's view id. */
  prompts?: Readonly<Record<string, PromptRef>>;
}

/** A partial compaction's preview: the figures and the summary, nothing applied. */
export interface PartialCompactionPreview {
  id: string;
  messageId: string;
  direction: 'from' | 'upTo';
  focus?: string;
  tokensBefore: number;
  tokensAfter: number;
  summary: string;
}

/**
 * What the driver needs of the agent that answers in a session (provided by `agent/`). `R` is
 * how a loop ended, passed through to the face untouched.
 */
export interface SessionAgent<R = unknown> extends IDisposable {
  readonly conversation: { readonly history: readonly MessageParam[]; readonly onDidChange: Event<HistoryChange> };
  readonly busy: boolean;
  /** The model in use, as the transcript's header names it. */
  model(): { id: string };
  setHistory(history: MessageParam[], opts?: SessionHistoryExtras & { lastAssistantAt?: number }): void;
  /** `id`: the prompt's panel message, which Rewind, Fork and checkpoints name. */
  submit(text: string, id: string): Promise<R | undefined>;
  retry(): Promise<R | undefined>;
  continue(): Promise<R | undefined>;
  stop(): void;
  respondToPermission(requestId: string, decision: PermissionDecision): void;
  compactNow(focus?: string): Promise<boolean>;
  undoCompaction(id: string): boolean;
  /** "Summarize from here" / "up to here" from a user message: the preview (throws with the reason it cannot). */
  previewPartialCompaction(viewId: string, direction: 'from' | 'upTo', focus?: string): Promise<PartialCompactionPreview>;
  /** Applies a preview; false when it was replaced or dismissed (throws when the conversation changed since). */
  applyPartialCompaction(previewId: string): boolean;
  cancelPartialCompaction(previewId?: string): void;
  rewindTo(viewId: string): boolean;
  /** The history and panel messages from before a prompt, for a fork. */
  forkPoint(viewId: string): ({ history: MessageParam[]; messages: ViewMessage[] } & SessionHistoryExtras) | undefined;
  /** Resolves when background work (memory) has finished. */
  drain(): Promise<void>;
}
