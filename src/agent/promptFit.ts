import type { Compactor } from '../compact/compactor';
import type { NoticeAction } from '../shared/viewState';
import type { Thresholds } from '../conversation/thresholds';
import type { TokenMeter } from '../conversation/tokenMeter';
import { estimateTokens } from '../conversation/tokens';
import { formatTokens } from '../shared/format';
import type { AppSettings } from '../state/appState';

/**
 * Why a message cannot be sent with any conversation before it, or undefined: with the system
 * prompt and the tools (the last request built) it reaches the blocking limit by itself, so
 * compacting cannot make room. Said with what to do instead.
 */
function tooBigAlone(content: string, meter: TokenMeter, t: Thresholds, handsBack = false): string | undefined {
  const prompt = estimateTokens(content);
  const total = meter.estimate([]) + prompt;
  if (total < t.blockingAt) return undefined;
  return (
    `Your message is about ${formatTokens(prompt)} tokens; with the system prompt and tools a request would be about ${formatTokens(total)}, ` +
    `over the ${formatTokens(t.blockingAt)} a request to this model may hold (its window is ${formatTokens(t.contextWindow)}). ` +
    `Nothing was sent, and compacting cannot make room for it. ${handsBack ? 'It is back in the box: shorten' : 'Shorten'} it, or save the text to a file and ask ` +
    'Threadline to read the parts it needs, or choose a model with a bigger window.'
  );
}

/**
 * Why a message is not sent at all (it never touches the history), with the notice's button: too
 * big for any conversation, or, with automatic compaction off, too big for this one until it is
 * compacted. `handsBack`: the face puts the message back where it was typed (the panel's box, not
 * the CLI), and the sentence says so.
 */
export function refusal(
  content: string,
  o: { meter: TokenMeter; settings: AppSettings; thresholds: Thresholds; compactor: Compactor | undefined; used: number; handsBack?: boolean },
): { text: string; action: NoticeAction } | undefined {
  const alone = tooBigAlone(content, o.meter, o.thresholds, o.handsBack);
  if (alone) return { text: alone, action: { label: 'Select Model', command: 'selectModel' } };
  if (o.compactor && !o.settings.autoCompact && o.compactor.isBlocked(o.used + estimateTokens(content))) {
    return { text: `The conversation is too close to the context limit for a new message. Compact it first (your message was not sent${o.handsBack ? ', and is back in the box' : ''}).`, action: { label: 'Compact', command: 'compact' } };
  }
  return undefined;
}
