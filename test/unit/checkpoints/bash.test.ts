import assert from 'node:assert/strict';
import { chmodSync, readFileSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NOT_RESTORABLE } from '../../../src/checkpoints/bash';
import { compareFingerprints, takeFingerprint, type Fingerprint } from '../../../src/checkpoints/fingerprint';
import { gitPreImages } from '../../../src/checkpoints/git';
import { openStore, repo, sleep, state, write } from './workspace';

for (const watch of [true, false]) describe(`Bash change detection (${watch ? 'folders watched' : 'tree walked'})`, () => {
  it("restores a committed file from git's copy, and names an untracked one it cannot restore", async () => {
    const ws = await repo({ 'clean.txt': 'committed\n' });
    write(ws, 'untracked.txt', 'mine\n');
    const { store } = await openStore(ws, { git: gitPreImages, watch });
    const cp = await store.begin('run a command');
    const w = await store.beforeBash();
    writeFileSync(join(ws, 'clean.txt'), 'rewritten\n');
    writeFileSync(join(ws, 'untracked.txt'), 'clobbered\n');
    const report = await store.afterBash(w);
    assert.deepEqual(
      report.changes.map((c) => [c.rel, c.kind, c.restorable]),
      [
        ['clean.txt', 'modified', true],
        ['untracked.txt', 'modified', false],
      ],
    );
    assert.equal(report.changes[1]!.why, NOT_RESTORABLE);
    const plan = await store.plan(cp.id);
    assert.deepEqual(plan.refused.map((r) => [r.rel, r.why]), [['untracked.txt', NOT_RESTORABLE]]);
    const done = await store.restore(plan);
    assert.deepEqual(done.restored.map((f) => f.rel), ['clean.txt'], 'a restore never claims a file it did not restore');
    assert.equal(readFileSync(join(ws, 'clean.txt'), 'utf8'), 'committed\n');
    assert.equal(readFileSync(join(ws, 'untracked.txt'), 'utf8'), 'clobbered\n');
  });

  it("does not trust git's copy of a file its index calls clean in the same instant it was written (racily clean)", async () => {
    const ws = await repo({ 'clean.txt': 'committed\n' });
    // An index older than the file's entry: git itself would compare the content again.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(ws, '.git', 'index'), past, past);
    const { store } = await openStore(ws, { git: gitPreImages, watch });
    await store.begin('p');
    const w = await store.beforeBash();
    writeFileSync(join(ws, 'clean.txt'), 'rewritten\n');
    assert.deepEqual((await store.afterBash(w)).changes.map((c) => [c.rel, c.restorable]), [['clean.txt', false]]);
  });

  it('does not read git without the trusted-folder reader', async () => {
    const ws = await repo({ 'clean.txt': 'committed\n' });
    const { store } = await openStore(ws, { watch });
    await store.begin('p');
    const w = await store.beforeBash();
    writeFileSync(join(ws, 'clean.txt'), 'rewritten\n');
    const report = await store.afterBash(w);
    assert.deepEqual(report.changes.map((c) => [c.rel, c.restorable]), [['clean.txt', false]]);
  });

  it('restores what the agent last left in a file a command then changed, deleted or renamed', async () => {
    const ws = await repo({});
    const { store } = await openStore(ws, { watch });
    await store.begin('write');
    await store.track(join(ws, 'a.txt'), 'Write', async () => write(ws, 'a.txt', 'agent a\n'));
    await store.track(join(ws, 'b.txt'), 'Write', async () => write(ws, 'b.txt', 'agent b\n'));
    await store.track(join(ws, 'c.txt'), 'Write', async () => write(ws, 'c.txt', 'agent c\n'));
    const cp = await store.begin('run');
    const w = await store.beforeBash();
    writeFileSync(join(ws, 'a.txt'), 'bash a\n');
    unlinkSync(join(ws, 'b.txt'));
    renameSync(join(ws, 'c.txt'), join(ws, 'moved.txt'));
    write(ws, 'made.txt', 'bash made\n');
    const report = await store.afterBash(w);
    assert.deepEqual(
      report.changes.map((c) => [c.rel, c.kind, c.restorable]),
      [
        ['a.txt', 'modified', true],
        ['b.txt', 'deleted', true],
        ['c.txt', 'deleted', true],
        ['made.txt', 'created', true],
        ['moved.txt', 'created', true],
      ],
    );
    await store.restore(await store.plan(cp.id));
    assert.deepEqual(
      ['a.txt', 'b.txt', 'c.txt', 'made.txt', 'moved.txt'].map((f) => state(join(ws, f)).replace(/^file:\d+:/, '')),
      [Buffer.from('agent a\n').toString('base64'), Buffer.from('agent b\n').toString('base64'), Buffer.from('agent c\n').toString('base64'), 'absent', 'absent'],
    );
  });

  it('does not count a touch that leaves the bytes as they were', async () => {
    const ws = await repo({});
    const { store } = await openStore(ws, { watch });
    await store.begin('p');
    await store.track(join(ws, 'a.txt'), 'Write', async () => write(ws, 'a.txt', 'same\n'));
    const w = await store.beforeBash();
    const later = new Date(Date.now() + 5000);
    utimesSync(join(ws, 'a.txt'), later, later);
    assert.deepEqual((await store.afterBash(w)).changes, []);
  });

  it('looks past ignored files, node_modules and .git', async () => {
    const ws = await repo({ '.gitignore': 'dist/\n*.log\n' });
    const { store } = await openStore(ws, { watch });
    await store.begin('p');
    const w = await store.beforeBash();
    write(ws, 'dist/out.js', 'x');
    write(ws, 'debug.log', 'x');
    write(ws, 'node_modules/p/index.js', 'x');
    write(ws, '.git/x', 'x');
    write(ws, 'src/kept.ts', 'x');
    assert.deepEqual((await store.afterBash(w)).changes.map((c) => c.rel), ['src/kept.ts']);
  });

  it('says once that a workspace too big is not tracked, and stops walking it', async () => {
    const ws = await repo({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    const { store } = await openStore(ws, { fingerprint: { maxFiles: 2, maxMs: 5000 }, watch });
    await store.begin('p');
    const first = await store.afterBash(await store.beforeBash());
    assert.match(first.notice ?? '', /not tracked in this workspace: it has more than 2 files/);
    const second = await store.afterBash(await store.beforeBash());
    assert.equal(second.notice, undefined, 'said once');
    assert.ok(second.off);
  });

  it('does not count what changed between commands, and finds folders a command made, moved and removed', async () => {
    const ws = await repo({ 'd/one.txt': 'one\n', 'keep/k.txt': 'k\n' });
    const { store } = await openStore(ws, { watch });
    await store.begin('p');
    assert.deepEqual((await store.afterBash(await store.beforeBash())).changes, []);
    writeFileSync(join(ws, 'keep/k.txt'), 'the user typed this\n');
    const w = await store.beforeBash();
    write(ws, 'made/deep/n.txt', 'new\n');
    renameSync(join(ws, 'd'), join(ws, 'moved'));
    rmSync(join(ws, 'keep'), { recursive: true });
    const report = await store.afterBash(w);
    assert.deepEqual(
      report.changes.map((c) => [c.rel, c.kind]),
      [
        ['d/one.txt', 'deleted'],
        ['keep/k.txt', 'deleted'],
        ['made/deep/n.txt', 'created'],
        ['moved/one.txt', 'created'],
      ],
    );
    // The next command sees the tree as this one left it.
    const w2 = await store.beforeBash();
    writeFileSync(join(ws, 'made/deep/n.txt'), 'changed\n');
    assert.deepEqual((await store.afterBash(w2)).changes.map((c) => [c.rel, c.kind, c.restorable]), [['made/deep/n.txt', 'modified', true]]);
  });

  it('tells what a command that changes more files than a watch is trusted with changed', async () => {
    const ws = await repo({ 'a.txt': 'a\n' });
    const { store } = await openStore(ws, { watch, git: gitPreImages, fingerprint: { maxFiles: 10_000, maxMs: 10_000, maxEvents: 100 } });
    await store.begin('p');
    const w = await store.beforeBash();
    for (let i = 0; i < 300; i++) write(ws, `gen/f${i % 10}/g${i}.txt`, `${i}\n`);
    writeFileSync(join(ws, 'a.txt'), 'changed\n');
    const report = await store.afterBash(w);
    assert.equal(report.changes.length, 301);
    assert.deepEqual(report.changes[0], { path: join(ws, 'a.txt'), rel: 'a.txt', kind: 'modified', restorable: true });
    const w2 = await store.beforeBash();
    unlinkSync(join(ws, 'gen/f3/g3.txt'));
    assert.deepEqual((await store.afterBash(w2)).changes.map((c) => [c.rel, c.kind]), [['gen/f3/g3.txt', 'deleted']]);
  });

  it('keeps a changed mode as a change', async () => {
    const ws = await repo({});
    const { store } = await openStore(ws, { watch });
    await store.begin('p');
    await store.track(join(ws, 'run.sh'), 'Write', async () => write(ws, 'run.sh', 'echo\n'));
    const cp = await store.begin('chmod');
    const w = await store.beforeBash();
    chmodSync(join(ws, 'run.sh'), 0o700);
    assert.deepEqual((await store.afterBash(w)).changes.map((c) => [c.rel, c.restorable]), [['run.sh', true]]);
    await store.restore(await store.plan(cp.id));
    assert.equal(state(join(ws, 'run.sh')).split(':')[1], '644');
  });
});

describe('fingerprints', () => {
  it('hash a file written just before the walk, so a same-size rewrite in the same clock tick still shows', async () => {
    const ws = await repo({ 'old.txt': 'old' });
    await sleep(250);
    write(ws, 'fresh.txt', 'aaaa');
    const r = await takeFingerprint(ws);
    assert.ok(r.ok);
    const fp = r.fp;
    assert.equal(fp.entries.get('old.txt')!.hash, undefined, 'a file older than the racy window is known by its stat');
    assert.ok(fp.entries.get('fresh.txt')!.hash, 'a fresh one by its content too');
    // The same stat with other bytes (what a filesystem with a coarse clock can show).
    const after: Fingerprint = { ...fp, entries: new Map([...fp.entries].map(([k, v]) => [k, k === 'fresh.txt' ? { ...v, hash: 'b'.repeat(64) } : v])) };
    assert.deepEqual(compareFingerprints(fp, after), { created: [], deleted: [], modified: ['fresh.txt'] });
  });

  it('report a link by its text, not by where it leads', async () => {
    const ws = await repo({});
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/nonexistent/target', join(ws, 'dangling'));
    const r = await takeFingerprint(ws);
    assert.ok(r.ok);
    assert.equal(r.fp.entries.get('dangling')!.link, '/nonexistent/target');
  });
});
