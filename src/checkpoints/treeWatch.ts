import { join } from 'node:path';
import type { IDisposable } from '../base/lifecycle';
import { hashOf } from './blobs';
import { listTree, statMany, watchDir, WATCH_ORDERED, type DirWatch } from './fileScan';
import { entryAt, makeDirs, readEntry, removeEntry, writeNew } from './files';
import { GitignoreRules } from '../tools/walk';
import { compareFingerprints, RACY_MS, sameEntry, SKIPPED_DIRS, takeFingerprint, type Fingerprint, type FingerprintDiff, type FingerprintEntry, type FingerprintLimits } from './fingerprint';

/** More events than this between two looks and the watch is not trusted: the tree is walked. */
const MAX_EVENTS = 8000;
/** Every this many commands, the watch is checked against a walk (a watch that misses is dropped). */
export const VERIFY_EVERY = 25;

const baseName = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);
const under = (rel: string, dir: string) => dir === '' || rel === dir || rel.startsWith(`${dir}/`);

/**
 * A fingerprint of the workspace kept current by watching its folders, so that a Bash command
 * costs what it changed, not a walk of the tree twice. Where folder watches report every change in
 * one ordered queue (Linux's inotify), a marker file written in a watched folder of our own and
 * seen come back proves that every change before it has been heard. Past MAX_EVENTS, or when a
 * periodic walk disagrees, it falls back to walking; elsewhere it is not used at all.
 */
export class TreeWatcher implements IDisposable {
  private readonly watches = new Map<string, DirWatch>();
  private dirty = new Set<string>();
  private events = 0;
  private failed: string | undefined;
  private markerWatch: DirWatch | undefined;
  private readonly waiting = new Map<string, () => void>();
  private seq = 0;
  private commands = 0;

  private constructor(
    private readonly root: string,
    private readonly markerDir: string,
    private readonly limits: FingerprintLimits,
    private fp: Fingerprint,
  ) {}

  /** Walks the tree and watches its folders; undefined where watches cannot be trusted or set. */
  static async start(root: string, markerDir: string, limits: FingerprintLimits): Promise<TreeWatcher | { off: string } | undefined> {
    if (!WATCH_ORDERED) return undefined;
    const rules = new GitignoreRules(root);
    const first = await TreeWatcher.dirs(root, rules, limits);
    if (!first) return undefined;
    const w = new TreeWatcher(root, markerDir, limits, { root, entries: new Map(), rules, ms: 0 });
    // Watched before the walk: a change made during it is heard, and settled at the first look.
    if (!(await w.watchMarker()) || !first.every((d) => w.watchFolder(d))) return w.dispose();
    const fp = await takeFingerprint(root, limits, w.fp);
    if (!fp.ok) {
      w.dispose();
      return { off: fp.detail };
    }
    w.fp = fp.fp;
    // Folders made between the first listing and their watch: walked and watched at the first look.
    for (const d of (await TreeWatcher.dirs(root, rules, limits)) ?? []) if (!w.watches.has(d)) w.dirty.add(d);
    return w;
  }

  private static async dirs(root: string, rules: GitignoreRules, limits: FingerprintLimits): Promise<string[] | undefined> {
    rules.load('');
    const l = await listTree(root, { maxFiles: limits.maxFiles, withDirs: true, skipDir: (rel) => TreeWatcher.skipped(rules, rel), skipFile: () => true }).catch(() => undefined);
    return l && !l.truncated ? l.dirs : undefined;
  }

  private static skipped(rules: GitignoreRules, rel: string): boolean {
    if (rel === '') return false;
    if (SKIPPED_DIRS.includes(baseName(rel)) || rules.ignored(rel, true)) return true;
    rules.load(rel);
    return false;
  }

  private watchFolder(rel: string): boolean {
    if (this.watches.has(rel)) return true;
    const w = watchDir(
      join(this.root, rel),
      (name) => this.heard(rel, name),
      () => this.heard(rel, null),
    );
    if (!w) return false;
    this.watches.set(rel, w);
    return true;
  }

  private heard(dir: string, name: string | null): void {
    this.events++;
    if (name === null) this.failed = `a change in ${dir || 'the workspace folder'} was reported without a name`;
    else this.dirty.add(dir ? `${dir}/${name}` : name);
  }

  private async watchMarker(): Promise<boolean> {
    await makeDirs(this.markerDir);
    this.markerWatch = watchDir(
      this.markerDir,
      (name) => name && this.waiting.get(name)?.(),
      () => (this.failed = 'the marker folder could not be watched'),
    );
    return this.markerWatch !== undefined;
  }

  /** Resolves once every change made before the call has been heard. */
  private async sync(): Promise<void> {
    const name = `m-${++this.seq}`;
    const heard = new Promise<void>((resolve) => this.waiting.set(name, resolve));
    const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 2000).unref());
    await writeNew(join(this.markerDir, name), Buffer.alloc(0));
    const r = await Promise.race([heard, timeout]);
    this.waiting.delete(name);
    await removeEntry(join(this.markerDir, name));
    if (r === 'late') this.failed = 'a change made on purpose was not heard within 2 s';
  }

  /** Applies what was heard: the paths that changed, with their entries before and after. */
  private async settle(): Promise<Map<string, { before?: FingerprintEntry; after?: FingerprintEntry }>> {
    const changed = new Map<string, { before?: FingerprintEntry; after?: FingerprintEntry }>();
    const set = (rel: string, after: FingerprintEntry | undefined) => {
      const was = changed.get(rel);
      const before = was ? was.before : this.fp.entries.get(rel);
      if (after) this.fp.entries.set(rel, after);
      else this.fp.entries.delete(rel);
      changed.set(rel, { ...(before ? { before } : {}), ...(after ? { after } : {}) });
    };
    const paths = [...this.dirty].sort();
    this.dirty = new Set();
    for (const rel of paths) {
      const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      if (!this.watches.has(parent)) continue; // inside a folder no longer watched
      const e = await entryAt(join(this.root, rel));
      if (!e || e.kind !== 'dir') {
        // Gone (a file, or a folder with everything in it), or a file or link now.
        for (const [k, w] of this.watches) {
          if (k === '' || !under(k, rel)) continue;
          w.close();
          this.watches.delete(k);
        }
        for (const k of [...this.fp.entries.keys()]) if (k !== rel && under(k, rel)) set(k, undefined);
        if (!e || (e.kind !== 'file' && e.kind !== 'symlink') || this.fp.rules.ignored(rel, false)) set(rel, undefined);
        else set(rel, e.kind === 'symlink' ? { ...e, link: await readLink(join(this.root, rel)) } : await this.withHash(rel, e, this.fp.entries.get(rel)));
        continue;
      }
      if (this.fp.entries.has(rel)) set(rel, undefined);
      if (this.watches.has(rel) || TreeWatcher.skipped(this.fp.rules, rel)) continue;
      // A folder made (or moved in): watched, then walked, so nothing made in it is missed.
      const dirs = await listTree(join(this.root, rel), { maxFiles: this.limits.maxFiles, withDirs: true, skipDir: (sub) => TreeWatcher.skipped(this.fp.rules, sub ? `${rel}/${sub}` : rel), skipFile: (sub) => this.fp.rules.ignored(`${rel}/${sub}`, false) });
      for (const d of dirs.dirs) if (!this.watchFolder(d ? `${rel}/${d}` : rel)) this.failed = 'a new folder could not be watched';
      const stats = await statMany(join(this.root, rel), dirs.paths, Date.now() + this.limits.maxMs);
      const found = new Map<string, FingerprintEntry>();
      dirs.paths.forEach((p, i) => {
        const s = stats.entries[i];
        if (s && (s.kind === 'file' || s.kind === 'symlink')) found.set(`${rel}/${p}`, s);
      });
      for (const k of [...this.fp.entries.keys()]) if (under(k, rel) && !found.has(k)) set(k, undefined);
      for (const [k, e] of found) if (!this.fp.entries.has(k) || !sameEntry(this.fp.entries.get(k)!, e)) set(k, e);
    }
    return changed;
  }

  /** A file written within RACY_MS also carries its hash (see RACY_MS), or keeps its old one while unchanged. */
  private async withHash(rel: string, e: FingerprintEntry, was: FingerprintEntry | undefined): Promise<FingerprintEntry> {
    const sameStat = was && was.size === e.size && was.mtimeMs === e.mtimeMs && was.ctimeMs === e.ctimeMs && was.ino === e.ino && was.mode === e.mode;
    if (Date.now() - e.mtimeMs >= RACY_MS && !(sameStat && was.hash)) return e;
    const r = await readEntry(join(this.root, rel), 16 * 1024 * 1024);
    return r.kind === 'file' ? { ...e, hash: hashOf(r.bytes) } : e;
  }

  /**
   * Before a command: the fingerprint as it is now (live: valid until `after`), or undefined when
   * the watch cannot be trusted (the caller walks instead).
   */
  async before(): Promise<Fingerprint | undefined> {
    await this.sync();
    if (this.problem) return undefined;
    await this.settle();
    this.events = 0;
    if (++this.commands % VERIFY_EVERY === 0) {
      const walked = await takeFingerprint(this.root, this.limits, this.fp);
      const d = walked.ok ? compareFingerprints(this.fp, walked.fp) : undefined;
      if (!d || d.created.length + d.deleted.length + d.modified.length) {
        this.failed = 'a walk of the workspace found changes the watch had not heard';
        return undefined;
      }
    }
    const now = Date.now();
    for (const [rel, e] of this.fp.entries) if (e.kind === 'file' && now - e.mtimeMs < RACY_MS) this.fp.entries.set(rel, await this.withHash(rel, e, undefined));
    return this.fp;
  }

  /**
   * After it: what it changed, and each changed path's entry from before. Undefined when the
   * watch cannot say (too many changes at once, or a failure): the fingerprint `before` gave is
   * then untouched, for a walk to compare with.
   */
  async after(): Promise<{ diff: FingerprintDiff; pre: Map<string, FingerprintEntry> } | undefined> {
    await this.sync();
    if (this.problem) return undefined;
    const changed = await this.settle();
    this.events = 0;
    const diff: FingerprintDiff = { created: [], deleted: [], modified: [] };
    const pre = new Map<string, FingerprintEntry>();
    for (const [rel, { before: b, after: a }] of changed) {
      if (b) pre.set(rel, b);
      if (!b && a) diff.created.push(rel);
      else if (b && !a) diff.deleted.push(rel);
      else if (b && a && !sameEntry(a, b)) diff.modified.push(rel);
    }
    for (const list of [diff.created, diff.deleted, diff.modified]) list.sort();
    return { diff, pre };
  }

  /** Watching afresh (walk, then watch) mends what went wrong: too many changes at once, not a change missed. */
  get restartable(): boolean {
    return this.failed === undefined;
  }

  /** Why the watch stopped being trusted, if it did. */
  get problem(): string | undefined {
    return this.failed ?? (this.events > (this.limits.maxEvents ?? MAX_EVENTS) ? `more than ${this.limits.maxEvents ?? MAX_EVENTS} changes at once` : undefined);
  }

  dispose(): undefined {
    for (const w of this.watches.values()) w.close();
    this.watches.clear();
    this.markerWatch?.close();
    this.markerWatch = undefined;
    return undefined;
  }
}

async function readLink(path: string): Promise<string | undefined> {
  const r = await readEntry(path, 0);
  return r.kind === 'symlink' ? r.to : undefined;
}
