import { createHash } from 'node:crypto';
import type { MessageParam } from '../api/types';
import { pointerText, resultText } from '../conversation/readPointers';
import { toolPaths } from '../tools/paths';
import type { Tool, ToolResult } from '../tools/types';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The result of `id` in the history, when it is there and hashes to `hash` (not cleared, not a summary). */
function verbatimIn(history: readonly MessageParam[], id: string, hash: string): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result' && b.tool_use_id === id) return digest(resultText(b)) === hash;
  }
  return false;
}

/**
 * Re-reads of unchanged files cost a pointer, not a copy. For tools that return a
 * file's content, the last full result per file and range is remembered by the hash of its text
 * (content and range together, so an edit shows however the mtime moved). A call whose result
 * hashes the same while that earlier result is still word for word in the conversation gets a
 * short pointer naming it; a changed file, another range, a cleared or summarised earlier copy
 * give the full text, which becomes the one later re-reads point at.
 */
export class RereadTracker {
  private readonly last = new Map<string, { id: string; hash: string }>();

  constructor(private readonly cwd: string) {}

  revise(call: { id: string; tool: Tool; input: unknown }, result: ToolResult, history: readonly MessageParam[]): ToolResult {
    if (!call.tool.traits.returnsFileContent || result.isError) return result;
    const key = this.keyOf(call.tool, call.input);
    if (key === undefined) return result;
    const hash = digest(result.content);
    const prev = this.last.get(key);
    if (prev && prev.id !== call.id && prev.hash === hash && verbatimIn(history, prev.id, hash)) {
      return { content: pointerText({ targetId: prev.id, ...this.describe(call.tool, call.input) }) };
    }
    this.last.set(key, { id: call.id, hash });
    return result;
  }

  /** The file (by absolute path) and everything else the call asked for (its range). */
  private keyOf(tool: Tool, input: unknown): string | undefined {
    const paths = toolPaths(tool, input, this.cwd);
    if (paths.length !== 1) return undefined;
    const rest = typeof input === 'object' && input !== null ? Object.entries(input).filter(([k]) => !/path/i.test(k)).sort(([a], [b]) => a.localeCompare(b)) : [];
    return `${tool.name}\u0000${paths[0]}\u0000${JSON.stringify(rest)}`;
  }

  private describe(tool: Tool, input: unknown): { path: string; range: string } {
    const path = toolPaths(tool, input, this.cwd)[0] ?? '';
    const i = (typeof input === 'object' && input !== null ? input : {}) as { offset?: unknown; limit?: unknown };
    const range = [typeof i.offset === 'number' ? `from line ${i.offset}` : '', typeof i.limit === 'number' ? `${i.limit} lines` : ''].filter(Boolean).join(', ');
    return { path, range: range || 'the default range' };
  }
}
