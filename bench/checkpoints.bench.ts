import { execFileSync } from 'node:child_process';
import { promises as fs, mkdirSync, mkdtempSync, realpathSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashOf } from '../src/checkpoints/blobs';
import { takeFingerprint } from '../src/checkpoints/fingerprint';
import { gitPreImages } from '../src/checkpoints/git';
import { CheckpointStore } from '../src/checkpoints/store';
import { median, percentile } from './stats';

const FILES = 50_000;
const SMALL = 100;

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const body = (n: number, v = 0) => Array.from({ length: 40 }, (_, k) => `export const value${n}_${k} = ${k + v}; // a line of source code\n`).join('');

/** `files` source files in folders of 100, committed to git (so Bash changes can be undone from it). */
function makeRepo(files: number): string {
  const root = tmp('tl-bench-cp-');
  for (let d = 0; d < files / 100; d++) {
    const dir = join(root, 'src', `mod${Math.floor(d / 25)}`, `part${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `file${f}.ts`), body(d * 100 + f));
  }
  writeFileSync(join(root, '.gitignore'), 'dist/\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=b@example.invalid', '-c', 'user.name=b', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'initial');
  return root;
}

const fileAt = (root: string, n: number) => join(root, 'src', `mod${Math.floor(Math.floor(n / 100) / 25)}`, `part${Math.floor(n / 100)}`, `file${n % 100}.ts`);

/** Time of capture + settle around an Edit of `edits` files, each its own sample (the write itself excluded). */
async function editCost(root: string, edits: number, files: number): Promise<number[]> {
  const { store } = await CheckpointStore.open({ dir: tmp('tl-bench-cp-store-'), workspace: root });
  await store.begin('bench');
  const ms: number[] = [];
  for (let i = 0; i < edits; i++) {
    const path = fileAt(root, (i * 7919) % files);
    const t0 = performance.now();
    const ticket = await store.capture(path, 'Edit');
    const t1 = performance.now();
    await fs.writeFile(path, body(i, 1));
    const t2 = performance.now();
    await store.settle(ticket);
    ms.push(t1 - t0 + (performance.now() - t2));
  }
  return ms;
}

/** One watch per folder (what a watcher of the tree would hold): the time to set them up. */
async function watcherSetupMs(root: string): Promise<{ ms: number; dirs: number }> {
  const t0 = performance.now();
  const dirs = [root];
  for (let i = 0; i < dirs.length; i++) {
    for (const e of await fs.readdir(dirs[i]!, { withFileTypes: true })) if (e.isDirectory() && e.name !== '.git') dirs.push(join(dirs[i]!, e.name));
  }
  const watchers: FSWatcher[] = dirs.map((d) => watch(d));
  const ms = performance.now() - t0;
  for (const w of watchers) w.close();
  return { ms, dirs: dirs.length };
}

/**
 * Code checkpoints on a 50,000-file repository: what keeping a file's copy adds to a Write or
 * Edit (and the same on a 100-file one: it must not grow with the repository), starting a
 * checkpoint (no walk of the tree), Bash change detection per command (watched and walked; and
 * what watching every folder takes to set up), and the disk a benchmark session takes against
 * the distinct copies it keeps.
 */
export async function benchCheckpoints(): Promise<Record<string, number>> {
  const small = makeRepo(SMALL);
  const smallMs = await editCost(small, 100, SMALL);
  const root = makeRepo(FILES);
  const largeMs = await editCost(root, 200, FILES);

  const { store } = await CheckpointStore.open({ dir: tmp('tl-bench-cp-store-'), workspace: root, git: gitPreImages });
  const beginMs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await store.begin(`prompt ${i}`);
    beginMs.push(performance.now() - t0);
  }

  // A command that changes three committed files: detection before and after, and git's copies.
  // Watched (the default where folder watches are reliable; the first command starts the watch),
  // and walked (elsewhere, or as the fallback).
  const command = async (s: CheckpointStore, i: number) => {
    const t0 = performance.now();
    const w = await s.beforeBash();
    const t1 = performance.now();
    for (let k = 0; k < 3; k++) await fs.writeFile(fileAt(root, 30_000 + (i % 500) * 3 + k), body(i, 2));
    const t2 = performance.now();
    const report = await s.afterBash(w);
    if (report.off) throw new Error(`Bash tracking went off: ${report.off}`);
    return { ms: t1 - t0 + (performance.now() - t2), restorable: report.changes.filter((c) => c.restorable).length, changes: report.changes.length };
  };
  const watchedMs: number[] = [];
  let restorable = 0;
  let changes = 0;
  const firstCommand = await command(store, 0);
  for (let i = 1; i <= 10; i++) {
    const r = await command(store, i);
    watchedMs.push(r.ms);
    restorable += r.restorable;
    changes += r.changes;
  }
  store.dispose();
  const walker = await CheckpointStore.open({ dir: tmp('tl-bench-cp-store-'), workspace: root, git: gitPreImages, watch: false });
  await walker.store.begin('walked');
  const walkedMs: number[] = [];
  for (let i = 11; i <= 17; i++) walkedMs.push((await command(walker.store, i)).ms);
  const fp = await takeFingerprint(root);
  const watcher = await watcherSetupMs(root);

  // A benchmark session: 100 prompts, each editing 3 of 60 files a little, plus a command.
  const session = await CheckpointStore.open({ dir: tmp('tl-bench-cp-store-'), workspace: root, git: gitPreImages });
  const distinct = new Map<string, number>();
  const content = new Map<number, string>();
  for (let p = 0; p < 100; p++) {
    await session.store.begin(`prompt ${p}`);
    for (let k = 0; k < 3; k++) {
      const n = 40_000 + ((p * 3 + k) * 7) % 60;
      const path = fileAt(root, n);
      const before = content.get(n) ?? (await fs.readFile(path, 'utf8'));
      distinct.set(hashOf(Buffer.from(before)), Buffer.byteLength(before));
      const next = before.replace(/= (\d+);/, (_m, d: string) => `= ${Number(d) + 1};`);
      content.set(n, next);
      await session.store.track(path, 'Edit', () => fs.writeFile(path, next));
    }
  }
  const usage = await session.store.usage();
  const preImageBytes = [...distinct.values()].reduce((a, b) => a + b, 0);
  const first = session.store.checkpoints[0]!;
  const t0 = performance.now();
  const done = await session.store.restore(await session.store.plan(first.id));
  const restoreMs = performance.now() - t0;

  return {
    files: FILES,
    capturePerEditMedianMs: +median(largeMs).toFixed(2),
    capturePerEditP95Ms: +percentile(largeMs, 0.95).toFixed(2),
    capturePerEditSmallRepoMedianMs: +median(smallMs).toFixed(2),
    captureLargeOverSmall: +(median(largeMs) / median(smallMs)).toFixed(2),
    beginCheckpointMedianMs: +median(beginMs).toFixed(2),
    bashDetectMedianMs: Math.round(median(watchedMs)),
    bashDetectP95Ms: Math.round(percentile(watchedMs, 0.95)),
    bashFirstCommandMs: Math.round(firstCommand.ms),
    bashDetectWalkedMedianMs: Math.round(median(walkedMs)),
    fingerprintFiles: fp.ok ? fp.fp.entries.size : -1,
    bashChangesRestorableShare: +(restorable / changes).toFixed(2),
    watchSetupMs: Math.round(watcher.ms),
    watchDirs: watcher.dirs,
    sessionDiskBytes: usage.blobBytes + usage.manifestBytes,
    sessionDistinctPreImageBytes: preImageBytes,
    sessionDiskOverPreImages: +((usage.blobBytes + usage.manifestBytes) / preImageBytes).toFixed(2),
    sessionRestoreFiles: done.restored.length,
    sessionRestoreMs: Math.round(restoreMs),
  };
}
