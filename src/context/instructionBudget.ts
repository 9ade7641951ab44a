import { estimateTokens } from '../conversation/tokens';
import { formatTokens } from '../shared/format';

/** All instruction files sent with every request, together (about 20% of a 200k window). */
export const INSTRUCTION_BUDGET_TOKENS = 40_000;
/** One conditional rule, sent when a matching file is touched. */
export const CONDITIONAL_RULE_MAX_TOKENS = 10_000;

export interface Trimmable {
  content: string;
}

export interface Trim {
  index: number;
  fromTokens: number;
  toTokens: number;
}

/** Cuts text to about `tokens`, at a line break when one is near, with a note saying so. */
export function trimTo(text: string, tokens: number, why: string): string {
  const chars = Math.max(0, tokens * 4);
  let cut = text.slice(0, chars);
  const nl = cut.lastIndexOf('\n');
  if (nl > chars * 0.8) cut = cut.slice(0, nl);
  return `${cut.trimEnd()}\n\n(Trimmed: ${why}; the rest of this file is not included.)`;
}

/**
 * Keeps the files' total under the budget by trimming the biggest first: every file larger
 * than a common cap is cut to it, the cap chosen as high as the budget allows (so small files
 * are never touched and the big ones end up the same size). Returns what it cut.
 */
export function applyInstructionBudget(files: Trimmable[], budgetTokens = INSTRUCTION_BUDGET_TOKENS): Trim[] {
  const sizes = files.map((f) => estimateTokens(f.content));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= budgetTokens) return [];
  // The highest cap c with sum(min(size, c)) <= budget: walk the sizes from the smallest up.
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = budgetTokens;
  let cap = 0;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(remaining / (sorted.length - i));
    if (sorted[i]! > share) {
      cap = share;
      break;
    }
    remaining -= sorted[i]!;
  }
  const trims: Trim[] = [];
  files.forEach((f, index) => {
    const from = sizes[index]!;
    if (from <= cap) return;
    // The note itself costs a few tokens: leave room for it inside the cap.
    const target = Math.max(0, cap - 60);
    f.content = trimTo(f.content, target, `the instruction files together are about ${formatTokens(total)} tokens, over the ${formatTokens(budgetTokens)} budget, so the largest were cut to about ${formatTokens(cap)} each`);
    trims.push({ index, fromTokens: from, toTokens: estimateTokens(f.content) });
  });
  return trims;
}
