import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { CLEARED_PREFIX, microCompact, MIN_CLEARABLE_CHARS } from '../../../src/compact/microCompact';
import { estimateTokens } from '../../../src/conversation/tokens';

function session(sizes: number[], tool = 'Read'): MessageParam[] {
  const h: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
  sizes.forEach((size, i) => {
    h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: tool, input: { file_path: `src/a/rather/deep/folder/structure/inside/the/repository/file${i}.ts` } }] });
    h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${i}:`.padEnd(size, 'x') }] });
  });
  h.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
  return h;
}

const cleared = (h: MessageParam[]) => (h.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result') as Array<{ content: string }>).map((r) => r.content.startsWith(CLEARED_PREFIX));

const gap = { now: 10_000_000, lastAssistantAt: 10_000_000 - 6 * 60_000, usedTokens: 1_000, warningAt: 150_000, compactable: new Set(['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit']) };

describe('micro-compaction size floor', () => {
  it('never "clears" ten 50-character results into longer placeholders', () => {
    const h = session(Array(10).fill(50));
    const d = microCompact({ ...gap, history: h });
    assert.equal(d.cleared, 0);
    assert.equal(d.tokensSaved, 0);
    assert.ok(estimateTokens(d.history) <= estimateTokens(h), 'the history never grows');
  });

  it('only replaces results over the floor, and only when the placeholder is shorter', () => {
    const sizes = [MIN_CLEARABLE_CHARS, MIN_CLEARABLE_CHARS + 1, 120, 5_000, 5_000, 50, 50, 50];
    const h = session(sizes);
    const d = microCompact({ ...gap, history: h });
    // The three latest always stay; of the older five, the 100-character one is at the floor.
    assert.deepEqual(cleared(d.history), [false, true, true, true, true, false, false, false]);
    assert.equal(d.cleared, 4);
    assert.equal(d.tokensSaved, estimateTokens(h) - estimateTokens(d.history), 'the saved figure is the real difference');
    // A tool with a long name (an MCP server's) has a placeholder longer than 101 or 120 characters.
    const long = session(sizes, `mcp__a_server_with_a_long_name__${'and_a_tool_with_one_too_'.repeat(3)}`);
    const dl = microCompact({ ...gap, history: long, compactable: new Set([...gap.compactable, (long[1]!.content as Array<{ name: string }>)[0]!.name]) });
    assert.deepEqual(cleared(dl.history), [false, false, false, true, true, false, false, false]);
  });
});
