// Pass 33, A2 (high): in a trusted folder, a `.git` folder holding a `commondir` file that points
// at another repository outside the workspace (or with `refs` and `objects` linked there) made the
// git snapshot read that repository: every request carried its last commit subjects, its user
// name and its file names. Bash's `git status` was refused there; the snapshot checked only a
// `.git` file or link. It now judges every `.git` entry with the same guard.
import assert from 'node:assert/strict';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatGitSnapshot, takeGitSnapshot } from '../../src/context/git';
import { tempDir } from './support';
import { committedRepo } from '../support/gitRepo';

function victimAndClone() {
  const root = tempDir('gitdata');
  const victim = committedRepo(join(root, 'victim'), { 'private-plan.txt': 'x' }, 'SECRET-COMMIT-SUBJECT');
  const ws = committedRepo(join(root, 'ws'), { 'a.txt': 'a' }, 'own commit');
  return { victim, ws };
}

describe('pass 33 A2: a .git folder that keeps another repository\'s data', () => {
  it('commondir pointing outside: the snapshot does not read that repository', async () => {
    const { victim, ws } = victimAndClone();
    writeFileSync(join(ws, '.git', 'commondir'), join(victim, '.git'));
    const s = await takeGitSnapshot(ws, { trusted: true });
    const text = s ? formatGitSnapshot(s) : '';
    assert.doesNotMatch(text, /SECRET-COMMIT-SUBJECT|private-plan/);
  });

  it('refs and objects linked outside: the same', async () => {
    const { victim, ws } = victimAndClone();
    for (const d of ['refs', 'objects']) {
      rmSync(join(ws, '.git', d), { recursive: true });
      symlinkSync(join(victim, '.git', d), join(ws, '.git', d));
    }
    const s = await takeGitSnapshot(ws, { trusted: true });
    const text = s ? formatGitSnapshot(s) : '';
    assert.doesNotMatch(text, /SECRET-COMMIT-SUBJECT|private-plan/);
  });

  it('an ordinary repository still gets its snapshot', async () => {
    const { ws } = victimAndClone();
    const s = await takeGitSnapshot(ws, { trusted: true });
    assert.match(s ? formatGitSnapshot(s) : '', /own commit/);
  });
});
