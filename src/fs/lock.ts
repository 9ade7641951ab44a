// Cross-process locks over files shared by editor windows and CLI runs.
import * as nodeFs from 'node:fs';
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { lock } from 'proper-lockfile';
import { makeFolder } from './write';

export interface LockOptions {
  /** A lock not refreshed for this long is presumed left by a crashed writer (at least 2 s). */
  staleMs?: number;
  /** Give up after this long. */
  timeoutMs?: number;
}

type Callback = (err: NodeJS.ErrnoException | null) => void;

/** Lock folders this process is releasing: their removal needs no staleness check. */
const releasing = new Set<string>();
const staleLimits = new Map<string, number>();

const lockError = (path: string): NodeJS.ErrnoException => Object.assign(new Error(`Lock file is already being held: ${path}`), { code: 'ELOCKED' });

/**
 * proper-lockfile removes a stale lock with stat-then-rmdir, so two waiters that both saw it
 * stale can remove each other's fresh lock and both hold it (its issue #121). Here a stale
 * lock is removed only under a second mkdir lock, after checking again that it is still
 * stale; a waiter that loses gets ELOCKED and retries.
 */
export function removeIfStale(path: string, staleMs: number, callback: Callback): void {
  const guard = `${path}.reclaim`;
  nodeFs.mkdir(guard, (err) => {
    if (err) {
      if (err.code !== 'EEXIST') return callback(err);
      // A reclaimer that crashed inside these few system calls: its guard goes after a while.
      return nodeFs.stat(guard, (statErr, st) => {
        if (!statErr && st.mtimeMs < Date.now() - staleMs) nodeFs.rmdir(guard, () => callback(lockError(path)));
        else callback(lockError(path));
      });
    }
    const done = (result: NodeJS.ErrnoException | null) => nodeFs.rmdir(guard, () => callback(result));
    nodeFs.stat(path, (statErr, st) => {
      if (statErr) return done(statErr.code === 'ENOENT' ? null : statErr);
      if (st.mtimeMs >= Date.now() - staleMs) return done(lockError(path));
      nodeFs.rmdir(path, (rmErr) => done(rmErr && rmErr.code !== 'ENOENT' ? rmErr : null));
    });
  });
}

/** proper-lockfile's rmdir: a release removes our own lock; anything else is a stale takeover. */
function lockFolderRmdir(path: string, callback: Callback): void {
  const stale = staleLimits.get(path);
  if (releasing.has(path) || stale === undefined) nodeFs.rmdir(path, callback);
  else removeIfStale(path, stale, callback);
}

const lockFs = { ...nodeFs, rmdir: lockFolderRmdir };

/**
 * A cross-process lock (proper-lockfile: a lock folder made with mkdir, its mtime refreshed
 * while held). Two editor windows (two extension hosts) and CLI runs serialise through it.
 * A lock whose holder died is taken over once it has not been refreshed for `staleMs`.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const stale = Math.max(2000, opts.staleMs ?? 10_000);
  // Waiting must outlast a crashed holder's lock going stale.
  const timeoutMs = opts.timeoutMs ?? stale + 10_000;
  await makeFolder(dirname(lockPath));
  await removeLegacyLock(lockPath);
  staleLimits.set(lockPath, stale);
  let lost: Error | undefined;
  const deadline = Date.now() + timeoutMs;
  let release: () => Promise<void>;
  for (let delay = 5; ; delay = Math.min(100, delay * 2)) {
    try {
      release = await lock(lockPath, { lockfilePath: lockPath, realpath: false, stale, fs: lockFs, onCompromised: (err) => (lost = err) });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}`, { cause: err });
      await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random())));
    }
  }
  let result: T;
  try {
    result = await fn();
  } finally {
    releasing.add(lockPath);
    try {
      // A compromised lock is already released; there is nothing of ours to remove.
      if (!lost) await release();
    } finally {
      releasing.delete(lockPath);
    }
  }
  if (lost) throw new Error(`The lock ${lockPath} was lost while held (the process stalled longer than ${stale} ms)`, { cause: lost });
  return result;
}

/** Threadline 0.1 locked with a plain file at the same path; one left behind would block mkdir forever. */
async function removeLegacyLock(lockPath: string): Promise<void> {
  const st = await fs.lstat(lockPath).catch(() => undefined);
  if (st?.isFile()) await fs.rm(lockPath, { force: true });
}
