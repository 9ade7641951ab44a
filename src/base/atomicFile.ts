import { randomBytes } from 'node:crypto';
import { promises as fs, constants } from 'node:fs';
import { dirname, join, basename } from 'node:path';

/**
 * Replaces a file so that readers see the old content or the new, never a mix, and a
 * kill at any point leaves one of them whole: write a temp file beside it, fsync, rename.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await fs.mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

export interface LockOptions {
  /** A lock older than this is presumed left by a crashed writer. */
  staleMs?: number;
  /** Give up after this long. */
  timeoutMs?: number;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A cross-process lock: a lockfile created with O_EXCL holding our pid. Two editor windows
 * (two extension hosts) serialise through it. Stale locks (dead pid, or too old) are broken.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const staleMs = opts.staleMs ?? 10_000;
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  await fs.mkdir(dirname(lockPath), { recursive: true });
  let delay = 5;
  for (;;) {
    try {
      const h = await fs.open(lockPath, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
      await h.writeFile(`${process.pid} ${Date.now()}`);
      await h.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await fs.readFile(lockPath, 'utf8').catch(() => '');
      const [pidText, atText] = holder.split(' ');
      const pid = Number(pidText);
      const at = Number(atText);
      const stale = (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) || (Number.isFinite(at) && Date.now() - at > staleMs);
      if (stale) {
        await fs.rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the lock ${lockPath} (held by ${holder || 'unknown'})`, { cause: err });
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(100, delay * 2);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockPath, { force: true });
  }
}
