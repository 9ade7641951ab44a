import type { Attachment, PermissionDecision } from '../shared/viewState';

export interface SubmitOptions {
  /** What the model receives, when it is more than what the user typed (attached files before it). */
  modelText?: string;
  /** What went with the message, shown on it as chips. */
  attachments?: readonly Attachment[];
}

export interface SubmitResult {
  /** The message was refused before anything was sent and handed back: none of it stays in the conversation. */
  returned: boolean;
}

/** What the chat needs from whoever runs model turns (the agent, once configured). */
export interface ChatRunner {
  /** Runs one user turn to completion; failures are reported into the store, not thrown. */
  submit(text: string, options?: SubmitOptions): Promise<SubmitResult | void>;
  stop(): void;
  retry(): Promise<void>;
  continue(): Promise<void>;
  respondToPermission(requestId: string, decision: PermissionDecision): void;
  compactNow?(focus?: string): Promise<boolean>;
  undoCompaction?(id: string): boolean;
  rewindTo?(id: string): boolean;
  /** Puts back what the newest rewind dropped, if nothing happened since. */
  undoRewind?(): boolean;
  forkFrom?(id: string): Promise<boolean>;
}
