import { join } from 'node:path';
import { GitignoreRules, SKIPPED_DIRS } from '../tools/walk';
import { hashOf } from './blobs';
import { listTree, statMany } from './fileScan';
import { readEntry, type Entry } from './files';

/**
 * What Bash change detection looks at: the workspace's files that .gitignore does not ignore,
 * outside `.git` and `node_modules`. Each is known by (size, mtime, ctime, inode, mode), as git's
 * index knows a file; a link also by its text. Two fingerprints, before and after a command,
 * tell which paths it created, deleted or changed.
 */
export interface FingerprintEntry extends Entry {
  link?: string;
  /** The content's hash, for a file written just before the walk (see RACY_MS). */
  hash?: string;
}

export interface Fingerprint {
  root: string;
  entries: Map<string, FingerprintEntry>;
  /** The ignore rules as read by this walk: the walk after a command reuses them. */
  rules: GitignoreRules;
  ms: number;
}

export type FingerprintOutcome = { ok: true; fp: Fingerprint } | { ok: false; reason: 'too-many-files' | 'too-slow' | 'unreadable'; detail: string };

export interface FingerprintLimits {
  /** More files than this and the workspace is not fingerprinted. */
  maxFiles: number;
  /** Nor when listing and stat-ing them takes longer than this. */
  maxMs: number;
  /** Changes heard at once past which a folder watch is not trusted and the tree is walked (8,000). */
  maxEvents?: number;
}

/** 100,000 files stat in well under a second on an SSD; past either bound, Bash changes are not tracked. */
export const DEFAULT_FINGERPRINT_LIMITS: FingerprintLimits = { maxFiles: 100_000, maxMs: 2000 };

/**
 * A file written this shortly before a walk could be written again within the same tick of the
 * file system's clock, with the same size, and look unchanged (git's "racily clean" entries). Its
 * content is hashed as well, and hashed again by the next walk while its stat stays the same.
 */
export const RACY_MS = 200;
const RACY_MAX_FILES = 256;
const RACY_MAX_BYTES = 16 * 1024 * 1024;

export { SKIPPED_DIRS };

const baseName = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

const sameStat = (a: FingerprintEntry, b: FingerprintEntry) =>
  a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.mode === b.mode && a.link === b.link;

/** Hashes the racy files (and those the earlier walk hashed, while their stat is unchanged). */
async function hashRacy(root: string, entries: Map<string, FingerprintEntry>, t0: number, prev: Fingerprint | undefined): Promise<void> {
  let files = 0;
  for (const [rel, e] of entries) {
    if (e.kind !== 'file' || files >= RACY_MAX_FILES) continue;
    const was = prev?.entries.get(rel);
    if (!(t0 - e.mtimeMs < RACY_MS || (was?.hash !== undefined && sameStat(was, e)))) continue;
    files++;
    const r = await readEntry(join(root, rel), RACY_MAX_BYTES);
    if (r.kind === 'file') e.hash = hashOf(r.bytes);
  }
}

/**
 * Fingerprints the workspace, within the limits. The walk after a command passes the one from
 * before it: its ignore rules are reused and its hashed files hashed again.
 */
export async function takeFingerprint(root: string, limits: FingerprintLimits = DEFAULT_FINGERPRINT_LIMITS, prev?: Fingerprint): Promise<FingerprintOutcome> {
  const rules = prev?.rules ?? new GitignoreRules(root);
  const t0 = Date.now();
  const deadline = t0 + limits.maxMs;
  rules.load('');
  let listing;
  try {
    listing = await listTree(root, {
      maxFiles: limits.maxFiles,
      signal: AbortSignal.timeout(limits.maxMs),
      skipDir: (rel) => {
        if (rel === '') return false;
        if (SKIPPED_DIRS.includes(baseName(rel)) || rules.ignored(rel, true)) return true;
        rules.load(rel);
        return false;
      },
      skipFile: (rel) => rules.ignored(rel, false),
    });
  } catch (err) {
    return { ok: false, reason: 'unreadable', detail: err instanceof Error ? err.message : String(err) };
  }
  if (listing.truncated) return { ok: false, reason: 'too-many-files', detail: `more than ${limits.maxFiles.toLocaleString('en-US')} files` };
  if (Date.now() > deadline) return { ok: false, reason: 'too-slow', detail: `listing the files took more than ${limits.maxMs} ms` };
  const { entries, complete } = await statMany(root, listing.paths, deadline);
  if (!complete) return { ok: false, reason: 'too-slow', detail: `reading ${listing.paths.length.toLocaleString('en-US')} files took more than ${limits.maxMs} ms` };
  const map = new Map<string, FingerprintEntry>();
  listing.paths.forEach((rel, i) => {
    const e = entries[i];
    if (e && (e.kind === 'file' || e.kind === 'symlink')) map.set(rel, e);
  });
  await hashRacy(root, map, t0, prev);
  return { ok: true, fp: { root, entries: map, rules, ms: Date.now() - t0 } };
}

/** The same entry: the same stat, and the same content where both were hashed. */
export const sameEntry = (a: FingerprintEntry, b: FingerprintEntry) => sameStat(a, b) && (a.hash === undefined || b.hash === undefined || a.hash === b.hash);

export interface FingerprintDiff {
  created: string[];
  deleted: string[];
  modified: string[];
}

/** What differs between two fingerprints of one root (a rename shows as a delete and a create). */
export function compareFingerprints(before: Fingerprint, after: Fingerprint): FingerprintDiff {
  const created: string[] = [];
  const deleted: string[] = [];
  const modified: string[] = [];
  for (const [rel, a] of after.entries) {
    const b = before.entries.get(rel);
    if (!b) created.push(rel);
    else if (!sameEntry(a, b)) modified.push(rel);
  }
  for (const rel of before.entries.keys()) if (!after.entries.has(rel)) deleted.push(rel);
  return { created: created.sort(), deleted: deleted.sort(), modified: modified.sort() };
}
