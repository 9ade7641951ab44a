import type { ContentBlockParam, MessageParam } from '../api/types';

/**
 * The Messages API refuses a request in which a tool_use id appears twice anywhere
 * ("`tool_use` ids must be unique"). Proxies and compatible servers do repeat ids (within one
 * answer, or `toolu_01` on every turn); kept as they came, they wedge the session for good.
 */

/** Every tool_use id in the history. */
export function toolUseIdsIn(history: readonly MessageParam[]): Set<string> {
  const ids = new Set<string>();
  for (const m of history) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_use') ids.add(b.id);
  }
  return ids;
}

/** `id` when it is free, else `id_2`, `id_3`… (in the API's id alphabet); the result is taken. */
function freshToolUseId(id: string, taken: Set<string>): string {
  let out = id;
  if (taken.has(out) || !/^[A-Za-z0-9_-]+$/.test(out)) {
    const base = id.replace(/[^A-Za-z0-9_-]/g, '_') || 'toolu';
    for (let n = 2; taken.has((out = `${base}_${n}`)); n++);
  }
  taken.add(out);
  return out;
}

/**
 * The blocks with each tool_use id made unique against `taken` (which learns them). Blocks
 * that needed no change are returned as they were; the array is the same when none did.
 */
export function uniqueToolUseIds<B extends { type: string }>(blocks: readonly B[], taken: Set<string>): B[] {
  let out: B[] | undefined;
  blocks.forEach((b, i) => {
    if (b.type !== 'tool_use') return;
    const id = (b as B & { id: string }).id;
    const fresh = freshToolUseId(id, taken);
    if (fresh === id) return;
    out ??= blocks.slice();
    out[i] = { ...b, id: fresh };
  });
  return out ?? (blocks as B[]);
}

/**
 * Gives each tool_result the id of the call it answers once calls were renamed: the k-th
 * result for an original id answers the k-th call that carried it. `calls` lists the calls in
 * order as original and final id. A result with no call left for it is dropped.
 */
export function matchResults(blocks: readonly ContentBlockParam[], calls: ReadonlyArray<{ original: string; id: string }>): ContentBlockParam[] {
  const open = calls.map((c) => ({ ...c, claimed: false }));
  const out: ContentBlockParam[] = [];
  for (const b of blocks) {
    if (b.type !== 'tool_result') {
      out.push(b);
      continue;
    }
    const call = open.find((c) => !c.claimed && c.original === b.tool_use_id);
    if (!call) continue;
    call.claimed = true;
    out.push(call.id === b.tool_use_id ? b : { ...b, tool_use_id: call.id });
  }
  return out;
}
