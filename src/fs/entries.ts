// Entries taken exactly as they are, for code checkpoints: a link is read and restored as a link,
// never followed; a file's bytes and mode are kept whole. Part of the gate because checkpoints
// copy whatever a workspace holds (FIFOs, links out of it, huge files) and write into it: the same
// rules (no blocking open, regular files only, a size cap) hold here. Nothing opens an existing
// path for writing: new content is always written to a fresh name (O_EXCL) and renamed into
// place, so no write lands through a symbolic link or on the other names of a hard link.
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { isOwnProcessFile } from './ownProcess';
import { ownProcessRefusal, readCapped } from './read';
import { isPrivatePath, makeFolder } from './write';

export type EntryKind = 'file' | 'symlink' | 'dir' | 'other';

/** What lstat says of a path, in the few fields checkpoints use. */
export interface Entry {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Permission bits and file type, as st_mode. */
  mode: number;
  nlink: number;
}

const S_IFMT = 0o170000;
export function kindOfMode(mode: number): EntryKind {
  switch (mode & S_IFMT) {
    case 0o100000:
      return 'file';
    case 0o120000:
      return 'symlink';
    case 0o040000:
      return 'dir';
    default:
      return 'other';
  }
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

function entryOf(st: { size: number; mtimeMs: number; ctimeMs: number; ino: number; mode: number; nlink: number }): Entry {
  return { kind: kindOfMode(st.mode), size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode, nlink: st.nlink };
}

/** lstat: the entry itself (a link is not followed); undefined when nothing is there. */
export async function entryAt(path: string): Promise<Entry | undefined> {
  try {
    return entryOf(await fs.lstat(path));
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

export type ReadEntry =
  | { kind: 'absent' }
  | { kind: 'file'; bytes: Buffer; entry: Entry }
  | { kind: 'symlink'; to: string; entry: Entry }
  | { kind: 'too-large'; entry: Entry }
  | { kind: 'dir' | 'other'; entry: Entry };

// O_NOFOLLOW: a link is read as a link, never through. O_NONBLOCK: a FIFO put where a file was
// does not hang the open.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * What is at `path` now, with a regular file's bytes (at most `maxBytes`). The type and size are
 * taken from the open handle, so a path swapped between a stat and the read cannot mislead.
 */
export async function readEntry(path: string, maxBytes: number): Promise<ReadEntry> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, READ_FLAGS);
  } catch (err) {
    if (isMissing(err)) return { kind: 'absent' };
    const code = (err as NodeJS.ErrnoException).code;
    // ELOOP (Linux, macOS) or EMLINK (FreeBSD): O_NOFOLLOW met a link. ENXIO: a socket.
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EISDIR' || code === 'ENXIO') {
      const entry = await entryAt(path);
      if (!entry) return { kind: 'absent' };
      if (entry.kind === 'symlink') return { kind: 'symlink', to: await fs.readlink(path), entry };
      return { kind: entry.kind === 'dir' ? 'dir' : 'other', entry };
    }
    throw err;
  }
  try {
    const st = await handle.stat();
    const entry = entryOf(st);
    if (entry.kind !== 'file') return { kind: entry.kind === 'dir' ? 'dir' : 'other', entry };
    if (isOwnProcessFile(path, st)) throw ownProcessRefusal();
    if (entry.size > maxBytes) return { kind: 'too-large', entry };
    const bytes = Buffer.alloc(entry.size);
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return { kind: 'file', bytes: at === bytes.length ? bytes : bytes.subarray(0, at), entry };
  } finally {
    await handle.close();
  }
}

/** realpath, or undefined when the path does not exist. */
export async function realPath(path: string): Promise<string | undefined> {
  try {
    return await fs.realpath(path);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** A name beside `path` for a file that is not in place yet. */
export function besideName(path: string, tag: string): string {
  return join(dirname(path), `.${path.slice(dirname(path).length + 1)}.${tag}-${randomBytes(4).toString('hex')}`);
}

/**
 * Writes a new file that must not exist yet (O_EXCL: never through a link or over a file),
 * with these permission bits, and (unless `sync` is false) flushes it to disk.
 */
export async function writeNew(path: string, bytes: Uint8Array, mode = 0o600, sync = true): Promise<void> {
  // Under a private folder (the checkpoint store) nothing is readable by other accounts.
  if (isPrivatePath(path)) mode &= ~0o077;
  const handle = await fs.open(path, 'wx', mode & 0o777);
  try {
    await handle.writeFile(bytes);
    await handle.chmod(mode & 0o7777);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A new symbolic link (fails if the name is taken). */
export async function writeLink(path: string, to: string): Promise<void> {
  await fs.symlink(to, path);
}

/** Flushes a folder's entries (a rename is durable only then); a no-op where folders cannot be opened. */
export async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a folder; its renames are journalled by NTFS.
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces a file with whole new content: temp file, fsync, rename, folder fsync. With `sync`
 * false it is still whole or absent after a crash of the process, but a power cut may lose it.
 */
export async function writeDurable(path: string, data: string | Uint8Array, sync = true): Promise<void> {
  await makeFolder(dirname(path));
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeNew(tmp, typeof data === 'string' ? Buffer.from(data) : data, 0o600, sync);
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  if (sync) await syncDir(dirname(path));
}

/** Appends text and flushes it before returning. */
export async function appendDurable(path: string, text: string): Promise<void> {
  await makeFolder(dirname(path));
  const handle = await fs.open(path, 'a', 0o600);
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The store's own files are far below this; anything bigger was not written by it. */
const STORE_FILE_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * A whole regular file of the store, or undefined when it is not there. Anything else in its place
 * (a folder, a FIFO, a file past the cap) is an error, never a blocking open or an endless read.
 */
export async function readBytes(path: string): Promise<Buffer | undefined> {
  const r = await readCapped(path, { maxBytes: STORE_FILE_MAX_BYTES });
  if (!r.ok) {
    if (r.reason === 'missing') return undefined;
    throw r.error ?? new Error(`${path} is ${r.reason === 'folder' ? 'a folder' : 'not a regular file'}`);
  }
  if (r.capped) throw new Error(`${path} is larger than ${STORE_FILE_MAX_BYTES} bytes`);
  return r.bytes;
}

/** The same, as text. */
export async function readText(path: string): Promise<string | undefined> {
  return (await readBytes(path))?.toString('utf8');
}

/** rename(2): atomic replacement of `to`'s entry (a link at `to` is replaced, not followed). */
export async function moveEntry(from: string, to: string): Promise<void> {
  await fs.rename(from, to);
}

/** Removes one entry (a link itself, never its target); true when something was removed. */
export async function removeEntry(path: string): Promise<boolean> {
  try {
    await fs.unlink(path);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/** Creates the missing folders up to `dir`; returns those it created, outermost first. */
export async function makeDirs(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    const e = await entryAt(d);
    if (e) break;
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  // 0700 under a private folder (the checkpoint store); a workspace folder as the umask has it.
  for (const d of missing) await fs.mkdir(d, isPrivatePath(d) ? 0o700 : undefined).catch((err: NodeJS.ErrnoException) => (err.code === 'EEXIST' ? undefined : Promise.reject(err)));
  return missing;
}

/** Removes a folder only when it is empty; true when removed. */
export async function removeEmptyDir(dir: string): Promise<boolean> {
  try {
    await fs.rmdir(dir);
    return true;
  } catch {
    return false;
  }
}

export async function listDir(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}


