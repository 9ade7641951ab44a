// What a path is (a regular file, a folder, a link, something else, nothing), asked of the file
// system without opening it: opening a FIFO or a device to find out is what must never happen.
import { accessSync, constants, promises as fs, lstatSync, statSync, type Stats } from 'node:fs';
import { isOwnProcessFile } from './ownProcess';
import { ownProcessRefusal } from './read';

export type PathKind = 'file' | 'folder' | 'link' | 'other' | 'missing' | 'unreadable';

export interface PathInfo {
  /** `link` only when asked not to follow links; `other`: a FIFO, socket or device. */
  kind: PathKind;
  size: number;
  mtimeMs: number;
  /** Permission bits (mode & 0o7777); 0 when the path is missing or unreadable. */
  mode: number;
  /** Why it is `unreadable` (EACCES, ELOOP…). */
  error?: NodeJS.ErrnoException;
}

export interface InspectOptions {
  /** Follow a symlink to what it points at (default true); false reports the link itself. */
  follow?: boolean;
}

function describe(st: Stats, abs: string, follow: boolean): PathInfo {
  // A /proc file reports a size of 0 whatever it holds: one of the agent's own is refused here,
  // before a caller takes it for empty.
  if (follow && st.isFile() && isOwnProcessFile(abs, st)) return { kind: 'unreadable', size: 0, mtimeMs: 0, mode: 0, error: ownProcessRefusal() };
  const kind: PathKind = st.isFile() ? 'file' : st.isDirectory() ? 'folder' : st.isSymbolicLink() ? 'link' : 'other';
  return { kind, size: st.size, mtimeMs: st.mtimeMs, mode: st.mode & 0o7777 };
}

function failed(e: unknown): PathInfo {
  const error = e as NodeJS.ErrnoException;
  const missing = error.code === 'ENOENT' || error.code === 'ENOTDIR';
  return { kind: missing ? 'missing' : 'unreadable', size: 0, mtimeMs: 0, mode: 0, ...(missing ? {} : { error }) };
}

/** What `abs` is, following links unless told not to. Never throws. */
export async function inspect(abs: string, opts: InspectOptions = {}): Promise<PathInfo> {
  try {
    return describe(opts.follow === false ? await fs.lstat(abs) : await fs.stat(abs), abs, opts.follow !== false);
  } catch (e) {
    return failed(e);
  }
}

/** The same, synchronously (for decisions that cannot wait: permission checks, argument checks). */
function inspectSync(abs: string, opts: InspectOptions = {}): PathInfo {
  try {
    return describe(opts.follow === false ? lstatSync(abs) : statSync(abs), abs, opts.follow !== false);
  } catch (e) {
    return failed(e);
  }
}

export const isFolderSync = (abs: string): boolean => inspectSync(abs).kind === 'folder';
/** A regular file, a link to one included (never a FIFO or device, never one of the agent's own /proc files). */
export const isFileSync = (abs: string): boolean => inspectSync(abs).kind === 'file';
export const isLinkSync = (abs: string): boolean => inspectSync(abs, { follow: false }).kind === 'link';

/** Whether anything (a dangling link too) is at `abs`. */
export async function exists(abs: string): Promise<boolean> {
  const k = (await inspect(abs, { follow: false })).kind;
  return k !== 'missing';
}

export function existsSync(abs: string): boolean {
  return inspectSync(abs, { follow: false }).kind !== 'missing';
}

/** Whether `abs` is a regular file this process may execute (a program found on PATH). */
export async function isExecutableFile(abs: string): Promise<boolean> {
  try {
    await fs.access(abs, constants.X_OK);
    return (await fs.stat(abs)).isFile();
  } catch {
    return false;
  }
}

/** The same, synchronously. */
export function isExecutableFileSync(abs: string): boolean {
  try {
    accessSync(abs, constants.X_OK);
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}
