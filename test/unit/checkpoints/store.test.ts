import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RestoreError } from '../../../src/checkpoints/apply';
import { MANIFEST_FILE } from '../../../src/checkpoints/store';
import { git, openStore, repo, state, tmp, treeHash, write } from './workspace';

describe('checkpoint store: Write and Edit', () => {
  it('restores a changed file, removes a created one (and the folder it made), and the restore can be undone', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const { store } = await openStore(ws);
    const cp = await store.begin('change things');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
    await store.track(join(ws, 'new/deep/b.txt'), 'Write', async () => write(ws, 'new/deep/b.txt', 'made\n'));
    const plan = await store.plan(cp.id);
    assert.deepEqual(
      plan.files.map((f) => [f.rel, f.action, f.added, f.removed, f.conflict]),
      [
        ['a.txt', 'modify', 1, 1, false],
        ['new/deep/b.txt', 'delete', 0, 1, false],
      ],
    );
    const done = await store.restore(plan);
    assert.deepEqual(done.restored.map((f) => f.rel), ['a.txt', 'new/deep/b.txt']);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(existsSync(join(ws, 'new')), false, 'the folders the session made went with the file');
    // Redo: the restore is a checkpoint of its own.
    assert.equal(done.checkpoint?.kind, 'restore');
    await store.restore(await store.plan(done.checkpoint!.id));
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'two\n');
    assert.equal(readFileSync(join(ws, 'new/deep/b.txt'), 'utf8'), 'made\n');
  });

  it('keeps one copy of the same content however often it is seen', async () => {
    const ws = await repo({ 'a.txt': 'same\n', 'b.txt': 'same\n' });
    const { store } = await openStore(ws);
    await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Write', async () => writeFileSync(join(ws, 'a.txt'), 'x\n'));
    await store.track(join(ws, 'b.txt'), 'Write', async () => writeFileSync(join(ws, 'b.txt'), 'x\n'));
    const usage = await store.usage();
    assert.equal(usage.blobs, 2, "'same' and 'x', once each");
  });

  it('survives a reopen: checkpoints and copies are on disk', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const { store, dir } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
    const again = await openStore(ws, {}, dir);
    assert.deepEqual(again.store.checkpoints.map((c) => c.id), [cp.id]);
    await again.store.restore(await again.store.plan(cp.id));
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
  });

  it('skips a torn last manifest line and keeps the rest', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const { store, dir } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
    appendFileSync(join(dir, MANIFEST_FILE), '{"t":"change","n":9,"cp":"');
    const again = await openStore(ws, {}, dir);
    assert.equal(again.skippedLines, 1);
    await again.store.begin('next');
    const reread = await openStore(ws, {}, dir);
    assert.equal(reread.skippedLines, 0, 'the torn line was cut, so the next record did not join it');
    assert.equal(reread.store.checkpoints.length, 2);
    await reread.store.restore(await reread.store.plan(cp.id));
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
  });

  it('keeps the newest checkpoints only, and the copies only they need', async () => {
    const ws = await repo({ 'a.txt': 'v0\n' });
    const { store } = await openStore(ws, { retention: 3 });
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      ids.push((await store.begin(`p${i}`)).id);
      await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), `v${i}\n`));
    }
    assert.deepEqual(store.checkpoints.map((c) => c.label), ['p3', 'p4', 'p5']);
    await assert.rejects(store.plan(ids[0]!), RestoreError);
    // v2..v5 are referenced (before and after of p3..p5); v0 and v1 are gone.
    assert.equal((await store.usage()).blobs, 4);
    await store.restore(await store.plan(ids[2]!));
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'v2\n');
  });
});

describe('checkpoint store: conflicts and links', () => {
  it('asks before overwriting a file the user changed after the agent, and keeps it if told to', async () => {
    const ws = await repo({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'agent\n'));
    await store.track(join(ws, 'b.txt'), 'Edit', async () => writeFileSync(join(ws, 'b.txt'), 'agent b\n'));
    writeFileSync(join(ws, 'a.txt'), 'user edit\n');
    const plan = await store.plan(cp.id);
    assert.deepEqual(plan.files.filter((f) => f.conflict).map((f) => f.rel), ['a.txt']);
    await assert.rejects(store.restore(plan), /a choice is needed for each.*a\.txt/);
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'agent b\n', 'nothing restored without the choice');
    const done = await store.restore(plan, { [join(ws, 'a.txt')]: 'keep' });
    assert.deepEqual(done.restored.map((f) => f.rel), ['b.txt']);
    assert.deepEqual(done.kept.map((f) => f.rel), ['a.txt']);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'user edit\n');
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'bee\n');
  });

  it('refuses a plan whose files changed since it was made, changing nothing', async () => {
    const ws = await repo({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'agent\n'));
    await store.track(join(ws, 'b.txt'), 'Edit', async () => writeFileSync(join(ws, 'b.txt'), 'agent b\n'));
    const plan = await store.plan(cp.id);
    writeFileSync(join(ws, 'b.txt'), 'late edit\n');
    await assert.rejects(store.restore(plan), /b\.txt changed since the restore was previewed/);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'agent\n');
  });

  it('replaces a link put where a file was, and never writes to where it points', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const outside = tmp('tl-cp-out-');
    write(outside, 'target.txt', 'outside\n');
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'agent\n'));
    const w = await store.beforeBash();
    unlinkSync(join(ws, 'a.txt'));
    symlinkSync(join(outside, 'target.txt'), join(ws, 'a.txt'));
    await store.afterBash(w);
    await store.restore(await store.plan(cp.id));
    assert.ok(state(join(ws, 'a.txt')).startsWith('file:'), 'the link itself was replaced by the file');
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(outside, 'target.txt'), 'utf8'), 'outside\n');
  });

  it('refuses a file with other hard links, and one whose folder became a link', async () => {
    const ws = await repo({ 'a.txt': 'one\n', 'd/b.txt': 'bee\n' });
    const outside = tmp('tl-cp-out-');
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'agent\n'));
    await store.track(join(ws, 'd/b.txt'), 'Edit', async () => writeFileSync(join(ws, 'd/b.txt'), 'agent b\n'));
    linkSync(join(ws, 'a.txt'), join(outside, 'other-name.txt'));
    renameSync(join(ws, 'd'), join(outside, 'd'));
    symlinkSync(join(outside, 'd'), join(ws, 'd'));
    const before = treeHash(outside);
    const plan = await store.plan(cp.id);
    assert.deepEqual(plan.files, []);
    assert.deepEqual(
      plan.refused.map((r) => [r.rel, /hard links/.test(r.why) ? 'hard' : /symbolic link/.test(r.why) ? 'link' : r.why]),
      [
        ['a.txt', 'hard'],
        ['d/b.txt', 'link'],
      ],
    );
    const done = await store.restore(plan);
    assert.deepEqual(done.restored, []);
    assert.equal(treeHash(outside), before);
  });

  it('keeps a change made through a link under the file it changed', async () => {
    const ws = await repo({ 'real.txt': 'one\n' });
    symlinkSync('real.txt', join(ws, 'alias.txt'));
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'alias.txt'), 'Write', async () => writeFileSync(join(ws, 'alias.txt'), 'two\n'));
    const plan = await store.plan(cp.id);
    assert.deepEqual(plan.files.map((f) => f.rel), ['real.txt']);
    await store.restore(plan);
    assert.equal(readFileSync(join(ws, 'real.txt'), 'utf8'), 'one\n');
    assert.equal(state(join(ws, 'alias.txt')), 'link:real.txt');
  });

  it("never restores inside .git, and leaves git's HEAD, index and refs alone", async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const head = git(ws, 'rev-parse', 'HEAD');
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, '.git/description'), 'Write', async () => writeFileSync(join(ws, '.git/description'), 'changed\n'));
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
    git(ws, 'add', 'a.txt');
    const index = readFileSync(join(ws, '.git/index'));
    const plan = await store.plan(cp.id);
    assert.deepEqual(plan.refused.map((r) => r.rel), ['.git/description']);
    await store.restore(plan);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(ws, '.git/description'), 'utf8'), 'changed\n');
    assert.deepEqual(readFileSync(join(ws, '.git/index')), index);
    assert.equal(git(ws, 'rev-parse', 'HEAD'), head);
  });

  it('undoes everything when a kept copy turns out damaged half way through', async () => {
    const ws = await repo({ 'a.txt': 'aaa\n', 'b.txt': 'bbb\n', 'c.txt': 'ccc\n' });
    const { store, dir } = await openStore(ws);
    const cp = await store.begin('p');
    for (const f of ['a.txt', 'b.txt', 'c.txt']) await store.track(join(ws, f), 'Edit', async () => writeFileSync(join(ws, f), `new ${f}\n`));
    const plan = await store.plan(cp.id);
    const c = plan.files.find((f) => f.rel === 'c.txt')!.target;
    assert.equal(c.k, 'file');
    if (c.k === 'file') writeFileSync(join(dir, 'blobs', c.h.slice(0, 2), c.h), 'damaged');
    const before = treeHash(ws);
    await assert.rejects(store.restore(plan), /the copy kept of .*c\.txt is damaged/);
    assert.equal(treeHash(ws), before, 'no file changed and no temp file is left');
    assert.equal(existsSync(join(dir, 'restore-journal.json')), false);
  });

  it('keeps a file mode through a restore', async () => {
    const ws = await repo({ 'run.sh': '#!/bin/sh\n' });
    chmodSync(join(ws, 'run.sh'), 0o755);
    const { store } = await openStore(ws);
    const cp = await store.begin('p');
    await store.track(join(ws, 'run.sh'), 'Write', async () => {
      rmSync(join(ws, 'run.sh'));
      writeFileSync(join(ws, 'run.sh'), 'echo\n', { mode: 0o644 });
    });
    await store.restore(await store.plan(cp.id));
    assert.equal(state(join(ws, 'run.sh')).split(':')[1], '755');
  });
});

describe('checkpoint store: session diff', () => {
  it('lists each changed file against its first copy, leaving out files changed back', async () => {
    const ws = await repo({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const { store } = await openStore(ws);
    await store.begin('p1');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\nthree\n'));
    await store.track(join(ws, 'b.txt'), 'Edit', async () => writeFileSync(join(ws, 'b.txt'), 'x\n'));
    await store.begin('p2');
    await store.track(join(ws, 'b.txt'), 'Edit', async () => writeFileSync(join(ws, 'b.txt'), 'bee\n'));
    await store.track(join(ws, 'c.txt'), 'Write', async () => writeFileSync(join(ws, 'c.txt'), 'sea\n'));
    const diff = await store.diff();
    assert.deepEqual(
      diff.map((d) => [d.rel, d.status, d.added, d.removed]),
      [
        ['a.txt', 'modified', 2, 1],
        ['c.txt', 'added', 1, 0],
      ],
    );
    const first = diff[0]!.before;
    assert.equal(first.k === 'file' && (await store.blob(first.h))?.toString(), 'one\n');
  });
});

describe('the store folder', () => {
  it('sets aside a journal it cannot read, changing no file, and drops copies no record needs', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const { store, dir } = await openStore(ws);
    await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
    writeFileSync(join(dir, 'restore-journal.json'), '{not json');
    write(dir, `blobs/ab/${'ab'.repeat(32)}`, 'orphan');
    const before = treeHash(ws);
    const again = await openStore(ws, {}, dir);
    assert.equal(again.recovered?.outcome, 'set-aside');
    assert.equal(treeHash(ws), before);
    assert.ok(readdirSync(dir).some((n) => n.startsWith('restore-journal.json.damaged-')));
    assert.equal(existsSync(join(dir, 'blobs', 'ab', 'ab'.repeat(32))), false);
    assert.equal((await again.store.usage()).blobs, 2);
  });

  it('holds a manifest and content-addressed blobs only', async () => {
    const ws = await repo({ 'a.txt': 'one\n' });
    const { store, dir } = await openStore(ws);
    await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Edit', async () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
    assert.deepEqual(readdirSync(dir).sort(), ['blobs', MANIFEST_FILE]);
    for (const shard of readdirSync(join(dir, 'blobs'))) for (const b of readdirSync(join(dir, 'blobs', shard))) assert.match(b, /^[0-9a-f]{64}$/);
  });
});
