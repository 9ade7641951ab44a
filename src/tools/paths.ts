import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

import type { Tool } from './types';

export class ToolPathError extends Error {}

/**
 * The model's path made absolute and normalized: relative paths resolve against the workspace.
 * `~` is not expanded (a shell would, a file API does not); NUL bytes are refused.
 */
export function resolveToolPath(cwd: string, p: string): string {
  if (p.includes('\0') || cwd.includes('\0')) throw new ToolPathError('the path contains a NUL byte');
  return resolve(cwd, p);
}

/**
 * Where a path really is: realpath of its longest existing prefix, with the part that does not
 * exist yet added back. A new file inside a symlinked folder lands where the link points.
 */
export function realLocation(abs: string): string {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return abs;
      rest.push(existing.slice(parent.length).replace(/^[\\/]+/, ''));
      existing = parent;
    }
  }
}

/** Whether `p` is `root` or under it, by the path alone (no symlinks followed). */
export function isWithin(root: string, p: string): boolean {
  const rel = relative(resolve(root), resolve(p));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The paths a call touches; a tool that cannot say (bad input) touches none. */
export function toolPaths(tool: Tool, input: unknown, cwd: string): string[] {
  try {
    return tool.paths(input, cwd);
  } catch {
    return [];
  }
}

/**
 * Whether `abs` is `root` or lies under it. Existing files are judged by their real location,
 * so a symlink in the workspace pointing out of it counts as outside; paths that do not exist
 * yet are judged by where they would be created.
 */
export function isInside(root: string, abs: string): boolean {
  const r = resolve(root);
  const p = resolve(r, abs);
  return isWithin(realLocation(r), realLocation(p));
}
