import { constants, promises as fs } from 'node:fs';

export type RegularFileRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'missing' | 'folder' | 'not-regular' | 'too-large' | 'unreadable'; error?: NodeJS.ErrnoException };

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever, holding
// one of libuv's four pool threads that every file operation of the host shares. On a regular
// file the flag changes nothing.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a whole file that must be a regular one (not a FIFO, socket, device or folder) of at
 * most `maxBytes`. The type is checked on the open handle, so a path swapped after a stat
 * cannot slip a FIFO in; the size is checked by what is read, so a file that grows, or one
 * that reports size 0 as /proc files do, is still capped.
 */
export async function readRegularFile(abs: string, maxBytes: number): Promise<RegularFileRead> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(abs, OPEN_FLAGS);
  } catch (e) {
    const error = e as NodeJS.ErrnoException;
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { ok: false, reason: 'missing', error };
    if (error.code === 'EISDIR') return { ok: false, reason: 'folder', error };
    // A socket cannot be opened at all (ENXIO).
    if (error.code === 'ENXIO') return { ok: false, reason: 'not-regular', error };
    return { ok: false, reason: 'unreadable', error };
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) return { ok: false, reason: 'folder' };
    if (!st.isFile()) return { ok: false, reason: 'not-regular' };
    if (st.size > maxBytes) return { ok: false, reason: 'too-large' };
    const chunks: Buffer[] = [];
    let total = 0;
    // One byte past the cap tells a file that grew since the stat.
    while (total <= maxBytes) {
      const buf = Buffer.alloc(Math.min(Math.max(st.size - total, 64 * 1024), maxBytes + 1 - total));
      const { bytesRead } = await handle.read(buf, 0, buf.length, total);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > maxBytes) return { ok: false, reason: 'too-large' };
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (e) {
    return { ok: false, reason: 'unreadable', error: e as NodeJS.ErrnoException };
  } finally {
    await handle.close();
  }
}
