import { join } from 'node:path';
import { BlobBudgetSpent, hashOf } from './blobs';
import { emptyFileImage, imageOf, statKey, type StoreCore } from './core';
import { compareFingerprints, takeFingerprint, type Fingerprint, type FingerprintDiff, type FingerprintEntry, type FingerprintLimits } from './fingerprint';
import type { GitPreImages, GitWanted } from './git';
import { sameImage, sameStat, type Image, type ManifestRecord } from './manifest';
import { TreeWatcher } from './treeWatch';

/** Taken before a command: the fingerprint (a watcher's, kept current), or why Bash changes are not tracked. */
export interface BashWatch {
  fp?: Fingerprint;
  watcher?: TreeWatcher;
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
const MAX_BASH_CHANGES = 5000;
/** What is read back after a command, all files together. */
const MAX_AFTER_BYTES = 256 * 1024 * 1024;

export const NOT_RESTORABLE = 'changed by Bash, cannot be restored: no exact copy of it from before the command exists';

function offNotice(detail: string): string {
  return `Changes made by Bash commands are not tracked in this workspace: it has ${detail}. Changes by Write and Edit are still kept and can be restored; files a Bash command changes cannot. (Files .gitignore ignores, node_modules, .git and files outside the workspace are never tracked.)`;
}

/** How each changed path was before the command, where that is known exactly. */
async function beforeImages(core: StoreCore, pre: (rel: string) => FingerprintEntry | undefined, paths: readonly string[], git: GitPreImages | undefined): Promise<Map<string, Image>> {
  const out = new Map<string, Image>();
  const wanted: GitWanted[] = [];
  for (const rel of paths) {
    const e = pre(rel);
    if (!e) continue;
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
      const e = pre(rel)!;
      // Past the store's budget the path is left without an image: not restorable, as one too large is.
      const h = await core.blobs.put(bytes, hashOf(bytes)).catch((err: unknown) => {
        if (err instanceof BlobBudgetSpent) return undefined;
        throw err;
      });
      if (h !== undefined) out.set(rel, { k: 'file', h, mode: e.mode & 0o7777, size: bytes.length });
    }
  }
  return out;
}

/** What a command changed, and each changed path's entry from before it. */
interface CommandChanges {
  diff: FingerprintDiff;
  pre(rel: string): FingerprintEntry | undefined;
}

/** Records the changes in checkpoint `cp`, each with its image from before (where one is known exactly). */
async function record(core: StoreCore, changes: CommandChanges, cp: string, git: GitPreImages | undefined): Promise<BashReport> {
  const { diff } = changes;
  const all = [...diff.modified.map((rel) => ({ rel, kind: 'modified' as const })), ...diff.deleted.map((rel) => ({ rel, kind: 'deleted' as const })), ...diff.created.map((rel) => ({ rel, kind: 'created' as const }))];
  const list = all.slice(0, MAX_BASH_CHANGES);
  const befores = await beforeImages(
    core,
    changes.pre,
    list.filter((c) => c.kind !== 'created').map((c) => c.rel),
    git,
  );
  const records: ManifestRecord[] = [];
  const out: BashChange[] = [];
  let budget = MAX_AFTER_BYTES;
  for (const c of list) {
    const path = join(core.workspace, c.rel);
    const before: Image = c.kind === 'created' ? { k: 'absent' } : (befores.get(c.rel) ?? { k: 'unknown', why: NOT_RESTORABLE });
    let afterImage: Image = { k: 'absent' };
    let st;
    if (c.kind !== 'deleted') {
      const read = await imageOf(path, Math.min(core.maxFileBytes, Math.max(0, budget)), core.blobs, false);
      afterImage = read.image;
      if (read.entry) st = statKey(read.entry);
      budget -= read.bytes?.length ?? 0;
    }
    // Touched but the same (a `touch`, a rewrite with the same bytes): not a change.
    if (before.k !== 'unknown' && sameImage(before, afterImage)) continue;
    const n = core.ledger.nextN();
    records.push({ t: 'change', n, cp, path, by: 'Bash', before }, { t: 'after', n, image: afterImage, ...(st ? { st } : {}) });
    out.push({ path, rel: c.rel, kind: c.kind, restorable: before.k !== 'unknown', ...(before.k === 'unknown' ? { why: before.why } : {}) });
  }
  if (all.length > list.length) records.push({ t: 'note', cp, text: `A Bash command changed ${all.length} files; only the first ${list.length} are tracked.` });
  await core.append(records);
  return { changes: out, uncounted: all.length - list.length };
}

/**
 * Bash change detection for one session: a fingerprint of the workspace before each command and
 * a comparison after it. Where folder watches can be trusted (see TreeWatcher) the fingerprint is
 * kept current by them and a command costs what it changed; elsewhere, or when the watch fails,
 * the tree is walked before and after. Past the limits, tracking is off for the session, said once.
 */
export class BashTracker {
  private off: string | undefined;
  private noticeGiven = false;
  private watcher: TreeWatcher | undefined;
  /** Watching is not tried again after it failed in a way a restart would not mend. */
  private watching = true;

  constructor(
    private readonly core: StoreCore,
    private readonly opts: { limits: FingerprintLimits; git?: GitPreImages; markerDir: string; watch: boolean },
  ) {
    this.watching = opts.watch;
  }

  async before(): Promise<BashWatch> {
    if (this.off) return { off: this.off };
    if (this.watching && !this.watcher) {
      const started = await TreeWatcher.start(this.core.workspace, this.opts.markerDir, this.opts.limits);
      if (started && 'off' in started) return { off: started.off };
      if (started) this.watcher = started;
      else this.watching = false;
    }
    if (this.watcher) {
      const fp = await this.watcher.before();
      if (fp) return { fp, watcher: this.watcher };
      this.dropWatcher();
    }
    const r = await takeFingerprint(this.core.workspace, this.opts.limits);
    return r.ok ? { fp: r.fp } : { off: r.detail };
  }

  private dropWatcher(): void {
    if (!this.watcher?.restartable) this.watching = false;
    this.watcher?.dispose();
    this.watcher = undefined;
  }

  /** Compares with the fingerprint from before the command and records what changed in `cp`. */
  async after(watch: BashWatch, cp: string | undefined): Promise<BashReport> {
    const report = await this.compare(watch, cp);
    if (report.off) this.off = report.off;
    if (report.notice && this.noticeGiven) delete report.notice;
    if (report.notice) this.noticeGiven = true;
    return report;
  }

  private async compare(watch: BashWatch, cp: string | undefined): Promise<BashReport> {
    if (watch.off || !watch.fp || !cp) {
      const off = watch.off ?? 'no fingerprint was taken before the command';
      return { changes: [], off, notice: offNotice(off), uncounted: 0 };
    }
    const before = watch.fp;
    if (watch.watcher) {
      const heard = await watch.watcher.after();
      if (heard) return record(this.core, { diff: heard.diff, pre: (rel) => heard.pre.get(rel) }, cp, this.opts.git);
      // The watch could not say: its fingerprint from before is intact, and a walk says the rest.
      this.dropWatcher();
    }
    const after = await takeFingerprint(this.core.workspace, this.opts.limits, before);
    if (!after.ok) return { changes: [], off: after.detail, notice: offNotice(after.detail), uncounted: 0 };
    return record(this.core, { diff: compareFingerprints(before, after.fp), pre: (rel) => before.entries.get(rel) }, cp, this.opts.git);
  }

  dispose(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
  }
}
