// The size a tool result may have in the history. One result of 66 MB (Read with a limit of a
// hundred million lines) made every later request, the compaction's summary request included,
// larger than any model takes, for good: the session could not continue, compact or resume.
// Every result is capped where it enters the history, and a loaded transcript is capped the same
// way, so a session written before the cap existed can be resumed.
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../api/types';
import { estimateTokens } from './tokens';

/** About 65k tokens: the most one tool result may hold (Read stops at the same size on its own). */
export const TOOL_RESULT_MAX_CHARS = 256 * 1024;
/**
 * What the results of one answer's tool calls may hold together: four whole results. Each is
 * capped, but 370 parallel Reads of one 256 KB file made a single transcript line and request
 * past what a string may hold, and the run ended with the turn lost (pass 88 M1).
 */
export const TURN_RESULTS_MAX_CHARS = 4 * TOOL_RESULT_MAX_CHARS;

/** The text a result gets in place of its own once the answer's results are past TURN_RESULTS_MAX_CHARS. */
export function overTurnBudget(chars: number, used: number): string {
  return `(This result, ${chars} characters, was left out: the results of this answer's tool calls already hold ${used} characters, and one answer's results are kept to ${TURN_RESULTS_MAX_CHARS}. Call fewer tools at once, or ask each for a smaller part.)`;
}

/** Of what is kept, the share taken from the end: where a command's exit status and errors land. */
const TAIL_SHARE = 0.2;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** `text` cut to at most about `max` characters: its beginning and end, with what was left out said. */
export function capResultText(text: string, max = TOOL_RESULT_MAX_CHARS): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max * TAIL_SHARE);
  let headEnd = max - tail;
  let tailStart = text.length - tail;
  // Never cut a surrogate pair in half.
  if (isHigh(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLow(text.charCodeAt(tailStart))) tailStart++;
  return `${text.slice(0, headEnd)}\n\n… (${tailStart - headEnd} characters of this tool result were left out: a result is kept to ${max} characters. Ask for a smaller part, e.g. Read with offset and limit, or Grep.) …\n\n${text.slice(tailStart)}`;
}

/** Characters of text in a tool result. */
function resultChars(b: ToolResultBlockParam): number {
  if (typeof b.content === 'string') return b.content.length;
  return (b.content ?? []).reduce((n, c) => n + (c.type === 'text' ? c.text.length : 0), 0);
}

/** The result with its text cut to `max` characters in all. */
function capBlock(b: ToolResultBlockParam, max: number): ToolResultBlockParam {
  if (typeof b.content === 'string') return { ...b, content: capResultText(b.content, max) };
  let left = max;
  const content = (b.content ?? []).map((c) => {
    if (c.type !== 'text') return c;
    const kept = capResultText(c.text, Math.max(1000, left));
    left = Math.max(0, left - kept.length);
    return { ...c, text: kept };
  });
  return { ...b, content };
}

/** The history with every tool result over `max` characters cut to it, and how many were. */
export function capToolResults(history: readonly MessageParam[], max = TOOL_RESULT_MAX_CHARS): { history: MessageParam[]; capped: number } {
  let capped = 0;
  const out = history.map((m) => {
    if (typeof m.content === 'string' || !m.content.some((b) => b.type === 'tool_result' && resultChars(b) > max)) return m;
    const content = m.content.map((b): ContentBlockParam => {
      if (b.type !== 'tool_result' || resultChars(b) <= max) return b;
      capped++;
      return capBlock(b, max);
    });
    return { ...m, content } as MessageParam;
  });
  return { history: capped ? out : history.slice(), capped };
}

/**
 * Messages whose estimate fits `maxTokens`, made so by cutting the largest tool results first
 * (a summary needs what a result was about, not all of it): down to `floorChars` each at most.
 * What is left over the budget, if anything, is the caller's to refuse.
 */
export function fitToolResults(messages: readonly MessageParam[], maxTokens: number, floorChars = 2000): MessageParam[] {
  let out = messages.slice();
  for (let max = TOOL_RESULT_MAX_CHARS; estimateTokens(out) > maxTokens && max >= floorChars; max = Math.floor(max / 2)) {
    out = capToolResults(out, max).history;
  }
  return out;
}
