// Listing folders, bounded: a folder's entries up to a count, and a small tree (a rules folder) up
// to a count of files, of entries and a time, never through a symlinked folder that leads out of
// the places the caller names. A repository decides what its folders hold and where they lead:
// `.claude/rules -> /` must cost one line, not a walk of the whole machine.
import { opendirSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { within } from './paths';

export interface FolderEntry {
  name: string;
  kind: 'file' | 'folder' | 'link' | 'other';
}

const LIST_MAX_ENTRIES = 100_000;

/**
 * The entries of one folder, at most `maxEntries` (read as a stream, so a folder of millions costs
 * no more than the cap). Throws as readdir does (ENOENT, ENOTDIR) when it cannot be listed.
 */
export async function listFolder(dir: string, maxEntries = LIST_MAX_ENTRIES): Promise<{ entries: FolderEntry[]; capped: boolean }> {
  const handle = await fs.opendir(dir);
  const entries: FolderEntry[] = [];
  let capped = false;
  try {
    for await (const e of handle) {
      if (entries.length >= maxEntries) {
        capped = true;
        break;
      }
      entries.push({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'folder' : e.isSymbolicLink() ? 'link' : 'other' });
    }
  } finally {
    // Iterating to the end closes it; leaving early does not.
    await handle.close().catch(() => undefined);
  }
  return { entries, capped };
}

/** The names in a folder (bounded); none when it is missing or not a folder. */
export async function folderNames(dir: string, maxEntries = LIST_MAX_ENTRIES): Promise<string[]> {
  try {
    return (await listFolder(dir, maxEntries)).entries.map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * The names in a folder, synchronously (a permission check that cannot wait), at most
 * `maxEntries` (`capped` when it holds more); undefined when it cannot be listed (missing, not a
 * folder, not readable).
 */
export function folderNamesSync(dir: string, maxEntries: number): { names: string[]; capped: boolean } | undefined {
  let handle;
  try {
    handle = opendirSync(dir);
  } catch {
    return undefined;
  }
  const names: string[] = [];
  try {
    for (let e = handle.readSync(); e; e = handle.readSync()) {
      if (names.length >= maxEntries) return { names, capped: true };
      names.push(e.name);
    }
    return { names, capped: false };
  } catch {
    return undefined;
  } finally {
    handle.closeSync();
  }
}

export interface TreeOptions {
  /** Real folders the tree may lead into; a symlinked folder (the start too) leading elsewhere is not entered. */
  within: readonly string[];
  /** Which file names are listed. */
  wanted(name: string): boolean;
  /** Folders, by name and the folder holding them, not entered. */
  skipFolder?(name: string, parent: string): boolean;
  /** Stop after listing this many files. */
  maxFiles: number;
  /** Stop after meeting this many entries. */
  maxEntries: number;
  /** Stop after this long. */
  timeLimitMs: number;
}

export interface TreeListing {
  /** Wanted files, by the path that led to them, in sorted walk order. */
  files: string[];
  /** Folders not entered: linked out of the allowed places. */
  outside: Array<{ path: string; real: string }>;
  /** Why the listing ended early, if it did. */
  stopped?: 'files' | 'entries' | 'time';
}

/**
 * The wanted files under `dir`, following symlinked folders only while they stay within the given
 * places (each real folder walked once, so a loop ends), and links to files as they are (whoever
 * reads a file judges where it really is). Bounded in files, entries and time.
 */
export async function listTree(dir: string, o: TreeOptions): Promise<TreeListing> {
  const out: TreeListing = { files: [], outside: [] };
  const visited = new Set<string>();
  const deadline = Date.now() + o.timeLimitMs;
  let entries = 0;
  const walk = async (d: string): Promise<void> => {
    const real = await fs.realpath(d).catch(() => undefined);
    if (!real || visited.has(real)) return;
    if (!o.within.some((r) => within(r, real))) {
      out.outside.push({ path: d, real });
      return;
    }
    visited.add(real);
    let list: FolderEntry[];
    try {
      list = (await listFolder(d, Math.max(0, o.maxEntries - entries) + 1)).entries;
    } catch {
      return;
    }
    for (const e of list.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.stopped) return;
      if (++entries > o.maxEntries) out.stopped = 'entries';
      else if (Date.now() > deadline) out.stopped = 'time';
      if (out.stopped) return;
      const p = join(d, e.name);
      let isDir = e.kind === 'folder';
      if (e.kind === 'link') isDir = await fs.stat(p).then((st) => st.isDirectory(), () => false);
      if (isDir) {
        if (!o.skipFolder?.(e.name, d)) await walk(p);
      }
      else if (o.wanted(e.name)) {
        if (out.files.length >= o.maxFiles) {
          out.stopped = 'files';
          return;
        }
        out.files.push(p);
      }
    }
  };
  await walk(dir);
  return out;
}
