import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../api/types';

const LOST_TOOL_RESULT = 'No result: the session ended (Threadline was closed or crashed) before this tool call finished. It may or may not have run.';
const LOST_START = '(The start of this conversation could not be read from the saved session.)';

function blocksOf(m: MessageParam): ContentBlockParam[] {
  return typeof m.content === 'string' ? (m.content.trim() ? [{ type: 'text', text: m.content }] : []) : m.content;
}

function toolUseIds(m: MessageParam): string[] {
  return blocksOf(m).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
}

const lost = (id: string): ToolResultBlockParam => ({ type: 'tool_result', tool_use_id: id, content: LOST_TOOL_RESULT, is_error: true });

/**
 * Makes a replayed history one the Messages API accepts again, the way a crash or a skipped
 * line can leave it: every tool call is answered in the next user message (a call that never
 * got its result is answered "no result"), results with no call before them go, results come
 * first in their message, and the conversation starts with the user. Returns the same array
 * when nothing needed mending, and a line per repair.
 */
export function repairToolPairing(history: readonly MessageParam[]): { history: readonly MessageParam[]; repairs: string[] } {
  const repairs: string[] = [];
  const out: MessageParam[] = [];
  let pending: string[] = [];
  let changed = false;
  const answerPending = () => {
    if (!pending.length) return;
    out.push({ role: 'user', content: pending.map(lost) });
    repairs.push(`${pending.length} tool call(s) had no result (${pending.join(', ')}); answered as lost`);
    pending = [];
    changed = true;
  };
  for (const m of history) {
    // System messages between turns take no part in pairing.
    if (m.role === 'system') {
      out.push(m);
      continue;
    }
    if (m.role === 'assistant') {
      answerPending();
      if (!out.length) {
        out.push({ role: 'user', content: [{ type: 'text', text: LOST_START }] });
        repairs.push('the conversation did not start with a user message');
        changed = true;
      }
      out.push(m);
      pending = toolUseIds(m);
      continue;
    }
    const blocks = blocksOf(m);
    const offered = new Set(pending);
    const results: ContentBlockParam[] = [];
    const others: ContentBlockParam[] = [];
    let dropped = 0;
    for (const b of blocks) {
      if (b.type !== 'tool_result') others.push(b);
      else if (offered.delete(b.tool_use_id)) results.push(b);
      else dropped++;
    }
    const missing = [...offered];
    if (dropped) repairs.push(`${dropped} tool result(s) without a call before them were dropped`);
    if (missing.length) repairs.push(`${missing.length} tool call(s) had no result (${missing.join(', ')}); answered as lost`);
    const fixed = [...results, ...missing.map(lost), ...others];
    pending = [];
    if (!fixed.length) {
      changed = true;
      repairs.push('an empty message was dropped');
      continue;
    }
    if (fixed.length === blocks.length && fixed.every((b, i) => b === blocks[i])) {
      out.push(m);
      continue;
    }
    changed = true;
    out.push({ role: 'user', content: fixed });
  }
  answerPending();
  return changed ? { history: out, repairs } : { history, repairs };
}
