import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

export class ToolPathError extends Error {}

/** The model's path, absolute: relative paths resolve against the workspace. */
export function resolveToolPath(cwd: string, p: string): string {
  if (p.includes('\0')) throw new ToolPathError('the path contains a NUL byte');
  return resolve(cwd, p);
}

/** The real location of `p`, or of its nearest existing ancestor plus the rest. */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    if (parent === p) return p;
    return resolve(real(parent), relative(parent, p));
  }
}

/**
 * Whether `abs` lies inside `root`, after following symlinks: a link in the workspace that
 * points elsewhere counts as elsewhere.
 */
export function isInside(root: string, abs: string): boolean {
  const r = real(resolve(root));
  const p = real(resolve(abs));
  const rel = relative(r, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
