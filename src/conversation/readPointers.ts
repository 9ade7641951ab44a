import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../api/types';

// A re-read of an unchanged file returns this instead of the text again: it names the
// earlier result, which is still word for word in the conversation. Every compaction path keeps
// that true: a pointer whose target goes is cleared with it or gets the target's text back.
const LEAD = '[Unchanged since an earlier read:';
const POINTER = /^\[Unchanged since an earlier read: .* is word for word the result of tool call (\S+) above/;

export interface ReadPointer {
  /** The tool_use id whose result holds the text. */
  targetId: string;
  path: string;
  /** The lines asked for, as the earlier call asked for them ("" for the default range). */
  range: string;
}

export function pointerText(p: ReadPointer): string {
  return `${LEAD} ${p.path}${p.range ? ` (${p.range})` : ''} is word for word the result of tool call ${p.targetId} above (same content hash, same range). Use that result; it has not been cleared.]`;
}

/** The tool_use id a pointer result names, or undefined for any other result. */
export function pointerTarget(content: string): string | undefined {
  if (!content.startsWith(LEAD)) return undefined;
  return POINTER.exec(content)?.[1];
}

export function resultText(b: ToolResultBlockParam): string {
  if (typeof b.content === 'string') return b.content;
  return (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Said in place of a pointer whose target is gone from every copy of the history we have. */
export const POINTER_LOST = '[An earlier read result this pointed to is no longer in the conversation. Read the file again if you need it.]';

/**
 * After a compaction turned `before` into `after`: each pointer in `after` whose target is not
 * there word for word (before the pointer) takes the target's text from `before`, and later
 * pointers to the same target are pointed at it instead. A pointer whose target `before` does
 * not hold either becomes POINTER_LOST. Returns `after` itself when nothing dangles.
 */
export function restoreDanglingPointers(before: readonly MessageParam[], after: readonly MessageParam[]): MessageParam[] {
  const original = new Map<string, string>();
  for (const m of before) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result') original.set(b.tool_use_id, resultText(b));
  }
  // What each id holds in `after` so far, in order, and where a moved target now lives.
  const present = new Map<string, string>();
  const movedTo = new Map<string, string>();
  let changed = false;
  const out = after.map((m) => {
    if (typeof m.content === 'string' || !m.content.some((b) => b.type === 'tool_result')) return m;
    let touched = false;
    const content = m.content.map((b): ContentBlockParam => {
      if (b.type !== 'tool_result') return b;
      const text = resultText(b);
      const target = pointerTarget(text);
      if (target === undefined) {
        present.set(b.tool_use_id, text);
        return b;
      }
      const full = original.get(target);
      if (full !== undefined && pointerTarget(full) === undefined && present.get(target) === full) {
        present.set(b.tool_use_id, text);
        return b;
      }
      touched = true;
      const moved = movedTo.get(target);
      if (moved !== undefined && full !== undefined) {
        const next = text.replace(` tool call ${target} above`, ` tool call ${moved} above`);
        present.set(b.tool_use_id, next);
        return { ...b, content: next };
      }
      if (full === undefined || pointerTarget(full) !== undefined) {
        present.set(b.tool_use_id, POINTER_LOST);
        return { ...b, content: POINTER_LOST };
      }
      // The text comes back here; this result is now the one later re-reads point at.
      movedTo.set(target, b.tool_use_id);
      present.set(b.tool_use_id, full);
      return { ...b, content: full };
    });
    if (!touched) return m;
    changed = true;
    return { ...m, content } as MessageParam;
  });
  return changed ? out : (after as MessageParam[]);
}
