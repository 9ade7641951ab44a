import { basename, dirname, join } from 'node:path';
import type { BlobStore } from './blobs';
import { BlobBudgetSpent, hashOf } from './blobs';
import { entryAt, readEntry, realPath, type Entry } from '../fs/entries';
import { relativeWithin } from '../fs/paths';
import type { Ledger } from './ledger';
import type { Image, ManifestRecord, StatKey } from './manifest';

/** What the parts of the store (Bash tracking, restore) share; CheckpointStore provides it. */
export interface StoreCore {
  /** The workspace's real path: Bash fingerprints walk it, paths are shown relative to it. */
  readonly workspace: string;
  /** The store's own folder. */
  readonly dir: string;
  readonly ledger: Ledger;
  readonly blobs: BlobStore;
  /** Larger files get no copy (their change is known, not restorable). */
  readonly maxFileBytes: number;
  /** Adds records to the ledger and the manifest, flushed to disk before it resolves. */
  append(records: readonly ManifestRecord[]): Promise<void>;
  now(): number;
}

export const statKey = (e: Entry): StatKey => ({ size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs, ino: e.ino });

export interface ReadImage {
  image: Image;
  entry?: Entry;
  bytes?: Buffer;
}

const MB = 1024 * 1024;

/**
 * What `path` holds now, as an image. With `blobs`, a regular file's bytes are kept (once; see
 * BlobStore.put for `durable`); a
 * file over `maxBytes`, a folder or a device is `unknown`, with the reason.
 */
export async function imageOf(path: string, maxBytes: number, blobs?: BlobStore, durable = true): Promise<ReadImage> {
  const r = await readEntry(path, maxBytes);
  switch (r.kind) {
    case 'absent':
      return { image: { k: 'absent' } };
    case 'symlink':
      return { image: { k: 'link', to: r.to }, entry: r.entry };
    case 'file': {
      const h = hashOf(r.bytes);
      try {
        if (blobs) await blobs.put(r.bytes, h, durable);
      } catch (e) {
        if (e instanceof BlobBudgetSpent) return { image: { k: 'unknown', why: `${e.message}, so no copy was kept` }, entry: r.entry };
        throw e;
      }
      return { image: { k: 'file', h, mode: r.entry.mode & 0o7777, size: r.bytes.length }, entry: r.entry, bytes: r.bytes };
    }
    case 'too-large':
      return { image: { k: 'unknown', why: `it is larger than ${Math.round(maxBytes / MB)} MB, so no copy was kept` }, entry: r.entry };
    case 'dir':
      return { image: { k: 'unknown', why: 'it is a folder' }, entry: r.entry };
    case 'other':
      return { image: { k: 'unknown', why: 'it is not a regular file (a FIFO, socket or device)' }, entry: r.entry };
  }
}

/**
 * Where a change to `path` really lands: a link to a file is followed to the file (the tools
 * write through it), a new file's folder is resolved. Changes are kept under this path, so a
 * restore writes where the change was made and nowhere else.
 */
export async function canonicalPath(path: string): Promise<string> {
  const e = await entryAt(path);
  if (e?.kind === 'symlink') {
    const real = await realPath(path);
    if (real) return real;
  }
  const rest: string[] = [basename(path)];
  for (let d = dirname(path); ; d = dirname(d)) {
    const real = await realPath(d);
    if (real) return join(real, ...rest);
    if (dirname(d) === d) return path;
    rest.unshift(basename(d));
  }
}

/** Folders missing on the way to `path`, outermost first. */
export async function missingDirs(path: string): Promise<string[]> {
  const out: string[] = [];
  for (let d = dirname(path); dirname(d) !== d; d = dirname(d)) {
    if (await entryAt(d)) break;
    out.unshift(d);
  }
  return out;
}

/** `path` relative to the workspace with '/', or the absolute path when it lies outside. */
export function displayRel(workspace: string, path: string): string {
  const rel = relativeWithin(workspace, path);
  return rel ? rel : path;
}

/** A path inside a `.git` folder: git's own state (HEAD, refs, index), never restored. */
export const insideGitDir = (path: string): boolean => path.split(/[\\/]/).includes('.git');

/** The image of the empty file: known from a stat alone. */
export function emptyFileImage(mode: number): Image {
  return { k: 'file', h: hashOf(Buffer.alloc(0)), mode: mode & 0o7777, size: 0 };
}
