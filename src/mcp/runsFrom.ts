import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside, realLocation } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { inspect } from '../fs/stat';
import { listTree } from '../fs/list';
import type { McpServerSpec } from './config/types';

// An approval covered a project server's definition only: the workspace files its command runs
// (`node scripts/mcp.js`) could change under it, by an edit the rules allow (`Edit(src/**)`) or a
// pull, and the next start ran them (pass 84 H1, 87 H2). An approval now also covers what the
// command takes from the workspace: each file it names, the folder tree such a file lies in (its
// imports), and the package a runner would take from the workspace's node_modules (`npx pkg`) or
// the module `python -m` would find there. Any change asks again.

/** What is read to know it; past either, what was listed is still covered and the rest is not. */
const MAX_FILES = 2000;
const MAX_BYTES_EACH = 4 * 1024 * 1024;

const NODE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);

/** The workspace files and folders the command takes, by its words. */
function namedPlaces(spec: McpServerSpec, startDir: string): { files: string[]; folders: string[] } {
  const words = [spec.command ?? '', ...(spec.args ?? [])];
  const files: string[] = [];
  const folders: string[] = [];
  const base = spec.cwd ? resolve(startDir, spec.cwd) : startDir;
  for (const w of words) {
    const value = w.startsWith('-') && w.includes('=') ? w.slice(w.indexOf('=') + 1) : w;
    if (!value || value.startsWith('-') || /^[a-z][\w+.-]*:\/\//i.test(value)) continue;
    files.push(isAbsolute(value) ? value : join(base, value));
  }
  const name = basename(spec.command ?? '');
  const args = spec.args ?? [];
  // `npx -y @scope/pkg`: the first word that is not an option names the package it runs.
  if (NODE_RUNNERS.has(name) || ((name === 'npm' || name === 'pnpm' || name === 'yarn') && ['exec', 'dlx'].includes(args[0] ?? ''))) {
    const pkg = args.find((a, i) => !a.startsWith('-') && !(i === 0 && ['exec', 'dlx'].includes(a)));
    if (pkg) folders.push(join(base, 'node_modules', pkg.replace(/(?<=.)@[^/]*$/, '')), join(base, 'node_modules', '.bin'));
  }
  const m = args.indexOf('-m');
  if (/^python/.test(name) && m >= 0 && args[m + 1]) {
    const mod = args[m + 1]!.split('.')[0]!;
    files.push(join(base, `${mod}.py`));
    folders.push(join(base, mod));
  }
  return { files, folders };
}

/** A digest of what the server's command takes from the workspace (empty when it takes nothing). */
export async function workspaceFingerprint(spec: McpServerSpec, startDir: string, workspace: string): Promise<string> {
  if (spec.transport !== 'stdio') return '';
  const root = realLocation(workspace);
  const { files, folders } = namedPlaces(spec, startDir);
  const trees = new Set<string>();
  const named: string[] = [];
  for (const f of files) {
    const real = realLocation(f);
    if (!isInside(root, real)) continue;
    const kind = (await inspect(real)).kind;
    if (kind === 'file') {
      named.push(real);
      // The folder it lies in holds what it imports; the workspace's top is too wide to stand for that.
      if (dirname(real) !== root) trees.add(dirname(real));
    } else if (kind === 'folder' && real !== root) trees.add(real);
  }
  for (const f of folders) {
    const real = realLocation(f);
    if (isInside(root, real) && real !== root && (await inspect(real)).kind === 'folder') trees.add(real);
  }
  if (named.length === 0 && trees.size === 0) return '';
  const h = createHash('sha256');
  const add = async (path: string) => {
    const read = await readRegularFile(path, MAX_BYTES_EACH);
    h.update(`${path}\0${read.ok ? createHash('sha256').update(read.bytes).digest('hex') : 'unread'}\0`);
  };
  for (const f of named) await add(f);
  for (const t of [...trees].sort()) {
    const listing = await listTree(t, { within: [root], wanted: () => true, maxFiles: MAX_FILES, maxEntries: MAX_FILES * 4, timeLimitMs: 5000 });
    h.update(`${t}\0${listing.files.length}\0${listing.stopped ?? ''}\0`);
    for (const f of listing.files) await add(f);
  }
  return h.digest('hex').slice(0, 32);
}
