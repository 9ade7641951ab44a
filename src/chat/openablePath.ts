import { resolve } from 'node:path';
import { realPathOf, within } from '../fs/paths';
import { inspect } from '../fs/stat';

export type Openable = { ok: true; file: string } | { ok: false; reason: string };

/**
 * Where a path from a tool card may be opened: a regular file inside one of the workspace
 * folders, after following links (a link in the workspace to a file elsewhere is refused).
 * The panel's content comes from the model, so the link it carries is checked here, not trusted.
 */
export async function resolveOpenable(roots: readonly string[], path: string): Promise<Openable> {
  if (!roots.length) return { ok: false, reason: 'no folder is open' };
  if (path.includes('\0')) return { ok: false, reason: 'the path is not valid' };
  const candidate = resolve(roots[0]!, path);
  const real = await realPathOf(candidate);
  if (!real) return { ok: false, reason: `${path} does not exist` };
  const realRoots = await Promise.all(roots.map(async (r) => (await realPathOf(r)) ?? r));
  if (!realRoots.some((r) => within(r, real))) return { ok: false, reason: `${path} is outside the workspace` };
  if ((await inspect(real)).kind !== 'file') return { ok: false, reason: `${path} is not a file` };
  return { ok: true, file: real };
}
