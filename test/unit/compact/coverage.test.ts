import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { truncateWithCoverage } from '../../../src/compact/compact';
import { coveredCount, markerFor } from '../../../src/compact/coverage';
import { microCompact } from '../../../src/compact/microCompact';
import { compactFromNotes, SM_KEEP_MAX_TOKENS } from '../../../src/compact/notesCompaction';
import { CUT_MARKER } from '../../../src/compact/verbatim';
import { checkCoverage } from './coverageContract';

const COMPACTABLE = new Set(['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit']);

/** `n` rounds: a request, a Read with a result of `size` characters, an answer. */
function rounds(n: number, size = 400): MessageParam[] {
  const h: MessageParam[] = [];
  for (let i = 0; i < n; i++) {
    h.push({ role: 'user', content: [{ type: 'text', text: `request ${i}` }] });
    h.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `f${i}.ts` } }] });
    h.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(size), ...(i % 7 === 3 ? { is_error: true } : {}) }] });
    h.push({ role: 'assistant', content: [{ type: 'text', text: i % 7 === 3 ? `Fixed round ${i}: the import now resolves.` : `answer ${i}` }] });
  }
  return h;
}

describe('coverage markers', () => {
  it('survive a resume (a JSON round trip) and micro-compaction, and stop matching once the prefix changes', () => {
    const h = rounds(10, 4000);
    const marker = markerFor(h.slice(0, 24));
    const resumed = JSON.parse(JSON.stringify(h)) as MessageParam[];
    assert.equal(coveredCount(resumed, marker), 24);
    const micro = microCompact({ history: resumed, lastAssistantAt: 0, now: 10 * 60_000, usedTokens: 0, warningAt: 1e9, compactable: COMPACTABLE });
    assert.ok(micro.cleared > 0);
    assert.equal(coveredCount(micro.history, marker), 24, 'clearing tool results does not move the marker');
    const rewritten = [{ role: 'user', content: [{ type: 'text', text: 'different start' }] } as MessageParam, ...resumed.slice(1)];
    assert.equal(coveredCount(rewritten, marker), 0);
    assert.equal(coveredCount(resumed.slice(0, 10), marker), 0, 'a shorter history cannot be covered by a longer marker');
    assert.equal(coveredCount(resumed, undefined), 0);
  });
});

describe('compaction from notes only within their coverage', () => {
  it('uses notes that reach the default tail, and says what they cover', () => {
    const h = rounds(60);
    const r = compactFromNotes(h, 'notes', h.length);
    assert.ok(r.ok);
    if (r.ok) {
      checkCoverage(h, r.result, 'notes');
      assert.ok(r.result.coverage.keptFrom > 0 && r.result.coverage.keptFrom < h.length);
    }
  });

  it('keeps the uncovered rounds verbatim when the notes lag a little', () => {
    const h = rounds(60, 4000);
    const r = compactFromNotes(h, 'notes', 180);
    assert.ok(r.ok);
    if (r.ok) {
      assert.equal(r.result.coverage.keptFrom, 180, 'the tail starts right after what the notes cover');
      checkCoverage(h, r.result, 'lagging notes');
    }
  });

  it('refuses notes that cover only the first round of a long history (the issue\'s case)', () => {
    const h = rounds(60, 4000);
    const r = compactFromNotes(h, 'notes', 4);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, /short of the end/);
    assert.equal(compactFromNotes(h, 'notes', 0).ok, false, 'no marker: not trusted');
    assert.equal(compactFromNotes(h, '  ', h.length).ok, false);
    assert.ok(SM_KEEP_MAX_TOKENS > 0);
  });
});

describe('texts no summary covers are carried, and cut only past a budget', () => {
  it('truncation carries every earlier user message and fix word for word', () => {
    const h = rounds(40, 4000);
    const t = truncateWithCoverage(h, 5_000);
    checkCoverage(h, { ...t, summary: '', tokensBefore: 0, tokensAfter: 0, anchors: [], droppedRounds: 0, source: 'truncation' }, 'truncation');
    const head = JSON.stringify(t.history[0]);
    assert.match(head, /request 0/);
    assert.match(head, /Fixed round 3/);
  });

  it('huge pasted messages are cut to a common length with a marked cut; none is dropped', () => {
    const h: MessageParam[] = [];
    for (let i = 0; i < 12; i++) {
      h.push({ role: 'user', content: [{ type: 'text', text: `paste ${i}\n${'log line\n'.repeat(4_000)}` }] });
      h.push({ role: 'assistant', content: [{ type: 'text', text: `ok ${i}` }] });
    }
    const t = truncateWithCoverage(h, 1_000);
    const head = (t.history[0]!.content as Array<{ type: string; text: string }>)[0]!.text;
    for (let i = 0; i < 11; i++) assert.ok(head.includes(`paste ${i}\n`), `paste ${i} is carried`);
    assert.ok(head.includes(CUT_MARKER));
    assert.ok(head.length < 100_000, `the carried block stays within its budget (${head.length} chars)`);
    checkCoverage(h, { ...t, summary: '', tokensBefore: 0, tokensAfter: 0, anchors: [], droppedRounds: 0, source: 'truncation' }, 'cut');
  });
});
