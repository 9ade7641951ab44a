import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gitPreImages } from '../../../src/checkpoints/git';
import { statKey } from '../../../src/checkpoints/core';
import { entryAt } from '../../../src/checkpoints/files';
import { git, repo } from './workspace';

async function wanted(root: string, rel: string) {
  const e = await entryAt(join(root, rel));
  assert.ok(e);
  return { rel, pre: statKey(e) };
}

describe("git's copies of changed files", () => {
  it('are found for a workspace that is a folder inside the repository', async () => {
    const top = await repo({ 'app/src/a.txt': 'committed a\n', 'other.txt': 'x\n' });
    const ws = join(top, 'app');
    const found = await gitPreImages(ws, [await wanted(ws, 'src/a.txt')]);
    assert.deepEqual([...found].map(([rel, b]) => [rel, b.toString('utf8')]), [['src/a.txt', 'committed a\n']]);
  });

  it('come from the opened folder\'s repository, not one a GIT_DIR in the environment names', async () => {
    const ws = await repo({ 'a.txt': 'the real one\n' });
    const other = await repo({ 'a.txt': 'from elsewhere\n' });
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = join(other, '.git');
    try {
      const found = await gitPreImages(ws, [await wanted(ws, 'a.txt')]);
      assert.equal(found.get('a.txt')?.toString('utf8'), 'the real one\n');
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });

  it("run no program the repository's config names (fsmonitor, hooks)", async () => {
    const ws = await repo({ 'a.txt': 'committed\n' });
    const marker = join(ws, 'ran');
    // Executable, and named by the repository's own config.
    writeFileSync(join(ws, 'monitor.sh'), `#!/bin/sh\necho ran > '${marker}'\n`, { mode: 0o755 });
    git(ws, 'config', 'core.fsmonitor', join(ws, 'monitor.sh'));
    const found = await gitPreImages(ws, [await wanted(ws, 'a.txt')]);
    assert.equal(found.get('a.txt')?.toString('utf8'), 'committed\n');
    assert.equal(existsSync(marker), false, 'the fsmonitor program never ran');
    assert.ok(statSync(join(ws, 'monitor.sh')).isFile());
  });
});
