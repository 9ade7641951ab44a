import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineCounts, unifiedDiff } from '../../../src/checkpoints/textDiff';

const b = (s: string) => Buffer.from(s);

describe('line counts and diffs of a restore', () => {
  it('count lines added and removed, a missing side as all of the other', () => {
    assert.deepEqual(lineCounts(b('a\nb\nc\n'), b('a\nB\nc\nd\n')), { added: 2, removed: 1, binary: false });
    assert.deepEqual(lineCounts(undefined, b('x\ny')), { added: 2, removed: 0, binary: false });
    assert.deepEqual(lineCounts(b('x\n'), undefined), { added: 0, removed: 1, binary: false });
    assert.deepEqual(lineCounts(b('same'), b('same')), { added: 0, removed: 0, binary: false });
  });

  it('name a binary file instead of counting or printing it', () => {
    assert.deepEqual(lineCounts(b('\0\x01'), b('text\n')), { added: 0, removed: 0, binary: true });
    assert.equal(unifiedDiff('img.png', b('\0'), b('\0\0')), 'Binary file img.png differs\n');
  });

  it('print a unified diff with /dev/null for a side that does not exist', () => {
    const d = unifiedDiff('src/a.ts', undefined, b('new\n'));
    assert.match(d, /--- \/dev\/null/);
    assert.match(d, /\+\+\+ b\/src\/a\.ts/);
    assert.match(d, /^\+new$/m);
  });
});
