// The file walk under Glob and Grep: the gate's walk (src/fs/walk.ts) with a glob for a filter.
import { isAbsolute, posix, resolve } from 'node:path';
import { relativeWithin, within } from '../fs/paths';
import { walkFiles, type WalkedFile, type WalkResult } from '../fs/walk';
import { anchoredGlob, globBase, globToRegExp, normalizePattern } from './glob';

export { readAhead, type WalkedFile } from '../fs/walk';
export { GitignoreRules } from '../fs/gitignore';

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

/** Whether the pattern has `name` as a whole path segment (or one brace alternative): `.git/**`, not `*.gitignore`. */
function namesSegment(pattern: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[/{,])${escaped}(?:$|[/},])`).test(pattern);
}

/** The literal folders a pattern starts with, relative to `root`, or undefined when it names nothing under it. */
function patternBase(root: string, pattern: string): { base: string; pattern: string } | undefined {
  let p = normalizePattern(pattern);
  // An absolute pattern is matched relative to the root when it lies under it; elsewhere nothing
  // is walked (the caller's root is what the permission check approved).
  if (isAbsolute(p)) {
    const inside = relativeWithin(root, p);
    if (inside === undefined) return undefined;
    p = inside || '**';
  }
  const { base } = p.includes('/') ? globBase(p) : { base: '' };
  if (base.split('/').includes('..')) return undefined;
  return { base, pattern: p };
}

/**
 * Files under `root` matching `pattern` (relative to `root`, or absolute), as the gate's walk finds
 * them: each with its real location. Skips `.git` and `node_modules` unless the pattern names them,
 * and what .gitignore files ignore; enters no symlinked folder below where the pattern's literal
 * part leads; stops when aborted, after `limit` files, or at the walk's bounds. Order is the
 * walk's; sort it.
 */
export async function walkGlobResult(root: string, pattern: string, opts: WalkOptions = {}): Promise<WalkResult> {
  const rootAbs = resolve(root);
  const named = patternBase(rootAbs, pattern);
  if (!named) return { files: [], realStart: undefined, gitignoreCapped: [] };
  const p = named.pattern;
  const matcher = opts.anchored ? anchoredGlob(p) : globToRegExp(p);
  const glob = p.includes('/') ? globBase(p).glob : p;
  const maxDepth = glob.includes('**') || (!p.includes('/') && !opts.anchored) ? undefined : glob.split('/').length - 1;
  return walkFiles({
    root: rootAbs,
    base: named.base,
    include: (rel) => matcher.test(rel),
    skipNames: new Set(SKIPPED_DIRS.filter((d) => !namesSegment(p, d))),
    ...(opts.gitignore === false ? { gitignore: false } : {}),
    ...(maxDepth !== undefined ? { maxDepth } : {}),
    limit: opts.limit ?? 100_000,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/** The files of walkGlobResult alone. */
export async function walkGlob(root: string, pattern: string, opts: WalkOptions = {}): Promise<WalkedFile[]> {
  return (await walkGlobResult(root, pattern, opts)).files;
}

/**
 * Which files a search may show. The permission check approved the folder the search starts in;
 * a file found there may still really lie elsewhere (a link), or match a Read deny rule.
 */
/**
 * The filter for one search. `withheld`, where given, tells which of the files held back the
 * user's own rules hold back (a Read deny or ask rule): those are left out without being counted,
 * since a count tells which names a pattern met there (pass 52 L1).
 */
export type SearchFilter = ((real: string, realRoot: string, spelled?: string) => boolean) & { withheld?: (real: string, spelled?: string) => boolean };

export interface SearchScope {
  /**
   * The filter for one search, taking each found file's real path and the real path of the folder
   * the search started in. What it needs (rules, settings) it reads here, once, not per file.
   */
  forSearch(): SearchFilter;
}

/** Without a permission engine: only what really lies under the approved folder. */
export const ROOT_ONLY: SearchScope = { forSearch: () => (real, realRoot) => within(realRoot, real) };

/**
 * The files of a walk that the scope lets through (judged where they really are), and how many it
 * held back for lying outside, links to no file counted alike, so that the count tells nothing of
 * what exists out there. What the user's rules hold back is not counted.
 */
export function scopeFilter<T extends { real: string; abs?: string }>(
  files: readonly T[],
  realStart: string | undefined,
  scope: SearchScope,
  linksToNoFile: ReadonlyArray<{ abs: string; real: string }> = [],
): { kept: T[]; hidden: number } {
  if (!realStart) return { kept: [], hidden: files.length };
  const mayShow = scope.forSearch();
  // The path as found is judged too: a deny rule may name the link (`Read(./.env)` with `.env -> env/prod.env`).
  const kept: T[] = [];
  const held: Array<{ real: string; abs?: string }> = [...linksToNoFile];
  for (const f of files) (mayShow(f.real, realStart, f.abs) ? kept : held).push(f);
  const ruled = mayShow.withheld;
  return { kept, hidden: ruled ? held.filter((f) => !ruled(f.real, f.abs)).length : held.length };
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

/**
 * The folders a search touches, for the permission check: its root, and the folder its pattern's
 * literal part leads to when that is deeper (`notes/**` searches `notes`, which may be a link
 * leading out of the workspace).
 */
export function searchedFolders(root: string, pattern: string | undefined): string[] {
  if (!pattern) return [root];
  const named = patternBase(root, pattern);
  return named?.base ? [root, resolve(root, named.base)] : [root];
}
