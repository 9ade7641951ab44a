// Where a path really is, and whether it lies inside a folder: the one place that decides both.
// Every other module asks here rather than comparing strings itself: a hand-written check
// (`rel.startsWith('..')`) reads a file named `..notes` as outside, and one that forgets
// symlinks reads a link to ~/.ssh as inside.
import { lstatSync, promises as fs, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

const toSlash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** Windows paths compare without regard to case (C:\Users and c:\users are one folder). */
const foldCase = process.platform === 'win32';

/**
 * `p` relative to `root`, '/'-separated: '' for the root itself, undefined when `p` is not at or
 * under it. By the paths as written (no symlink followed); see `realRelative` for where they are.
 */
export function relativeWithin(root: string, p: string): string | undefined {
  const a = resolve(root);
  const b = resolve(a, p);
  const rel = foldCase ? relative(a.toLowerCase(), b.toLowerCase()) : relative(a, b);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  // Folded for the comparison only: the caller gets the path's own spelling.
  return toSlash(foldCase ? b.slice(b.length - rel.length) : rel);
}

/** Whether `p` is `root` or lies under it, by the paths as written. */
export function within(root: string, p: string): boolean {
  return relativeWithin(root, p) !== undefined;
}

// A backslash is a separator on Windows only; elsewhere it is part of a name.
const SEPARATORS = sep === '/' ? /\/+/ : /[\\/]+/;
const UP = sep === '/' ? /(^|\/)\.\.(\/|$)/ : /(^|[\\/])\.\.([\\/]|$)/;

/** Links followed in one path before the kernel gives up (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * `p` put after `base` as the kernel reads it: nothing collapsed. `resolve` and `join` drop
 * `link/..` as text, but the kernel follows `link` first, so `t/../x` with `t -> /etc` is `/x`.
 * Paths another program will open (a shell command's words, git's settings) join with this.
 */
export function kernelJoin(base: string, p: string): string {
  if (isAbsolute(p)) return p;
  const b = resolve(base);
  return b.endsWith(sep) || b.endsWith('/') ? b + p : `${b}${sep}${p}`;
}

/**
 * `p` after `base` as text: `..` removes the name before it. That is how bash's `cd` (without -P)
 * and `$PWD` see a path, and how people write rules; never where a program that opens `p` lands
 * (that is kernelJoin). Modules that turn shell words into paths may import only these two joins
 * (lint), so each join says which of the two it means.
 */
export function lexicalJoin(base: string, p: string): string {
  return resolve(base, p);
}

interface Walked {
  /** Where the path leads: the real existing part, then what does not exist yet. */
  location: string;
  /** The real location of the longest part that exists. */
  existing: string;
  /**
   * A `..` comes after a name that does not exist (or a loop of links): the kernel cannot walk
   * it now, and where it leads once the name exists depends on what is made there (a link).
   */
  upPastMissing?: boolean;
  /** The walk entered /proc or /dev/fd: where it leads there is the opening process's to say. */
  viaProc?: boolean;
}

/**
 * The kernel's walk of a path, one name at a time: a link is followed where it stands (so a
 * later `..` leaves its target, not the link's folder), a dangling link leads to where its
 * target would be made (`sort -o link` creates the target), and a name that does not exist
 * ends what is real; the rest is added as written.
 */
function walk(abs: string, keepSelf = false): Walked {
  const start = kernelJoin(process.cwd(), abs);
  const root = parse(start).root;
  let names = start.slice(root.length).split(SEPARATORS).filter(Boolean);
  let current = realpathSync(root);
  let links = 0;
  let viaProc = false;
  const inProc = (p: string) => /^\/(proc|dev\/fd)(\/|$)/.test(p);
  for (let i = 0; i < names.length; i++) {
    if (inProc(current)) viaProc = true;
    const name = names[i]!;
    if (name === '.') continue;
    if (name === '..') {
      current = dirname(current);
      continue;
    }
    // /proc/self is whichever process opens the path: the command's own, not this one's.
    if (keepSelf && current === '/proc' && (name === 'self' || name === 'thread-self')) {
      return { location: resolve(current, ...names.slice(i)), existing: current, viaProc: true };
    }
    const next = join(current, name);
    let kind: 'link' | 'other' | 'missing';
    try {
      kind = lstatSync(next).isSymbolicLink() ? 'link' : 'other';
    } catch {
      kind = 'missing';
    }
    if (kind === 'other') {
      current = next;
      continue;
    }
    if (kind === 'missing' || ++links > MAX_LINKS) {
      // Past here nothing exists (or the kernel gives up on the loop): the rest stands as written.
      const rest = names.slice(i);
      return { location: resolve(current, ...rest), existing: current, upPastMissing: rest.includes('..'), viaProc: viaProc || inProc(current) };
    }
    const target = readlinkSync(next);
    const targetRoot = isAbsolute(target) ? parse(target).root : '';
    if (targetRoot) current = realpathSync(targetRoot);
    names = [...names.slice(0, i), ...target.slice(targetRoot.length).split(SEPARATORS).filter(Boolean), ...names.slice(i + 1)];
    i--;
  }
  return { location: current, existing: current, viaProc: viaProc || inProc(current) };
}

/**
 * Where a path really is, as the kernel walks it: every link followed where it stands (also a
 * dangling one, to where a write through it would create the file), `..` taken after the link
 * it follows, and the part that does not exist yet added back as written. Not collapsed first:
 * give it the path as the program that opens it will (see `kernelJoin`).
 */
export function realLocation(abs: string): string {
  const start = kernelJoin(process.cwd(), abs);
  // Most paths exist and name no `..`: the system's realpath answers them in one call.
  if (!UP.test(start)) {
    try {
      return realpathSync(start);
    } catch {
      // missing, dangling, or a loop: walked below
    }
  }
  try {
    return walk(start).location;
  } catch {
    return resolve(start);
  }
}

/** Where the longest part of `abs` that exists really is (`/` when nothing under the root does). */
export function existingLocation(abs: string): string {
  const start = kernelJoin(process.cwd(), abs);
  // As in realLocation: a path that exists and names no `..` is its own realpath, in one call.
  if (!UP.test(start)) {
    try {
      return realpathSync(start);
    } catch {
      // walked below
    }
  }
  try {
    return walk(start).existing;
  } catch {
    return resolve(abs);
  }
}

/**
 * `start` and each folder above it up to the root, at most `max` of them, as a program that looks
 * for its settings file "here or above" walks: by where each really is, so the `..` of a linked
 * folder is its target's parent, and the walk ends where `..` leads nowhere new.
 */
export function* foldersUp(start: string, max = 64): Generator<string> {
  let dir = start;
  for (let level = 0; level < max; level++) {
    yield dir;
    const up = kernelJoin(dir, '..');
    if (existingLocation(up) === existingLocation(dir)) return;
    dir = up;
  }
}

/**
 * Where a path leads for the process that will open it: as `realLocation`, except that
 * `/proc/self` and `/proc/thread-self` are kept as written (`/etc/mtab -> /proc/self/mounts` is
 * the command's own mounts, not this process's).
 */
export function procLocation(abs: string): string {
  const start = kernelJoin(process.cwd(), abs);
  try {
    return walk(start, true).location;
  } catch {
    return resolve(start);
  }
}

/**
 * Where the name itself lies, as the kernel walks to it: the folder walked (links followed, `..`
 * taken after them, /proc/self kept as in `procLocation`), then the last name as written, not
 * followed. What a path is *called* where it ends: `x/../../dev/stdin` with `x -> a/b/c` is
 * `a/dev/stdin`, not /dev/stdin; `node_modules/p/../../.env` through pnpm's links is the
 * workspace's `.env` link, whatever it points at. Folding `..` as text (`resolve`) gets both
 * wrong (pass 39 C4, C6).
 */
export function entryLocation(abs: string): string {
  const start = kernelJoin(process.cwd(), abs).replace(/(?<=.)[\\/]+$/, '');
  const name = basename(start);
  if (name === '' || name === '.' || name === '..') return procLocation(start);
  return join(procLocation(dirname(start)), name);
}

/**
 * The path as the command spells it, once the kernel has taken its `..`: the part up to the last
 * `..` walked as the kernel walks it (links followed), the rest as written, no link in it followed.
 * What a deny rule on a name (a linked `.env`, a linked folder `cfg/`) must be matched against:
 * `node_modules/p/../../../cfg/k.txt` through pnpm's links is the workspace's `cfg/k.txt`, which
 * neither folding `..` as text nor the real location names (pass 43 C4b).
 */
export function spelledLocation(abs: string): string {
  const start = kernelJoin(process.cwd(), abs);
  const root = parse(start).root;
  const names = start.slice(root.length).split(SEPARATORS).filter((n) => n !== '' && n !== '.');
  const last = names.lastIndexOf('..');
  if (last < 0) return join(root, ...names);
  // Not `join` for the head: it would fold the `..` as text, the very thing to avoid.
  return join(procLocation(root + names.slice(0, last + 1).join(sep)), ...names.slice(last + 1));
}

/**
 * Whether the kernel's walk of `abs` passes through /proc or /dev/fd, written so or by a link:
 * `/proc/self/cwd` and `/dev/fd/N` are the opening process's own, so only it knows where they lead.
 */
export function passesThroughProc(abs: string): boolean {
  const start = kernelJoin(process.cwd(), abs);
  try {
    return walk(start, true).viaProc === true;
  } catch {
    return /^\/(proc|dev\/fd)(\/|$)/.test(resolve(start));
  }
}

/**
 * Whether `abs` has a `..` after a name that does not exist yet (or after a loop of links): its
 * `realLocation` is then only the text's guess, since the kernel would walk whatever is made there.
 */
export function upPastMissing(abs: string): boolean {
  const start = kernelJoin(process.cwd(), abs);
  if (!UP.test(start)) return false;
  try {
    return walk(start).upPastMissing === true;
  } catch {
    return true;
  }
}

/** The same as `realLocation`, without blocking the event loop on the common case. */
export async function realLocationAsync(abs: string): Promise<string> {
  const start = kernelJoin(process.cwd(), abs);
  if (!UP.test(start)) {
    const real = await fs.realpath(start).catch(() => undefined);
    if (real) return real;
  }
  return realLocation(start);
}

/** The realpath of an existing path, or undefined (missing, a dangling link, a loop). */
export async function realPathOf(p: string): Promise<string | undefined> {
  return fs.realpath(p).catch(() => undefined);
}

/**
 * Whether `abs` is `root` or lies under it where both really are: a symlink in the workspace
 * pointing out of it is outside; a path that does not exist yet is judged by where it would be
 * created.
 */
export function isInside(root: string, abs: string): boolean {
  const r = resolve(root);
  return within(realLocation(r), realLocation(kernelJoin(r, abs)));
}

