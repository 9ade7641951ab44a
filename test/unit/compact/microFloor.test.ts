import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { CLEARED_PREFIX, microCompact, MIN_CLEARABLE_CHARS } from '../../../src/compact/microCompact';
import { estimateTokens } from '../../../src/conversation/tokens';

function session(sizes: number[]): MessageParam[] {
  const h: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
  sizes.forEach((size, i) => {
    h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `src/a/rather/deep/folder/structure/inside/the/repository/file${i}.ts` } }] });
    h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${i}:`.padEnd(size, 'x') }] });
  });
  h.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
  return h;
}

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
    const results = d.history.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result') as Array<{ content: string }>;
    // The three latest always stay; of the older five, the 100-character one is at the floor,
    // and 101 or 120 characters are shorter than a placeholder naming this long path.
    assert.deepEqual(results.map((r) => r.content.startsWith(CLEARED_PREFIX)), [false, false, false, true, true, false, false, false]);
    assert.equal(d.cleared, 2);
    assert.equal(d.tokensSaved, estimateTokens(h) - estimateTokens(d.history), 'the saved figure is the real difference');
  });
});
