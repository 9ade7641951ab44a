import { promises as fs } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

export type Openable = { ok: true; file: string } | { ok: false; reason: string };

const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Where a path from a tool card may be opened: a regular file inside one of the workspace
 * folders, after following links (a link in the workspace to a file elsewhere is refused).
 * The panel's content comes from the model, so the link it carries is checked here, not trusted.
 */
export async function resolveOpenable(roots: readonly string[], path: string): Promise<Openable> {
  if (!roots.length) return { ok: false, reason: 'no folder is open' };
  if (path.includes('\0')) return { ok: false, reason: 'the path is not valid' };
  const candidate = resolve(roots[0]!, path);
  let real: string;
  try {
    real = await fs.realpath(candidate);
  } catch {
    return { ok: false, reason: `${path} does not exist` };
  }
  const realRoots = await Promise.all(roots.map((r) => fs.realpath(r).catch(() => r)));
  if (!realRoots.some((r) => inside(r, real))) return { ok: false, reason: `${path} is outside the workspace` };
  const st = await fs.stat(real);
  if (!st.isFile()) return { ok: false, reason: `${path} is not a file` };
  return { ok: true, file: real };
}
