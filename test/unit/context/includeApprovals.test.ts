import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rememberedApprovals } from '../../../src/context/includeApprovals';

describe('approvals of instruction files included from outside the project', () => {
  it('are remembered per including file: another repository including the same file is asked again', async () => {
    let kept: readonly string[] = [];
    const asked: string[] = [];
    const memory = { get: () => kept, set: async (keys: readonly string[]) => void (kept = keys) };
    const approve = rememberedApprovals(memory, async (path, from) => (asked.push(`${from} -> ${path}`), true));
    assert.equal(await approve('/home/u/shared.md', '/work/a/CLAUDE.md'), true);
    assert.equal(await approve('/home/u/shared.md', '/work/a/CLAUDE.md'), true);
    assert.deepEqual(asked, ['/work/a/CLAUDE.md -> /home/u/shared.md'], 'asked once for the file that includes it');
    const later = rememberedApprovals(memory, async (path, from) => (asked.push(`${from} -> ${path}`), false));
    assert.equal(await later('/home/u/shared.md', '/work/a/CLAUDE.md'), true, 'remembered across restarts');
    assert.equal(await later('/home/u/shared.md', '/tmp/evil-repo/CLAUDE.md'), false, 'another repository is asked, and refused here');
    assert.equal(asked.length, 2);
  });
});
