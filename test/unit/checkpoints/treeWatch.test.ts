import assert from 'node:assert/strict';
import { renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_FINGERPRINT_LIMITS, takeFingerprint, type Fingerprint } from '../../../src/checkpoints/fingerprint';
import { TreeWatcher, VERIFY_EVERY } from '../../../src/checkpoints/treeWatch';
import { repo, tmp, write } from './workspace';

const linux = process.platform === 'linux';
const view = (fp: Fingerprint) => [...fp.entries].map(([rel, e]) => [rel, e.kind, e.size, e.mtimeMs, e.ino, e.mode, e.link ?? '']).sort();

async function start(ws: string): Promise<TreeWatcher> {
  const w = await TreeWatcher.start(ws, tmp('tl-cp-marker-'), DEFAULT_FINGERPRINT_LIMITS);
  assert.ok(w instanceof TreeWatcher);
  return w;
}

describe('a watched fingerprint', { skip: !linux && 'folder watches are trusted on Linux only' }, () => {
  it('stays what a walk of the tree would find, through files and folders made, moved and removed', async () => {
    const ws = await repo({ '.gitignore': 'out/\n', 'a/b/c.txt': 'c', 'a/d.txt': 'd', 'e.txt': 'e' });
    const w = await start(ws);
    try {
      for (let round = 0; round < 3; round++) {
        write(ws, `new${round}/deep/x.txt`, 'x');
        renameSync(join(ws, round === 0 ? 'a' : `moved${round - 1}`), join(ws, `moved${round}`));
        writeFileSync(join(ws, 'e.txt'), `e${round}`);
        write(ws, `out/ignored${round}.txt`, 'ignored');
        if (round === 1) rmSync(join(ws, 'new0'), { recursive: true });
        if (round === 2) symlinkSync('e.txt', join(ws, 'link'));
        const watched = await w.before();
        assert.ok(watched, w.problem);
        const walked = await takeFingerprint(ws);
        assert.ok(walked.ok);
        assert.deepEqual(view(watched), view(walked.fp), `round ${round}`);
        assert.deepEqual(await w.after(), { diff: { created: [], deleted: [], modified: [] }, pre: new Map() });
      }
    } finally {
      w.dispose();
    }
  });

  it('is dropped when a walk finds a change it did not hear', async () => {
    const ws = await repo({ 'quiet/f.txt': 'f' });
    const w = await start(ws);
    try {
      // A folder whose changes go unheard (as on a file system that does not report them).
      (w as unknown as { watches: Map<string, { close(): void }> }).watches.get('quiet')!.close();
      unlinkSync(join(ws, 'quiet/f.txt'));
      let last: Fingerprint | undefined;
      for (let i = 0; i < VERIFY_EVERY; i++) {
        last = await w.before();
        if (!last) break;
        await w.after();
      }
      assert.equal(last, undefined);
      assert.match(w.problem ?? '', /found changes the watch had not heard/);
    } finally {
      w.dispose();
    }
  });
});
