import type { ContentBlockParam, MessageParam } from '../api/types';

/** Stands in for a message whose only text was blank: the API refuses empty content. */
export const NO_CONTENT = '(no content)';

/**
 * The Messages API refuses a text block of only whitespace ("text content blocks must contain
 * non-whitespace text"), and models do send them ("\n\n" before a tool call). One such block
 * kept in history makes every later request of the session fail.
 */
function isBlankText(block: ContentBlockParam): boolean {
  return block.type === 'text' && block.text.trim().length === 0;
}

function cleanBlocks(blocks: readonly ContentBlockParam[]): ContentBlockParam[] | undefined {
  let changed = false;
  const out: ContentBlockParam[] = [];
  for (const b of blocks) {
    if (isBlankText(b)) {
      changed = true;
      continue;
    }
    if (b.type === 'tool_result' && Array.isArray(b.content) && b.content.some((p) => p.type === 'text' && p.text.trim().length === 0)) {
      const parts = b.content.filter((p) => !(p.type === 'text' && p.text.trim().length === 0));
      out.push({ ...b, content: parts.length ? parts : '(no output)' });
      changed = true;
      continue;
    }
    out.push(b);
  }
  return changed ? out : undefined;
}

/**
 * The history without blank text blocks; a message left with nothing holds `(no content)`
 * so it keeps its place (and the roles keep alternating). Returns the same array when there
 * was nothing to drop, so callers can tell and caches stay warm.
 */
export function withoutBlankText(history: readonly MessageParam[]): readonly MessageParam[] {
  let out: MessageParam[] | undefined;
  history.forEach((m, i) => {
    let content: ContentBlockParam[] | undefined;
    if (typeof m.content === 'string') content = m.content.trim().length ? undefined : [];
    else content = cleanBlocks(m.content);
    if (!content) return;
    out ??= history.slice();
    out[i] = { ...m, content: content.length ? content : [{ type: 'text', text: NO_CONTENT }] } as MessageParam;
  });
  return out ?? history;
}
