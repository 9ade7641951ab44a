// Every write of Threadline's: whole files replaced atomically, folders made, files moved,
// appended to or removed. One rule decides permissions here: a file under a folder marked
// private (sessions, memory, notes: what the user said and what the agent learnt) is 0600 in
// 0700 folders, whoever writes it (our own code, or the background agent's Write tool).
import { chmod, mkdir, open, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import writeFileAtomicLib from 'write-file-atomic';
import { realLocationAsync, within } from './paths';

const privateRoots = new Set<string>();
/** Roots whose own mode was tightened in this process (once each). */
const tightened = new Set<string>();

/**
 * Marks `dir` as holding private data: from now on every file written under it is 0600 and every
 * folder made there 0700, and the folder itself is closed to others at its next write.
 */
export function markPrivate(dir: string): void {
  privateRoots.add(resolve(dir));
}

/** The private folder `abs` lies in, if any. */
function privateRootOf(abs: string): string | undefined {
  for (const r of privateRoots) if (within(r, abs)) return r;
  return undefined;
}

export function isPrivatePath(abs: string): boolean {
  return privateRootOf(resolve(abs)) !== undefined;
}

/**
 * Makes `dir` and any missing parents. Under a private folder, the folders made (the private
 * folder itself included) are 0700, and the private folder's mode is tightened once if an older
 * version left it open.
 */
export async function makeFolder(dir: string): Promise<void> {
  const abs = resolve(dir);
  const root = privateRootOf(abs);
  if (!root) {
    await mkdir(abs, { recursive: true });
    return;
  }
  // The folders above the private one are not ours to close.
  if (dirname(root) !== root) await mkdir(dirname(root), { recursive: true });
  await mkdir(abs, { recursive: true, mode: 0o700 });
  if (!tightened.has(root)) {
    tightened.add(root);
    // Closed to others, never opened further for the owner (a folder the user made read-only
    // stays so). Not ours (another user's folder, a read-only mount): it stays as it is.
    const mode = (await stat(root).catch(() => undefined))?.mode;
    if (mode !== undefined && mode & 0o077) await chmod(root, mode & 0o700).catch(() => undefined);
  }
}

export interface AtomicWriteOptions {
  /**
   * 'private' (the default): mode 0600, for Threadline's own state (sessions, memory, notes).
   * 'keep': an existing file keeps its mode and owner; a new one gets 0666 less the umask, as an
   * editor would give it (the Write and Edit tools) — unless it lies in a private folder.
   */
  mode?: 'private' | 'keep';
}

/** The last write asked for each file, settled either way. */
const pending = new Map<string, Promise<void>>();

/**
 * Replaces a file so that readers see the old content or the new, never a mix, and a kill at any
 * point leaves one of them whole (write-file-atomic: a temp file beside the real one, fsync,
 * rename). The write lands where the path really is, resolved once here: a symlinked file stays
 * a link and its target is replaced (the permission check judged that target). Overlapping writes
 * to one file land in the order they were asked for.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  // write-file-atomic orders writes by when they reach it; the folder is made first, and those
  // answers can come back in any order, so the order is fixed here, at the call.
  const key = resolve(path);
  const next = (pending.get(key) ?? Promise.resolve()).then(() => writeNow(key, data, opts));
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  pending.set(key, settled);
  void settled.then(() => {
    if (pending.get(key) === settled) pending.delete(key);
  });
  return next;
}

async function writeNow(path: string, data: string | Uint8Array, opts: AtomicWriteOptions): Promise<void> {
  const real = await realLocationAsync(path);
  await makeFolder(dirname(real));
  const bytes = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const closed = opts.mode !== 'keep' || isPrivatePath(real) || isPrivatePath(path);
  await writeFileAtomicLib(real, bytes, { fsync: true, ...(closed ? { mode: 0o600 } : {}) });
}

/** Adds bytes to the end of a file (made 0600 when new). */
export async function appendToFile(path: string, data: string | Uint8Array): Promise<void> {
  await makeFolder(dirname(path));
  const fh = await open(path, 'a', 0o600);
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}

/** An open file that is only ever added to (a transcript): what its writer needs, nothing more. */
export interface AppendableFile {
  size(): Promise<number>;
  /** Reads into `buf` from `position`; how many bytes came. */
  readAt(buf: Buffer, length: number, position: number): Promise<number>;
  truncate(length: number): Promise<void>;
  append(text: string): Promise<void>;
  close(): Promise<void>;
}

class NotAFileError extends Error {
  readonly code = 'EINVAL';
}

/**
 * Opens a private file for appending (0600 when new), refusing anything but a regular file: a
 * FIFO or a link to a device where a transcript should be is not written into. Throws ENOENT
 * when its folder is missing.
 */
export async function openAppendable(path: string): Promise<AppendableFile> {
  const fh: FileHandle = await open(path, 'a+', 0o600);
  const st = await fh.stat().catch(async (e: unknown) => {
    await fh.close();
    throw e;
  });
  if (!st.isFile()) {
    await fh.close();
    throw new NotAFileError(`${path} is not a regular file`);
  }
  return {
    size: async () => (await fh.stat()).size,
    readAt: async (buf, length, position) => (await fh.read(buf, 0, length, position)).bytesRead,
    truncate: (length) => fh.truncate(length),
    append: (text) => fh.writeFile(text, 'utf8'),
    close: () => fh.close(),
  };
}

/** Moves a file or folder (same file system); the target's folder is made first. */
export async function movePath(from: string, to: string): Promise<void> {
  await makeFolder(dirname(to));
  await rename(from, to);
}

/** Removes a file; `missingOk` (default true) makes a missing one no error. */
export async function removeFile(path: string, missingOk = true): Promise<void> {
  await rm(path, { force: missingOk });
}

/** Removes a file or a whole folder; nothing there is no error. Links inside are removed, never followed. */
export async function removeTree(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

/** Sets a path's modification (and access) time to `at` (default now). */
export async function touchPath(path: string, at = new Date()): Promise<void> {
  await utimes(path, at, at);
}
