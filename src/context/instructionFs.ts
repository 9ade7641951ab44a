import { constants, promises as fs } from 'node:fs';
import { join } from 'node:path';

export const MAX_FILE_BYTES = 512 * 1024;

export type ReadOutcome = { text: string; capped: boolean } | { skip: 'missing' | 'unreadable' | 'binary' | 'not-a-file' };

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever (and hold a
// thread of the pool); with it the open returns at once and the stat below turns it away.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads an instruction file: regular files only (a FIFO, socket, device or folder named
 * CLAUDE.md is skipped, never opened for a blocking read), at most MAX_FILE_BYTES of it.
 */
export async function readInstructionFile(p: string): Promise<ReadOutcome> {
  try {
    const st = await fs.stat(p);
    if (!st.isFile()) return { skip: 'not-a-file' };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { skip: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable' };
  }
  let handle;
  try {
    handle = await fs.open(p, OPEN_FLAGS);
  } catch (e) {
    return { skip: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
  try {
    // Checked again on the open file: the path may have been swapped since the stat.
    const st = await handle.stat();
    if (!st.isFile()) return { skip: 'not-a-file' };
    const buf = Buffer.alloc(Math.min(st.size, MAX_FILE_BYTES));
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = buf.subarray(0, filled);
    if (bytes.subarray(0, 8192).includes(0)) return { skip: 'binary' };
    return { text: bytes.toString('utf8'), capped: st.size > MAX_FILE_BYTES };
  } catch {
    return { skip: 'unreadable' };
  } finally {
    await handle.close();
  }
}

export async function realpathOf(p: string): Promise<string | undefined> {
  return fs.realpath(p).catch(() => undefined);
}

export async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

/**
 * The `.md` files under a rules folder, sorted, following symlinked files and folders (each
 * real folder walked once, so a link loop ends). Entries that are not regular files once
 * resolved are left to the reader, which reports them.
 */
export async function listRules(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visited = new Set<string>();
  const walk = async (d: string) => {
    const real = await realpathOf(d);
    if (!real || visited.has(real)) return;
    visited.add(real);
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) isDir = await fs.stat(p).then((st) => st.isDirectory(), () => false);
      if (isDir) await walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  await walk(dir);
  return out;
}
