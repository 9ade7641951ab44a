import type { PermissionDecision } from '../shared/viewState';

/** What the chat needs from whoever runs model turns (the agent, once configured). */
export interface ChatRunner {
  /** Runs one user turn to completion; failures are reported into the store, not thrown. */
  submit(text: string): Promise<void>;
  stop(): void;
  retry(): Promise<void>;
  continue(): Promise<void>;
  respondToPermission(requestId: string, decision: PermissionDecision): void;
  compactNow?(focus?: string): Promise<boolean>;
  undoCompaction?(id: string): boolean;
  rewindTo?(id: string): boolean;
  forkFrom?(id: string): Promise<boolean>;
}
