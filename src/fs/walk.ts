// The walk under every search (Glob, Grep): fdir for speed, .gitignore rules read through the gate,
// bounded in files, entries and time. It never enters a symlinked folder (fdir reports a link as an
// entry and does not follow it), and every file it returns carries where it really is, so the
// caller judges the file, not the path that led to it.
import { promises as fs } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fdir } from 'fdir';
import { GitignoreRules } from './gitignore';

export interface WalkedFile {
  /** Relative to the walk's root, '/'-separated. */
  rel: string;
  abs: string;
  /** Where the file really is (symlinks resolved). */
  real: string;
  mtimeMs: number;
  size: number;
  /** The walk found a symlink (to a file). */
  link?: boolean;
}

export interface FileWalk {
  /** The folder `rel` paths are relative to, and whose .gitignore rules apply from the top. */
  root: string;
  /** Where the crawl starts, relative to `root` ('/'-separated, '' for the root itself). */
  base: string;
  /** Whether a file (by its path relative to `root`) is wanted. */
  include(rel: string): boolean;
  /** Folder names never entered (`.git`, `node_modules`). */
  skipNames?: ReadonlySet<string>;
  /** Honour .gitignore files (default true). */
  gitignore?: boolean;
  /** Folders below the start to enter (default: all). */
  maxDepth?: number;
  /** Stop after this many wanted files. */
  limit: number;
  signal?: AbortSignal;
  /** Stop after meeting this many files and folders (default 1,000,000). */
  maxEntries?: number;
  /** Stop after this long (default 20 s). */
  timeLimitMs?: number;
}

export interface WalkResult {
  files: WalkedFile[];
  /** The real location of the folder the crawl started in; undefined when it does not exist. */
  realStart: string | undefined;
  /** Why the walk ended early, if it did. */
  stopped?: 'limit' | 'entries' | 'time';
  /** .gitignore files cut at the gate's caps (folders relative to the root). */
  gitignoreCapped: string[];
  /** The .gitignore patterns took the walk's whole matching time: files met later were not matched against them. */
  gitignoreTooCostly?: boolean;
  /**
   * Links the walk met (by a wanted name) that lead to no regular file (nowhere, a folder, a
   * device), with where they point as far as known: a search counts them as it counts links to
   * files elsewhere, so that a count does not tell whether a file out there exists (pass 55 L1).
   */
  linksToNoFile?: Array<{ abs: string; real: string }>;
}

const WALK_MAX_ENTRIES = 1_000_000;
const WALK_TIME_LIMIT_MS = 20_000;

const toSlash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/**
 * The files under `root`/`base` the walk wants, with their size, time and real location. A file
 * under the start folder is really under the start's real location (no linked folder is entered
 * below it); a file that is itself a link is resolved. Order is the walk's; sort it.
 */
export async function walkFiles(w: FileWalk): Promise<WalkResult> {
  const start = join(w.root, w.base);
  const realStart = await fs.realpath(start).catch(() => undefined);
  const rules = w.gitignore === false ? undefined : new GitignoreRules(w.root);
  const result: WalkResult = { files: [], realStart, gitignoreCapped: rules?.capped ?? [] };
  if (!realStart) return result;
  if (rules) {
    // The root's rules and those of each folder between it and the start of the walk.
    const parts = w.base ? w.base.split('/') : [];
    for (let k = 0; k <= parts.length; k++) rules.load(parts.slice(0, k).join('/'));
  }
  const prefix = w.base ? `${w.base}/` : '';
  const maxEntries = w.maxEntries ?? WALK_MAX_ENTRIES;
  const stop = new AbortController();
  const timer = setTimeout(() => {
    result.stopped ??= 'time';
    stop.abort();
  }, w.timeLimitMs ?? WALK_TIME_LIMIT_MS);
  const signal = w.signal ? AbortSignal.any([w.signal, stop.signal]) : stop.signal;
  let entries = 0;
  // fdir filters a folder's entries in one synchronous pass, where the timer cannot fire: the
  // clock is read here too (pass 55 M2: one folder of 20,000 costly matches ran past the limit).
  const deadline = performance.now() + (w.timeLimitMs ?? WALK_TIME_LIMIT_MS);
  const counted = (): boolean => {
    if (++entries > maxEntries) result.stopped ??= 'entries';
    else if ((entries & 0xff) === 0 && performance.now() > deadline) result.stopped ??= 'time';
    else return true;
    stop.abort();
    return false;
  };
  const matched: string[] = [];
  let builder = new fdir()
    .withRelativePaths()
    .withPathSeparator('/')
    .withAbortSignal(signal)
    .exclude((name, dirPath) => {
      if (!counted() || w.skipNames?.has(name)) return true;
      const rel = toSlash(relative(w.root, dirPath));
      if (rules?.ignored(rel, true)) return true;
      rules?.load(rel);
      return false;
    })
    .filter((path, isDir) => {
      if (isDir || !counted()) return false;
      if (matched.length >= w.limit) {
        result.stopped ??= 'limit';
        stop.abort();
        return false;
      }
      const rel = prefix + path;
      if (!w.include(rel) || rules?.ignored(rel, false)) return false;
      matched.push(rel);
      return true;
    });
  if (w.maxDepth !== undefined && Number.isFinite(w.maxDepth)) builder = builder.withMaxDepth(w.maxDepth);
  try {
    await builder.crawl(start).withPromise();
  } catch {
    // The start folder went away or cannot be read: nothing found there.
  } finally {
    clearTimeout(timer);
  }
  if (rules?.overBudget) result.gitignoreTooCostly = true;
  const base = prefix.length;
  for await (const [rel, st] of readAhead(matched, 64, (rel) => statEntry(join(w.root, rel)))) {
    if (w.signal?.aborted) break;
    if (!st) continue;
    const abs = join(w.root, rel);
    if ('noFile' in st) {
      (result.linksToNoFile ??= []).push({ abs, real: st.noFile });
      continue;
    }
    // Under the start, only the file itself can be a link: the crawl entered no linked folder.
    const real = st.real ?? join(realStart, ...rel.slice(base).split('/'));
    result.files.push({ rel, abs, real, mtimeMs: st.mtimeMs, size: st.size, ...(st.real ? { link: true } : {}) });
  }
  return result;
}

/** Size and time of a regular file (through a symlink too, then with where it leads), or undefined. */
async function statEntry(abs: string): Promise<{ mtimeMs: number; size: number; real?: string } | { noFile: string } | undefined> {
  let lst;
  try {
    lst = await fs.lstat(abs);
  } catch {
    return undefined; // gone since the listing
  }
  if (!lst.isSymbolicLink()) return lst.isFile() ? { mtimeMs: lst.mtimeMs, size: lst.size } : undefined;
  try {
    const [st, real] = await Promise.all([fs.stat(abs), fs.realpath(abs)]);
    return st.isFile() ? { mtimeMs: st.mtimeMs, size: st.size, real } : { noFile: real };
  } catch {
    // A dangling link: where it points, as written.
    const target = await fs.readlink(abs).catch(() => '');
    return { noFile: resolve(dirname(abs), target) };
  }
}

/**
 * `fn` over `items` with up to `window` calls in flight, yielded in the items' order: file
 * systems answer many small requests at once far faster than one after another.
 */
export async function* readAhead<T, R>(items: readonly T[], window: number, fn: (item: T) => Promise<R>): AsyncGenerator<[T, R]> {
  const pending: Array<Promise<R>> = [];
  let next = 0;
  for (let k = 0; k < items.length; k++) {
    while (next < items.length && next < k + window) pending.push(fn(items[next++]!));
    yield [items[k]!, await pending.shift()!];
  }
}
