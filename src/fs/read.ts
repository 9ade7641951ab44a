// Reading a file's bytes: regular files only, opened without blocking, never more than a cap.
// A repository decides what its paths are, so any of them may be a FIFO (an open that waits for
// a writer for ever, in one of the four pool threads every file operation of the host shares),
// a link to /dev/zero (a read that never ends), or a few gigabytes of one line.
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import { isOwnProcessFile } from './ownProcess';

export type ReadFailure = 'missing' | 'folder' | 'not-regular' | 'too-large' | 'unreadable';

export type RegularFileRead = { ok: true; bytes: Buffer } | { ok: false; reason: ReadFailure; error?: NodeJS.ErrnoException };

export type CappedRead = { ok: true; bytes: Buffer; capped: boolean; size: number } | { ok: false; reason: Exclude<ReadFailure, 'too-large'>; error?: NodeJS.ErrnoException };

export interface Caps {
  maxBytes: number;
  /** Keep at most this many lines (the rest is cut as bytes beyond the cap are). */
  maxLines?: number;
}

/** Our own state files (indexes, notes, caches): far below this; anything bigger is not ours. */
const STATE_FILE_MAX_BYTES = 32 * 1024 * 1024;

// O_NONBLOCK: the open of a FIFO returns at once instead of waiting for a writer; the type check
// on the open handle then turns it away. On a regular file the flag changes nothing.
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Why a file of the agent's own processes is refused (see ownProcess.ts). */
export const ownProcessRefusal = (): NodeJS.ErrnoException => new Error("it is a file of the agent's own processes (/proc), which holds its environment and key: never read");

function openFailure(e: unknown): { ok: false; reason: Exclude<ReadFailure, 'too-large'>; error: NodeJS.ErrnoException } {
  const error = e as NodeJS.ErrnoException;
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { ok: false, reason: 'missing', error };
  if (error.code === 'EISDIR') return { ok: false, reason: 'folder', error };
  // A socket cannot be opened at all.
  if (error.code === 'ENXIO') return { ok: false, reason: 'not-regular', error };
  return { ok: false, reason: 'unreadable', error };
}

const CHUNK = 64 * 1024;

/** The whole file and one byte more in the first read (the usual case: one read, then end of file); then chunks. */
const pieceSize = (size: number, total: number, maxBytes: number) => Math.min(total === 0 ? size + 1 : CHUNK, maxBytes + 1 - total);

/**
 * Reads from offset 0 until the end or one byte past `maxBytes`, in pieces sized by the file's
 * stat (a size of 0, as /proc files report, or a file that grew, is read on in chunks).
 */
async function readUpTo(read: (buf: Buffer, at: number) => Promise<number>, size: number, maxBytes: number): Promise<{ bytes: Buffer; total: number }> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const buf = Buffer.allocUnsafe(pieceSize(size, total, maxBytes));
    const n = await read(buf, total);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    total += n;
    // A short read once the size the file reported is in is its end: no second call to be told so.
    // (A file reporting size 0, as /proc files do, is read until a read returns nothing.)
    if (n < buf.length && size > 0 && total >= size) break;
  }
  return { bytes: Buffer.concat(chunks, total), total };
}

/** Cuts `bytes` after its `maxLines`-th newline; whether it cut. */
function firstLines(bytes: Buffer, maxLines: number | undefined): { bytes: Buffer; cut: boolean } {
  if (maxLines === undefined) return { bytes, cut: false };
  let at = -1;
  for (let n = 0; n < maxLines; n++) {
    at = bytes.indexOf(0x0a, at + 1);
    if (at < 0) return { bytes, cut: false };
  }
  return at + 1 < bytes.length ? { bytes: bytes.subarray(0, at + 1), cut: true } : { bytes, cut: false };
}

/**
 * Up to `caps.maxBytes` of a regular file (and `caps.maxLines` lines), saying whether it was cut.
 * The type is checked on the open handle, so a path swapped for a FIFO after a stat cannot slip
 * in; the size is counted by what is read, so a file that grows, or a /proc file reporting size
 * 0, is capped all the same.
 */
export async function readCapped(abs: string, caps: Caps): Promise<CappedRead> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(abs, READ_FLAGS);
  } catch (e) {
    return openFailure(e);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) return { ok: false, reason: 'folder' };
    if (!st.isFile()) return { ok: false, reason: 'not-regular' };
    if (isOwnProcessFile(abs, st)) return { ok: false, reason: 'unreadable', error: ownProcessRefusal() };
    const { bytes: all, total } = await readUpTo((buf, at) => handle.read(buf, 0, buf.length, at).then((r) => r.bytesRead), st.size, caps.maxBytes);
    const over = total > caps.maxBytes;
    const lines = firstLines(all.subarray(0, Math.min(total, caps.maxBytes)), caps.maxLines);
    return { ok: true, bytes: lines.bytes, capped: over || lines.cut || st.size > caps.maxBytes, size: Math.max(st.size, total) };
  } catch (e) {
    return { ok: false, reason: 'unreadable', error: e as NodeJS.ErrnoException };
  } finally {
    await handle.close();
  }
}

/**
 * The same, synchronously: for callers that must decide inside a synchronous callback (the walk's
 * folder filter reads each folder's .gitignore). Bounded by the cap, and it never blocks on a FIFO.
 */
export function readCappedSync(abs: string, caps: Caps): CappedRead {
  let fd: number;
  try {
    fd = openSync(abs, READ_FLAGS);
  } catch (e) {
    return openFailure(e);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { ok: false, reason: 'folder' };
    if (!st.isFile()) return { ok: false, reason: 'not-regular' };
    if (isOwnProcessFile(abs, st)) return { ok: false, reason: 'unreadable', error: ownProcessRefusal() };
    const chunks: Buffer[] = [];
    let total = 0;
    // One byte past the cap tells a file longer than it; a size of 0 (/proc) or a file that grew
    // is read on in chunks, still never past the cap.
    while (total <= caps.maxBytes) {
      const buf = Buffer.allocUnsafe(pieceSize(st.size, total, caps.maxBytes));
      const n = readSync(fd, buf, 0, buf.length, total);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (n < buf.length && st.size > 0 && total >= st.size) break;
    }
    const all = Buffer.concat(chunks, total);
    const lines = firstLines(all.subarray(0, Math.min(total, caps.maxBytes)), caps.maxLines);
    return { ok: true, bytes: lines.bytes, capped: total > caps.maxBytes || lines.cut || st.size > caps.maxBytes, size: Math.max(st.size, total) };
  } catch (e) {
    return { ok: false, reason: 'unreadable', error: e as NodeJS.ErrnoException };
  } finally {
    closeSync(fd);
  }
}

/** A whole regular file of at most `maxBytes`; a longer one is refused (`too-large`), not cut. */
export async function readRegularFile(abs: string, maxBytes: number): Promise<RegularFileRead> {
  const r = await readCapped(abs, { maxBytes });
  if (!r.ok) return r;
  if (r.capped) return { ok: false, reason: 'too-large' };
  return { ok: true, bytes: r.bytes };
}

/**
 * The text of one of Threadline's own small files (an index, a note, a cache), or undefined when
 * it is missing, not a regular file, unreadable or bigger than any such file is.
 */
export async function readStateText(abs: string, maxBytes = STATE_FILE_MAX_BYTES): Promise<string | undefined> {
  const r = await readRegularFile(abs, maxBytes);
  return r.ok ? r.bytes.toString('utf8') : undefined;
}

/** The same, with the failure kept (for a caller that reports it). */
export async function readStateFile(abs: string, maxBytes = STATE_FILE_MAX_BYTES): Promise<{ ok: true; text: string } | { ok: false; reason: ReadFailure; message: string }> {
  const r = await readRegularFile(abs, maxBytes);
  if (r.ok) return { ok: true, text: r.bytes.toString('utf8') };
  return { ok: false, reason: r.reason, message: r.error?.message ?? describeFailure(r.reason) };
}

/** The first `bytes` bytes of a regular file (a binary sniff); throws for anything else. */
export async function readHead(abs: string, bytes = 8192): Promise<Buffer> {
  const r = await readCapped(abs, { maxBytes: bytes });
  if (!r.ok) throw r.error ?? Object.assign(new Error(`${abs}: ${describeFailure(r.reason)}`), { code: r.reason === 'missing' ? 'ENOENT' : undefined });
  return r.bytes;
}

/** A failure in words, for messages. */
function describeFailure(reason: ReadFailure): string {
  switch (reason) {
    case 'missing':
      return 'no such file';
    case 'folder':
      return 'it is a folder';
    case 'not-regular':
      return 'not a regular file (a FIFO, socket or device)';
    case 'too-large':
      return 'larger than allowed';
    case 'unreadable':
      return 'unreadable';
  }
}
