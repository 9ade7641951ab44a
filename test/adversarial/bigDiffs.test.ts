// Pass 39 C2 (medium): the change summary a Write or Edit prompt shows, and `threadline diff`,
// diffed without a bound; an Edit replacing one letter on each of 16,000 lines took 97 s, on the
// extension host, before the user was asked, and `threadline diff` held Ctrl+C for 47 s. Both now
// give up after a bound and count whole sides. Run in a child with a deadline far beyond the bound
// and far short of the old cost (runBounded); nothing here is timed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runBounded } from '../support/bounded';

describe('pass 39 C2: a diff of 16,000 changed lines', () => {
  it('the summary and the patch end, and say they could not diff; a small change still diffs', () => {
    const out = runBounded(`
      const { summarizeChange } = await load('tools/changeSummary.ts');
      const { unifiedDiff } = await load('checkpoints/textDiff.ts');
      const before = Array.from({ length: 16000 }, (_, i) => 'line ' + i + ' x').join('\\n') + '\\n';
      const after = before.replaceAll('x', 'y');
      const s = summarizeChange('big.txt', before, after);
      const p = unifiedDiff('big.txt', Buffer.from(before), Buffer.from(after));
      const small = summarizeChange('a.txt', 'a\\nb\\n', 'a\\nc\\n');
      console.log(JSON.stringify({ s, p: p.slice(0, 300), small }));
    `, 60_000);
    const r = JSON.parse(out) as { s: { added: number; removed: number; hunk: string }; p: string; small: { added: number; removed: number; hunk: string } };
    assert.equal(r.s.added, 16000);
    assert.equal(r.s.removed, 16000);
    assert.match(r.s.hunk, /too large a change/);
    assert.match(r.p, /too large a change to diff in time/);
    assert.deepEqual([r.small.added, r.small.removed], [1, 1]);
    assert.match(r.small.hunk, /-b\n\+c/);
  });
});
