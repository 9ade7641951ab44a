import { debounce, type DebouncedFunc } from 'lodash-es';
import type { WebviewToHostMessage } from '../../../src/shared/protocol';
import { DRAFT_SAVE_DELAY_MS, draftTooLong } from '../../../src/shared/sessionUi';
import { keepDraft } from './sessionUi';

/**
 * Hands one session's draft to the host a moment after the last keystroke (never once per key:
 * each post crosses two frames and a socket), and at once when asked to flush (the box loses
 * focus, the panel hides or goes away). A draft too long to keep is not sent; the composer says so.
 */
export class DraftSaver {
  private readonly save: DebouncedFunc<(text: string) => void>;

  constructor(
    private readonly sessionId: string,
    private readonly post: (message: WebviewToHostMessage) => void,
    private readonly clock: () => number = Date.now,
    delayMs = DRAFT_SAVE_DELAY_MS,
  ) {
    this.save = debounce((text: string) => this.write(text), delayMs);
  }

  change(text: string): void {
    this.save(text);
  }

  /** What is pending goes now. */
  flush(): void {
    this.save.flush();
  }

  /**
   * The text was sent: nothing pending may follow it (the host clears the draft when the message
   * arrives), and the panel's own copy is emptied at once.
   */
  sent(): void {
    this.save.cancel();
    keepDraft(this.sessionId, { text: '', at: this.clock() });
  }

  private write(text: string): void {
    if (draftTooLong(text)) return;
    const at = this.clock();
    keepDraft(this.sessionId, { text, at });
    this.post({ type: 'draft/save', payload: { sessionId: this.sessionId, text, at } });
  }
}
