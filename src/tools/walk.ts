// The file walk under Glob and Grep: fdir for speed, `ignore` for .gitignore rules, picomatch
// (through RE2) for the pattern.
import { readFileSync, promises as fs } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { fdir } from 'fdir';
import ignore, { type Ignore } from 'ignore';
import { anchoredGlob, globBase, globToRegExp, normalizePattern } from './glob';

export interface WalkedFile {
  /** Relative to the walk's root, '/'-separated. */
  rel: string;
  abs: string;
  mtimeMs: number;
  size: number;
  /** The walk found a symlink (to a file); where it leads is for the caller to judge. */
  link?: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop after this many matching files. */
  limit?: number;
  /** Honour .gitignore files (default true). */
  gitignore?: boolean;
  /** A bare name matches only at the top of the root, not at any depth. */
  anchored?: boolean;
}

/** Folders no walk enters unless asked to: git's own, and installed packages. */
export const SKIPPED_DIRS = ['.git', 'node_modules'];

const toSlash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** Whether the pattern has `name` as a whole path segment (or one brace alternative): `.git/**`, not `*.gitignore`. */
function namesSegment(pattern: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[/{,])${escaped}(?:$|[/},])`).test(pattern);
}

/**
 * .gitignore rules of each folder met, applied to the paths below it (as git does). Each file is
 * read once: a walk that outlives an edit of a .gitignore keeps the rules it started with.
 */
export class GitignoreRules {
  private readonly byDir = new Map<string, Ignore>();
  private readonly read = new Set<string>();

  constructor(private readonly root: string) {}

  /** Reads `dirRel`/.gitignore if there is one; cheap when there is not. */
  load(dirRel: string): void {
    if (this.read.has(dirRel)) return;
    this.read.add(dirRel);
    let text: string;
    try {
      text = readFileSync(join(this.root, dirRel, '.gitignore'), 'utf8');
    } catch {
      return;
    }
    this.byDir.set(dirRel, ignore().add(text));
  }

  ignored(rel: string, isDir: boolean): boolean {
    for (const [dir, ig] of this.byDir) {
      if (dir !== '' && !rel.startsWith(`${dir}/`)) continue;
      const sub = dir === '' ? rel : rel.slice(dir.length + 1);
      if (sub && ig.ignores(isDir ? `${sub}/` : sub)) return true;
    }
    return false;
  }
}

/**
 * Files under `root` matching `pattern` (relative to `root`, or absolute). Skips `.git` and
 * `node_modules` unless the pattern names them, and what .gitignore files ignore; does not follow
 * symlinked folders (a symlinked file is reported); stops when aborted or after `limit` files.
 * Order is the walk's; sort it.
 */
export async function walkGlob(root: string, pattern: string, signalOrOptions?: AbortSignal | WalkOptions, limitArg?: number): Promise<WalkedFile[]> {
  const opts: WalkOptions = signalOrOptions instanceof AbortSignal ? { signal: signalOrOptions } : (signalOrOptions ?? {});
  const limit = limitArg ?? opts.limit ?? 100_000;
  const rootAbs = resolve(root);
  let p = normalizePattern(pattern);
  // An absolute pattern is matched relative to the root when it lies under it; elsewhere nothing
  // is walked (the caller's root is what the permission check approved).
  if (isAbsolute(p)) {
    const rel = toSlash(relative(rootAbs, p));
    if (rel.startsWith('..') || isAbsolute(rel)) return [];
    p = rel || '**';
  }
  const matcher = opts.anchored ? anchoredGlob(p) : globToRegExp(p);
  const { base, glob } = p.includes('/') ? globBase(p) : { base: '', glob: p };
  if (base.split('/').includes('..')) return [];
  const start = join(rootAbs, base);
  const maxDepth = glob.includes('**') || (!p.includes('/') && !opts.anchored) ? Infinity : glob.split('/').length - 1;
  const skip = new Set(SKIPPED_DIRS.filter((d) => !namesSegment(p, d)));
  const rules = opts.gitignore === false ? undefined : new GitignoreRules(rootAbs);
  if (rules) {
    // The root's rules and those of each folder between it and the start of the walk.
    const parts = base ? base.split('/') : [];
    for (let k = 0; k <= parts.length; k++) rules.load(parts.slice(0, k).join('/'));
  }
  const prefix = base ? `${base}/` : '';
  const matched: string[] = [];
  let builder = new fdir()
    .withRelativePaths()
    .withPathSeparator('/')
    .exclude((name, dirPath) => {
      if (skip.has(name)) return true;
      const rel = toSlash(relative(rootAbs, dirPath));
      if (rules?.ignored(rel, true)) return true;
      rules?.load(rel);
      return false;
    })
    .filter((path, isDir) => {
      if (isDir || matched.length >= limit) return false;
      const rel = prefix + path;
      if (!matcher.test(rel) || rules?.ignored(rel, false)) return false;
      matched.push(rel);
      return true;
    });
  if (Number.isFinite(maxDepth)) builder = builder.withMaxDepth(maxDepth);
  if (opts.signal) builder = builder.withAbortSignal(opts.signal);
  try {
    await builder.crawl(start).withPromise();
  } catch {
    return []; // the start folder is missing or unreadable: nothing to find there
  }
  const out: WalkedFile[] = [];
  for await (const [rel, st] of readAhead(matched.slice(0, limit), 64, (rel) => statEntry(join(rootAbs, rel)))) {
    if (opts.signal?.aborted) break;
    if (st) out.push({ rel, abs: join(rootAbs, rel), ...st });
  }
  return out;
}

/** Size and time of a regular file (through a symlink too), or undefined. */
async function statEntry(abs: string): Promise<Omit<WalkedFile, 'rel' | 'abs'> | undefined> {
  try {
    const lst = await fs.lstat(abs);
    const link = lst.isSymbolicLink();
    const st = link ? await fs.stat(abs) : lst;
    return st.isFile() ? { mtimeMs: st.mtimeMs, size: st.size, ...(link ? { link } : {}) } : undefined;
  } catch {
    return undefined; // gone since the listing, or a dangling link
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

/**
 * Which files a search may show. The permission check approved the search's root; a file found
 * under it may still be a symlink leading out of it, or match a Read deny rule.
 */
export interface SearchScope {
  /**
   * The filter for one search, taking each found file's real path and the search root's. What
   * it needs (rules, settings) it reads here, once, not per file.
   */
  forSearch(): (real: string, realRoot: string) => boolean;
}

const underRoot = (real: string, realRoot: string) => {
  const rel = relative(realRoot, real);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** Without a permission engine: only what really lies under the approved root. */
export const ROOT_ONLY: SearchScope = { forSearch: () => underRoot };

/**
 * The files of a walk that the scope lets through, and how many it held back. Only symlinks can
 * lead elsewhere (the walk follows no linked folder), so only they are resolved.
 */
export async function scopeFilter<T extends { rel: string; abs: string; link?: boolean }>(files: T[], root: string, scope: SearchScope): Promise<{ kept: T[]; hidden: number }> {
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
  } catch {
    return { kept: [], hidden: files.length };
  }
  const kept: T[] = [];
  const mayShow = scope.forSearch();
  for (const f of files) {
    let real = join(realRoot, f.rel);
    if (f.link) {
      try {
        real = await fs.realpath(f.abs);
      } catch {
        continue;
      }
    }
    if (mayShow(real, realRoot)) kept.push(f);
  }
  return { kept, hidden: files.length - kept.length };
}

/**
 * Where a search with this pattern really looks. A pattern that is absolute or climbs with `..`
 * moves the root to its literal folders, so the permission check sees the folder that is searched
 * (a `../secret/*` pattern under the workspace is a search of `../secret`).
 */
export function searchRoot(root: string, pattern: string): { root: string; pattern: string; anchored: boolean } {
  const raw = normalizePattern(pattern);
  const p = isAbsolute(raw) ? raw : posix.normalize(raw);
  if (!isAbsolute(p) && p !== '..' && !p.startsWith('../')) return { root, pattern: p, anchored: false };
  if (p === '..') return { root: resolve(root, '..'), pattern: '**', anchored: true };
  const { base, glob } = globBase(p);
  // What is left is anchored at the new root: `../a.txt` is that one file, not every a.txt below.
  if (glob === p || !base) return { root: resolve(root, posix.dirname(p)), pattern: posix.basename(p) || '**', anchored: true };
  return { root: resolve(root, base), pattern: glob || '**', anchored: true };
}
