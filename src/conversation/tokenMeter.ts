import type { MessageParam } from '../api/types';
import type { Usage } from '../api/types';
import { estimateTokens } from './tokens';

/**
 * One figure for "how big is the next request": system prompt + tools + messages. After each
 * response it is anchored on the API's own usage and only what was added since is estimated;
 * before the first response of a history (new, resumed, compacted, undone) it is an estimate of
 * the whole request. The status bar, the compaction divider, Show Context and the saved session
 * all read it from here, so they agree.
 */
export class TokenMeter {
  private anchorTokens = 0;
  private anchorLength = 0;
  private anchored = false;
  /** Estimated tokens of the system blocks and tool definitions of the last request built. */
  private overhead = 0;

  setOverhead(tokens: number): void {
    this.overhead = tokens;
  }

  /** The last response's usage covers the request of `requestLength` messages plus the answer. */
  anchor(usage: Usage, requestLength: number): number {
    this.anchorTokens = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens + usage.outputTokens;
    this.anchorLength = requestLength + 1;
    this.anchored = true;
    return this.anchorTokens;
  }

  /**
   * The history changed at `index`. The anchor measured the request (its first `anchorLength - 1`
   * messages) and the answer that follows it; a change inside the request (compaction, micro-
   * compaction, undo, rewind, load) means estimating again.
   */
  invalidateFrom(index: number): void {
    if (index < this.anchorLength - 1) this.anchored = false;
  }

  reset(): void {
    this.anchored = false;
    this.anchorTokens = 0;
    this.anchorLength = 0;
  }

  /** A request with this history by estimate alone (the system and tools of the last request built): for a history the API has not seen. */
  estimate(history: readonly MessageParam[]): number {
    return this.overhead + (history.length ? estimateTokens(history) : 0);
  }

  used(history: readonly MessageParam[]): number {
    if (this.anchored && this.anchorLength <= history.length) {
      const added = history.slice(this.anchorLength);
      return this.anchorTokens + (added.length ? estimateTokens(added) : 0);
    }
    return this.overhead + (history.length ? estimateTokens(history) : 0);
  }
}
