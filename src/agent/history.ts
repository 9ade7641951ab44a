import type { ContentBlockParam, MessageParam } from '../api/types';

export const INTERRUPTED_MARKER = '[Request interrupted by user]';
export const INTERRUPTED_TOOL_RESULT = 'Interrupted by user: this tool call did not run to completion.';

function asBlocks(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? (content.length ? [{ type: 'text', text: content }] : []) : [...content];
}

/**
 * Adds user content, merging into a trailing user message so the history keeps strict
 * alternation. tool_result blocks stay first in their message, as the API requires.
 */
export function appendUserContent(history: readonly MessageParam[], blocks: ContentBlockParam[]): MessageParam[] {
  const last = history.at(-1);
  if (last?.role !== 'user') return [...history, { role: 'user', content: blocks }];
  const merged = [...asBlocks(last.content), ...blocks];
  merged.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  return [...history.slice(0, -1), { role: 'user', content: merged }];
}

/**
 * Puts blocks at the head of the conversation: into the first message when it is the user's
 * (so roles still alternate), else as a new first user message. The first user message never
 * holds tool results, so nothing has to lead it.
 */
export function prependUserContent(history: readonly MessageParam[], blocks: ContentBlockParam[]): MessageParam[] {
  const first = history[0];
  if (first?.role !== 'user') return [{ role: 'user', content: blocks }, ...history];
  return [{ ...first, content: [...blocks, ...asBlocks(first.content)] } as MessageParam, ...history.slice(1)];
}

export function lastUserText(history: readonly MessageParam[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== 'user') continue;
    const text = asBlocks(m.content)
      .filter((b): b is Extract<ContentBlockParam, { type: 'text' }> => b.type === 'text')
      .map((b) => b.text)
      .join('\n');
    if (text) return text;
  }
  return undefined;
}

/** tool_use ids in the final assistant message that no later user message answers. */
export function unansweredToolUses(history: readonly MessageParam[]): string[] {
  const last = history.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return [];
  return last.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
}
