import type { ContentBlockParam, MessageParam, TextBlockParam } from '../api/types';
import { estimateTokens } from '../conversation/tokens';

/** Text blocks the user (or the harness, on the user's side) wrote, without reminders. */
export function userTexts(m: MessageParam): string[] {
  if (m.role !== 'user') return [];
  if (typeof m.content === 'string') return m.content.trim() ? [m.content] : [];
  return (m.content as ContentBlockParam[])
    .filter((b): b is TextBlockParam => b.type === 'text')
    .map((b) => b.text)
    .filter((t) => t.trim() && !t.startsWith('<system-reminder'));
}

/** Carried text that is cut says so, with this marker and how much is left out. */
export const CUT_MARKER = '… [cut: ';
/** A cut message keeps at least this much of its beginning. */
export const MIN_CARRIED_CHARS = 500;
/** What the carried messages may cost together before the longest are cut (200k window). */
const CARRY_BUDGET_TOKENS = 16_000;

export interface CarriedText {
  /** Where the text came from in the history, for the report. */
  index: number;
  who: 'User' | 'Assistant';
  text: string;
}

/**
 * Texts that no summary covers, carried word for word into the compacted history. When they
 * are more than the budget, the longest are cut to a common length (never below
 * MIN_CARRIED_CHARS), each cut marked; none is dropped.
 */
export function carryBlock(items: readonly CarriedText[], heading: string, budgetTokens = CARRY_BUDGET_TOKENS): string | undefined {
  if (!items.length) return undefined;
  const lengths = items.map((i) => i.text.length);
  let cap = Number.POSITIVE_INFINITY;
  if (estimateTokens(items.map((i) => i.text).join('')) > budgetTokens) {
    // The highest per-item length whose total fits, as for the instruction budget.
    const sorted = [...lengths].sort((a, b) => a - b);
    let remaining = budgetTokens * 4;
    cap = MIN_CARRIED_CHARS;
    for (let i = 0; i < sorted.length; i++) {
      const share = Math.floor(remaining / (sorted.length - i));
      if (sorted[i]! > share) {
        cap = Math.max(MIN_CARRIED_CHARS, share);
        break;
      }
      remaining -= sorted[i]!;
    }
  }
  const lines = items.map((i) => {
    const text = i.text.length > cap ? `${i.text.slice(0, cap)}${CUT_MARKER}${i.text.length - cap} more characters; the archived transcript has them]` : i.text;
    const tag = i.who === 'User' ? 'user-message' : 'assistant-message';
    return `<${tag}>\n${text}\n</${tag}>`;
  });
  return `${heading}\n\n${lines.join('\n')}`;
}
