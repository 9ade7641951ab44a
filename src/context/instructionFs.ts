// Instruction files through the file-system gate: regular files only, capped, and rules folders
// listed without following a link out of the places their level may read.
import { dirname, join } from 'node:path';
import { listTree } from '../fs/list';
import { realPathOf, within } from '../fs/paths';
import { readCapped } from '../fs/read';

export { exists } from '../fs/stat';

export const MAX_FILE_BYTES = 512 * 1024;

/**
 * A rules folder is a handful of markdown files. A repository can make it a link to / or to the
 * home folder: discovery then stops at these bounds instead of walking the machine.
 */
export const RULES_MAX_FILES = 500;
const RULES_MAX_ENTRIES = 5000;
const RULES_TIME_LIMIT_MS = 2000;

export type ReadOutcome = { text: string; capped: boolean } | { skip: 'missing' | 'unreadable' | 'binary' | 'not-a-file' };

/**
 * Reads an instruction file: regular files only (a FIFO, socket, device or folder named
 * CLAUDE.md is skipped, never opened for a blocking read), at most MAX_FILE_BYTES of it.
 */
export async function readInstructionFile(p: string): Promise<ReadOutcome> {
  const read = await readCapped(p, { maxBytes: MAX_FILE_BYTES });
  if (!read.ok) return { skip: read.reason === 'missing' ? 'missing' : read.reason === 'unreadable' ? 'unreadable' : 'not-a-file' };
  if (read.bytes.subarray(0, 8192).includes(0)) return { skip: 'binary' };
  return { text: read.bytes.toString('utf8'), capped: read.capped };
}

/**
 * The `.md` files under a rules folder, sorted, following symlinked files and folders only while
 * they stay within `within` (the real folders the level may read: a `.claude/rules` linked to / or
 * to the home folder is not entered at all), each real folder once, within the bounds above.
 * Files that are not regular once resolved are left to the reader, which reports them.
 */
export async function listRules(dir: string, within: readonly string[]): Promise<RulesListing> {
  const t = await listTree(dir, { within, wanted: (name) => name.endsWith('.md'), maxFiles: RULES_MAX_FILES, maxEntries: RULES_MAX_ENTRIES, timeLimitMs: RULES_TIME_LIMIT_MS });
  const left: RulesListing['left'] = t.outside.map((o) => ({ path: o.path, realPath: o.real, reason: 'linked-folder-outside', warning: `a link to ${o.real}, outside the folders these rules may come from: not read` }));
  if (t.stopped) {
    const bound = t.stopped === 'files' ? `${RULES_MAX_FILES} files` : t.stopped === 'entries' ? `${RULES_MAX_ENTRIES} entries` : `${RULES_TIME_LIMIT_MS / 1000} s`;
    left.push({ path: dir, reason: 'discovery-capped', warning: `rules discovery stopped at ${bound}; the rest of this folder is not read` });
  }
  return { files: t.files, left };
}

export interface RulesListing {
  /** The rule files found, by the path that led to them. */
  files: string[];
  /** What discovery left out: a folder linked out of the allowed places, or the rest past a bound. */
  left: Array<{ path: string; realPath?: string; reason: 'linked-folder-outside' | 'discovery-capped'; warning: string }>;
}

/** Folders from the filesystem root (or the given stop) down to cwd, outermost first. */
export function foldersDownTo(cwd: string, stop: string): string[] {
  const dirs: string[] = [];
  let cur = cwd;
  for (;;) {
    dirs.unshift(cur);
    if (cur === stop || !within(stop, cur)) break;
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  return dirs;
}

/** The files looked for in every folder from the filesystem root down to cwd. */
export const FOLDER_FILES = ['CLAUDE.md', join('.claude', 'CLAUDE.md'), 'AGENTS.md', 'CLAUDE.local.md'];

/**
 * Where paths really are, each asked once, and the given ones all at once, now: a new session
 * looks at some twenty paths from the filesystem root down, nearly all missing, and asked one
 * after another those questions were most of its wait. Only locations are asked ahead; no file
 * is read before the loader's checks have passed it.
 */
export function locateAhead(paths: readonly string[]): (p: string) => Promise<string | undefined> {
  const located = new Map<string, Promise<string | undefined>>();
  const locate = (p: string): Promise<string | undefined> => {
    let r = located.get(p);
    if (!r) located.set(p, (r = realPathOf(p)));
    return r;
  };
  for (const p of paths) void locate(p);
  return locate;
}

/** A promise started ahead of its turn: a failure waits for that turn instead of going unhandled. */
export function ahead<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
