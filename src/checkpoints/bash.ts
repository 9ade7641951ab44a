import { join } from 'node:path';
import { hashOf } from './blobs';
import { emptyFileImage, imageOf, statKey, type StoreCore } from './core';
import { compareFingerprints, takeFingerprint, type Fingerprint, type FingerprintEntry, type FingerprintLimits } from './fingerprint';
import type { GitPreImages, GitWanted } from './git';
import { sameImage, sameStat, type Image, type ManifestRecord } from './manifest';

/** Taken before a command: the fingerprint, or why Bash changes are not tracked. */
export interface BashWatch {
  fp?: Fingerprint;
  off?: string;
}

export interface BashChange {
  path: string;
  /** Relative to the workspace, '/'-separated. */
  rel: string;
  kind: 'created' | 'deleted' | 'modified';
  /** An exact copy of how it was before the command is kept. */
  restorable: boolean;
  /** Why it cannot be restored. */
  why?: string;
}

export interface BashReport {
  changes: BashChange[];
  /** Set when Bash changes are not tracked (for this command and the rest of the session). */
  off?: string;
  /** What to tell the user, once per session, when tracking is off. */
  notice?: string;
  /** Changed paths beyond the cap, listed nowhere. */
  uncounted: number;
}

/** A command that changes more than this is tracked for the first this many paths only. */
export const MAX_BASH_CHANGES = 5000;
/** What is read back after a command, all files together. */
const MAX_AFTER_BYTES = 256 * 1024 * 1024;

export const NOT_RESTORABLE = 'changed by Bash, cannot be restored: no exact copy of it from before the command exists';

function offNotice(detail: string): string {
  return `Changes made by Bash commands are not tracked in this workspace: it has ${detail}. Changes by Write and Edit are still kept and can be restored; files a Bash command changes cannot. (Files .gitignore ignores, node_modules, .git and files outside the workspace are never tracked.)`;
}

export async function beforeBash(root: string, limits: FingerprintLimits, off: string | undefined): Promise<BashWatch> {
  if (off) return { off };
  const r = await takeFingerprint(root, limits);
  return r.ok ? { fp: r.fp } : { off: r.detail };
}

/** How each changed path was before the command, where that is known exactly. */
async function beforeImages(core: StoreCore, fp: Fingerprint, paths: readonly string[], git: GitPreImages | undefined): Promise<Map<string, Image>> {
  const out = new Map<string, Image>();
  const wanted: GitWanted[] = [];
  for (const rel of paths) {
    const e = fp.entries.get(rel) as FingerprintEntry;
    if (e.kind === 'symlink' && e.link !== undefined) {
      out.set(rel, { k: 'link', to: e.link });
      continue;
    }
    if (e.size === 0) {
      await core.blobs.put(Buffer.alloc(0));
      out.set(rel, emptyFileImage(e.mode));
      continue;
    }
    // Hashed by the walk (written just before it): a copy with that hash may be kept already.
    if (e.hash !== undefined && (await core.blobs.has(e.hash))) {
      out.set(rel, { k: 'file', h: e.hash, mode: e.mode & 0o7777, size: e.size });
      continue;
    }
    // Unchanged since the session last left it: it holds what was left (a copy is kept).
    const last = core.ledger.lastLeft(join(core.workspace, rel));
    if (e.hash === undefined && last?.image.k === 'file' && last.st && sameStat(last.st, statKey(e)) && (await core.blobs.has(last.image.h))) {
      out.set(rel, last.image);
      continue;
    }
    wanted.push({ rel, pre: statKey(e) });
  }
  if (git && wanted.length) {
    const found = await git(core.workspace, wanted).catch(() => new Map<string, Buffer>());
    for (const [rel, bytes] of found) {
      const e = fp.entries.get(rel)!;
      const h = await core.blobs.put(bytes, hashOf(bytes));
      out.set(rel, { k: 'file', h, mode: e.mode & 0o7777, size: bytes.length });
    }
  }
  return out;
}

/** Compares with the fingerprint from before the command and records what changed. */
export async function afterBash(core: StoreCore, watch: BashWatch, opts: { cp: string | undefined; limits: FingerprintLimits; git?: GitPreImages }): Promise<BashReport> {
  if (watch.off || !watch.fp || !opts.cp) {
    const off = watch.off ?? 'no fingerprint was taken before the command';
    return { changes: [], off, notice: offNotice(off), uncounted: 0 };
  }
  const after = await takeFingerprint(core.workspace, opts.limits, watch.fp);
  if (!after.ok) return { changes: [], off: after.detail, notice: offNotice(after.detail), uncounted: 0 };
  const diff = compareFingerprints(watch.fp, after.fp);
  const all = [...diff.modified.map((rel) => ({ rel, kind: 'modified' as const })), ...diff.deleted.map((rel) => ({ rel, kind: 'deleted' as const })), ...diff.created.map((rel) => ({ rel, kind: 'created' as const }))];
  const list = all.slice(0, MAX_BASH_CHANGES);
  const befores = await beforeImages(
    core,
    watch.fp,
    list.filter((c) => c.kind !== 'created').map((c) => c.rel),
    opts.git,
  );
  const records: ManifestRecord[] = [];
  const changes: BashChange[] = [];
  let budget = MAX_AFTER_BYTES;
  for (const c of list) {
    const path = join(core.workspace, c.rel);
    const before: Image = c.kind === 'created' ? { k: 'absent' } : (befores.get(c.rel) ?? { k: 'unknown', why: NOT_RESTORABLE });
    let afterImage: Image = { k: 'absent' };
    let st;
    if (c.kind !== 'deleted') {
      const read = await imageOf(path, Math.min(core.maxFileBytes, Math.max(0, budget)), core.blobs);
      afterImage = read.image;
      if (read.entry) st = statKey(read.entry);
      budget -= read.bytes?.length ?? 0;
    }
    // Touched but the same (a `touch`, a rewrite with the same bytes): not a change.
    if (before.k !== 'unknown' && sameImage(before, afterImage)) continue;
    const n = core.ledger.nextN();
    records.push({ t: 'change', n, cp: opts.cp, path, by: 'Bash', before }, { t: 'after', n, image: afterImage, ...(st ? { st } : {}) });
    changes.push({ path, rel: c.rel, kind: c.kind, restorable: before.k !== 'unknown', ...(before.k === 'unknown' ? { why: before.why } : {}) });
  }
  if (all.length > list.length) records.push({ t: 'note', cp: opts.cp, text: `A Bash command changed ${all.length} files; only the first ${list.length} are tracked.` });
  await core.append(records);
  return { changes, uncounted: all.length - list.length };
}
