import type { MessageParam } from '../api/types';
import type { IDisposable } from '../base/lifecycle';
import type { HistoryChange } from '../conversation/conversation';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { SessionRecorder } from './recorder';
import type { SessionAgent } from './sessionAgent';

/**
 * One open session's transcript, written as the session happens: each change of the API history
 * as the conversation reports it (the prompt, each answer, each set of tool results), together
 * with the panel messages that completed with it. A crash of the editor or the CLI then loses at
 * most the message in flight. A failure is reported once per session (a disk that refuses one
 * write usually refuses the next hundred); the recorder writes the whole session again after
 * one, so a write that failed loses nothing once the disk takes writes again.
 */
export class SessionRecording {
  private reported = false;
  /** The newest write asked for; the recorder runs writes in order, so waiting on it waits on all. */
  private last: Promise<void> = Promise.resolve();

  constructor(
    readonly recorder: SessionRecorder,
    private readonly store: Store<AppState>,
    private readonly reportFailure: (err: unknown) => void,
  ) {}

  get id(): string {
    return this.recorder.id;
  }

  /**
   * Writes every change of the agent's history from now on; `onChange` hears each one after it
   * was handed to the recorder.
   */
  follow(agent: Pick<SessionAgent, 'conversation'>, onChange: (change: HistoryChange) => void): IDisposable {
    return agent.conversation.onDidChange((change) => {
      void this.write(this.recorder.record(change));
      const s = this.store.getState();
      void this.write(this.recorder.syncView(s.messages, s.tokens.used));
      onChange(change);
    });
  }

  /** Resolves once everything asked for so far is on disk (or has failed, and was reported). */
  saved(): Promise<void> {
    return this.write(this.recorder.idle());
  }

  /** The whole state (the API history, the panel's messages, the token figure); writes only what changed. */
  sync(history: readonly MessageParam[], reason: string): Promise<void> {
    const s = this.store.getState();
    return this.write(this.recorder.sync(history, s.messages, s.tokens.used, reason));
  }

  /** Everything written and the index entry on disk now, not after its coalescing delay. */
  async flush(): Promise<void> {
    await this.last;
    await this.write(this.recorder.flush());
  }

  private write(work: Promise<void>): Promise<void> {
    const done = work.catch((err: unknown) => {
      if (!this.reported) this.reportFailure(err);
      this.reported = true;
    });
    this.last = done;
    return done;
  }
}
