import { createHash, randomUUID } from 'node:crypto';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { isInside, realLocation } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { inspect } from '../fs/stat';
import { listTree } from '../fs/list';
import type { McpServerSpec } from './config/types';

// An approval covered a project server's definition only: the workspace files its command runs
// (`node scripts/mcp.js`) could change under it, by an edit the rules allow (`Edit(src/**)`) or a
// pull, and the next start ran them (pass 84 H1, 87 H2). Which files a program reads is its own
// business (`./src/…`, `npm run`, NODE_OPTIONS, the project config `npx pkg` loads), so an approval
// covers the whole workspace as it was, but the top `.git` and `node_modules`, plus any package in
// that node_modules the command names. A change asks again; past the bound no approval holds.

/** What is read to know it: past these, what was read is covered and the rest is not (said in the README). */
const MAX_FILES = 20_000;
const MAX_BYTES_EACH = 64 * 1024 * 1024;
const MAX_BYTES = 512 * 1024 * 1024;
const TIME_LIMIT_MS = 15_000;

/** Runners of a package from a registry: they run its copy in the top node_modules, which the workspace walk leaves out. */
const NODE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);

/** What the command names that the workspace walk may leave out: files by its words, a runner's package folder. */
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
  return { files, folders };
}

/**
 * A digest of the workspace a server runs from, or `unchecked-…` (never the same twice) when it
 * is past what is read. Complete or not at all, so the order things are read in does not matter.
 */
export async function workspaceFingerprint(spec: McpServerSpec, startDir: string, workspace: string): Promise<string> {
  if (spec.transport !== 'stdio') return '';
  const root = realLocation(workspace);
  const { files, folders } = namedPlaces(spec, startDir);
  const first = new Set<string>();
  const trees = new Set<string>();
  for (const f of files) {
    const real = realLocation(f);
    if (!isInside(root, real)) continue;
    const kind = (await inspect(real)).kind;
    // A file in the top node_modules runs with its package: the package's folder counts (pass 99 M1).
    const pkg = /^(.*?\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(real.slice(0, root.length) === root ? real : '');
    if (pkg?.[1]) trees.add(pkg[1]);
    if (kind === 'file') first.add(real);
    else if (kind === 'folder') trees.add(real);
  }
  for (const f of folders) {
    const real = realLocation(f);
    if (isInside(root, real) && (await inspect(real)).kind === 'folder') trees.add(real);
  }
  // Every server starts in the workspace and may read any file there: a registry package's runner
  // too loads the project's config and what it requires (`npx pkg` with `pkg.config.js`, a docker
  // mount spelled any way), so the whole workspace counts for all (pass 96 H2).
  trees.add(root);
  if (first.size === 0 && trees.size === 0) return '';
  const h = createHash('sha256');
  let bytes = 0;
  let complete = true;
  const deadline = Date.now() + TIME_LIMIT_MS;
  const add = async (path: string) => {
    if (bytes > MAX_BYTES || Date.now() > deadline) {
      complete = false;
      return;
    }
    const read = await readRegularFile(path, MAX_BYTES_EACH);
    if (read.ok) bytes += read.bytes.length;
    // A file past the cap, or one that cannot be read, is not known by its name alone (pass 99 H1).
    else if ((await inspect(path)).kind !== 'missing') complete = false;
    h.update(`${path}\0${read.ok ? createHash('sha256').update(read.bytes).digest('hex') : 'missing'}\0`);
  };
  for (const f of [...first].sort()) await add(f);
  const seen = new Set(first);
  for (const t of [...trees].sort()) {
    // The top's node_modules is the packages' own and .git is git's; a node_modules lower down is
    // the workspace's own code, which Node finds first (`src/node_modules/leftpad`, pass 93 H1).
    const skip = t === root ? (n: string, parent: string) => parent === root && (n === '.git' || n === 'node_modules') : () => false;
    if (t !== root && [...trees].some((o) => o !== t && isInside(o, t) && o !== root)) continue;
    const listing = await listTree(t, { within: [root], wanted: () => true, skipFolder: skip, maxFiles: MAX_FILES, maxEntries: MAX_FILES * 4, timeLimitMs: Math.max(0, deadline - Date.now()) });
    // A folder linked out of the workspace is not walked: what it holds is not known (pass 99 L1).
    if (listing.stopped || listing.outside.length > 0) complete = false;
    h.update(`${t}\0${listing.files.length}\0`);
    for (const f of listing.files) if (!seen.has(f)) await add(f);
  }
  // Past the bound what was not read may hold the server's code (`.venv` sorting before `src`,
  // pass 93 M1): no digest can stand for it, so the approval holds for no later start.
  return complete ? h.digest('hex').slice(0, 32) : `unchecked-${randomUUID()}`;
}
