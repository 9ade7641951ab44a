// Where a path really is, and whether it lies inside a folder: the one place that decides both.
// Every other module asks here rather than comparing strings itself: a hand-written check
// (`rel.startsWith('..')`) reads a file named `..notes` as outside, and one that forgets
// symlinks reads a link to ~/.ssh as inside.
import { promises as fs, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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

/**
 * Where a path really is: the realpath of its longest existing prefix, with the part that does
 * not exist yet added back. A new file inside a symlinked folder lands where the link points;
 * a dangling link is judged as itself (writing replaces it, and nothing is made where it points).
 */
export function realLocation(abs: string): string {
  let existing = resolve(abs);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(abs);
      rest.push(existing.slice(parent.length).replace(/^[\\/]+/, ''));
      existing = parent;
    }
  }
}

/** Where the longest part of `abs` that exists really is (`/` when nothing under the root does). */
export function existingLocation(abs: string): string {
  let existing = resolve(abs);
  for (;;) {
    try {
      return realpathSync(existing);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return existing;
      existing = parent;
    }
  }
}

/** The same, without blocking the event loop. */
export async function realLocationAsync(abs: string): Promise<string> {
  let existing = resolve(abs);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(abs);
      rest.push(existing.slice(parent.length).replace(/^[\\/]+/, ''));
      existing = parent;
    }
  }
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
  return within(realLocation(r), realLocation(resolve(r, abs)));
}

