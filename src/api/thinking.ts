import type { ModelInfo } from './models';
import type { MessageParam, ThinkingParam } from './types';

/** The user's choice: think where the model can (adaptive, else a budget), or not at all. */
export type ThinkingSetting = 'adaptive' | 'off';

export const DEFAULT_THINKING: ThinkingSetting = 'adaptive';

/** The API's floor for `budget_tokens`. */
const MIN_BUDGET = 1024;
/** Half the answer's room at most, so thinking never starves the text it is for. */
const MAX_BUDGET = 16_000;

function blocks(m: MessageParam | undefined): ReadonlyArray<{ type: string }> {
  if (!m) return [];
  return typeof m.content === 'string' ? [{ type: 'text' }] : m.content;
}

/**
 * True when the history ends inside a tool loop (its last message answers tool calls) whose
 * assistant turn does not open with a thinking block. With `enabled` the API refuses such a
 * request, so thinking waits for the next turn (this happens when thinking is switched on
 * mid-loop, or a Stop dropped the turn's thinking).
 */
export function toolLoopWithoutThinking(history: readonly MessageParam[]): boolean {
  const last = history.at(-1);
  if (last?.role !== 'user' || !blocks(last).some((b) => b.type === 'tool_result')) return false;
  let i = history.length - 2;
  while (i > 0 && history[i - 1]?.role === 'assistant') i--;
  const first = blocks(history[i]).at(0);
  return history[i]?.role === 'assistant' && first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

/**
 * What a main request says about thinking, from the setting and what the model accepts
 * (its Models API capabilities): adaptive where supported (the SDK warns against `enabled`
 * on the models that have it), else `enabled` with a budget below max_tokens, else nothing.
 * `off` sends `disabled` where the model takes it (some think by default when it is left
 * out); models whose thinking is always on get nothing. Unknown capabilities: nothing sent.
 */
export function thinkingParam(model: Pick<ModelInfo, 'thinking'>, setting: ThinkingSetting, maxTokens: number, history: readonly MessageParam[]): ThinkingParam | undefined {
  const can = model.thinking;
  if (!can) return undefined;
  if (setting === 'off') return can.disabled ? { type: 'disabled' } : undefined;
  if (can.adaptive) return { type: 'adaptive', display: 'summarized' };
  if (!can.enabled) return undefined;
  const budget = Math.min(MAX_BUDGET, Math.floor(maxTokens / 2));
  if (budget < MIN_BUDGET || toolLoopWithoutThinking(history)) return undefined;
  return { type: 'enabled', budget_tokens: budget };
}
