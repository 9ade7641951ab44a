import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactionTexts } from '../../../webview-ui/src/controls/compactionTexts';

const divider = (over: { canUndo?: boolean; undone?: boolean } = {}) => ({ kind: 'compaction' as const, id: 'c1', tokensBefore: 31_000, tokensAfter: 2_400, summary: 's', canUndo: true, createdAt: 1, ...over });

describe('compactionTexts', () => {
  it('says what the compaction did', () => {
    assert.match(compactionTexts(divider()).label, /^Compacted: 31k → 2\.4k tokens$/);
  });

  it('says so once the compaction was undone, instead of still claiming it', () => {
    const t = compactionTexts(divider({ canUndo: false, undone: true }));
    assert.doesNotMatch(t.label, /^Compacted/);
    assert.match(t.label, /undone/);
  });

  it('says why Undo is not there any more', () => {
    // Any compaction stays undoable while its summary is in the conversation, whatever came after.
    assert.match(compactionTexts(divider({ canUndo: false })).undoTitle, /a later compaction summarised this one \(undo that first\)/);
  });
});
