import type { MessageParam } from '../api/types';
import { restoreDanglingPointers } from '../conversation/readPointers';
import { fitToolResults } from '../conversation/resultCap';
import { estimateTokens } from '../conversation/tokens';

/**
 * The summary request's messages for `rounds`, within `maxTokens` by estimate: the summary request
 * obeys the rule every request does, never sent over the limit. Large tool results are cut first
 * (a summary needs what they were about, not all of them); then the oldest rounds go, a fifth at a
 * time. The last round alone may use the margin up to the blocking limit; throws, sending nothing,
 * when even it does not fit under that. `dropped` counts on from
 * the rounds the caller dropped already.
 */
export function fitSummaryRounds(history: readonly MessageParam[], rounds: MessageParam[][], maxTokens: number | undefined, dropped = 0, hardMaxTokens = maxTokens): { messages: MessageParam[]; rounds: MessageParam[][]; dropped: number } {
  for (;;) {
    // Rounds dropped to fit take their read results along: re-reads in the rest get the text back.
    const whole = restoreDanglingPointers(history, rounds.flat()).slice();
    if (maxTokens === undefined) return { messages: whole, rounds, dropped };
    const messages = fitToolResults(whole, maxTokens);
    const size = estimateTokens(messages);
    if (size <= maxTokens) return { messages, rounds, dropped };
    // The last round alone: sent if it is under the blocking limit (the budget above it is an
    // estimate's margin), never past it.
    if (rounds.length <= 1 && hardMaxTokens !== undefined && size <= hardMaxTokens) return { messages, rounds, dropped };
    if (rounds.length <= 1) throw new Error(`the conversation is too large to summarise (about ${size} tokens, over ${maxTokens}); nothing was sent`);
    const n = Math.max(1, Math.floor(rounds.length / 5));
    rounds = rounds.slice(n);
    dropped += n;
  }
}
