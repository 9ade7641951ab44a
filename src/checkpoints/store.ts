import { join } from 'node:path';
import { newId } from '../base/ids';
import type { IDisposable } from '../base/lifecycle';
import { BlobStore } from './blobs';
import { BashTracker, type BashReport, type BashWatch } from './bash';
import { canonicalPath, imageOf, missingDirs, statKey, type StoreCore } from './core';
import { appendDurable, readText, realPath, writeDurable } from '../fs/entries';
import { markPrivate } from '../fs/write';
import { DEFAULT_FINGERPRINT_LIMITS, type FingerprintLimits } from './fingerprint';
import type { GitPreImages } from './git';
import { Ledger, type CheckpointInfo } from './ledger';
import { parseManifest, serialize, type ChangeSource, type ManifestRecord } from './manifest';
import { applyRestore, recoverRestore, type RecoveryReport, type RestoreChoices, type RestoreResult } from './apply';
import { planRestore, type RestorePlan } from './plan';
import { sessionDiff, type SessionDiffEntry } from './sessionDiff';

export const MANIFEST_FILE = 'manifest.jsonl';
/** Claude Code keeps 100 checkpoints per session; so do we. */
const DEFAULT_RETENTION = 100;
const DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024;

export interface CheckpointStoreOptions {
  /** The store's folder, beside the session (see checkpointsDir). */
  dir: string;
  /** The workspace folder: Bash changes are looked for under it. */
  workspace: string;
  /** Checkpoints kept; older ones go with the blobs only they needed. */
  retention?: number;
  maxFileBytes?: number;
  fingerprint?: FingerprintLimits;
  /** git's copies of files a command changed; give it only in a trusted workspace. */
  git?: GitPreImages;
  /** Keep the Bash fingerprint current by watching folders where that is reliable (default true). */
  watch?: boolean;
  now?: () => number;
}

export interface OpenedStore {
  store: CheckpointStore;
  /** A restore a crash interrupted, finished or rolled back on opening. */
  recovered?: RecoveryReport;
  /** Manifest lines that could not be read (a torn last line after a crash), skipped. */
  skippedLines: number;
}

/** A change under way: `capture` gave it, `settle` records what it left. */
export interface ChangeTicket {
  n: number;
  path: string;
}

/**
 * One session's code checkpoints: before a tool changes a file its content is kept (in a
 * content-addressed blob store beside the session), grouped by the user prompt that led to it;
 * Bash commands are checked for what they changed. A restore goes back to any checkpoint,
 * all or nothing, and is itself a checkpoint (Redo). Never touches git's HEAD, index or refs.
 */
export class CheckpointStore implements StoreCore, IDisposable {
  readonly blobs: BlobStore;
  readonly maxFileBytes: number;
  private current: Ledger;
  private readonly manifest: string;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly bash: BashTracker;

  private constructor(
    private readonly opts: CheckpointStoreOptions & { workspace: string },
    ledger: Ledger,
  ) {
    this.blobs = new BlobStore(join(opts.dir, 'blobs'));
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.manifest = join(opts.dir, MANIFEST_FILE);
    this.current = ledger;
    this.bash = new BashTracker(this, { limits: opts.fingerprint ?? DEFAULT_FINGERPRINT_LIMITS, markerDir: join(opts.dir, 'watch'), watch: opts.watch ?? true, ...(opts.git ? { git: opts.git } : {}) });
  }

  /** Opens (or starts) the store; a restore a crash cut short is finished or undone first. */
  static async open(opts: CheckpointStoreOptions): Promise<OpenedStore> {
    // Copies of the user's files: 0600 in 0700 folders, wherever the store is kept.
    markPrivate(opts.dir);
    const workspace = (await realPath(opts.workspace)) ?? opts.workspace;
    const { records, skipped } = parseManifest((await readText(join(opts.dir, MANIFEST_FILE))) ?? '');
    const store = new CheckpointStore({ ...opts, workspace }, Ledger.from(records));
    // A torn last line would join the next record: the manifest is rewritten without it.
    if (skipped) await writeDurable(store.manifest, serialize(store.ledger.records()));
    const recovered = await recoverRestore(store);
    // Copies a crash left without a record (kept just before it), and temp files, go.
    await store.blobs.collect(store.ledger.referencedBlobs());
    return { store, skippedLines: skipped, ...(recovered ? { recovered } : {}) };
  }

  /** One change to the store at a time (a prune must not collect a blob a capture just wrote). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  get workspace(): string {
    return this.opts.workspace;
  }

  get dir(): string {
    return this.opts.dir;
  }

  get ledger(): Ledger {
    return this.current;
  }

  get checkpoints(): readonly CheckpointInfo[] {
    return this.current.checkpoints;
  }

  now(): number {
    return (this.opts.now ?? Date.now)();
  }

  async append(records: readonly ManifestRecord[]): Promise<void> {
    if (!records.length) return;
    for (const r of records) this.current.add(r);
    await appendDurable(this.manifest, serialize(records));
  }

  /** Starts the checkpoint of a user prompt; the oldest beyond the retention goes. */
  begin(label: string, ref?: string): Promise<CheckpointInfo> {
    return this.exclusive(async () => {
      const cp: CheckpointInfo = { id: newId('cp'), at: this.now(), label: label.split('\n')[0]!.slice(0, 200), kind: 'prompt', ...(ref ? { ref } : {}) };
      await this.append([{ t: 'checkpoint', ...cp }]);
      await this.prune();
      return cp;
    });
  }

  private async prune(): Promise<void> {
    const { ledger, dropped } = this.current.pruned(this.opts.retention ?? DEFAULT_RETENTION);
    if (!dropped.length) return;
    const before = this.current.referencedBlobs();
    await writeDurable(this.manifest, serialize(ledger.records()));
    this.current = ledger;
    // Only the copies the dropped checkpoints alone needed: no listing of the store per prompt.
    const kept = ledger.referencedBlobs();
    await this.blobs.remove([...before].filter((h) => !kept.has(h)));
  }

  private async ensureCheckpoint(): Promise<string> {
    const newest = this.current.newest;
    if (newest && newest.kind === 'prompt') return newest.id;
    const cp: CheckpointInfo = { id: newId('cp'), at: this.now(), label: '(changes outside a prompt)', kind: 'prompt' };
    await this.append([{ t: 'checkpoint', ...cp }]);
    return cp.id;
  }

  /** Before a tool changes `path`: keeps what is there now (flushed before this resolves). */
  capture(path: string, by: ChangeSource): Promise<ChangeTicket> {
    return this.exclusive(async () => {
      const real = await canonicalPath(path);
      const { image } = await imageOf(real, this.maxFileBytes, this.blobs);
      const dirs = image.k === 'absent' ? await missingDirs(real) : [];
      const cp = await this.ensureCheckpoint();
      const n = this.current.nextN();
      await this.append([{ t: 'change', n, cp, path: real, by, before: image, ...(dirs.length ? { dirs } : {}) }]);
      return { n, path: real };
    });
  }

  /** After the tool ran (whether it succeeded or not): records what the path holds now. */
  settle(ticket: ChangeTicket): Promise<void> {
    return this.exclusive(async () => {
      const { image, entry } = await imageOf(ticket.path, this.maxFileBytes, this.blobs, false);
      await this.append([{ t: 'after', n: ticket.n, image, ...(entry ? { st: statKey(entry) } : {}) }]);
    });
  }

  /** capture, run, settle. */
  async track<T>(path: string, by: ChangeSource, run: () => Promise<T>): Promise<T> {
    const ticket = await this.capture(path, by);
    try {
      return await run();
    } finally {
      await this.settle(ticket);
    }
  }

  /** Before a Bash command: a fingerprint of the workspace (or why there is none). */
  beforeBash(): Promise<BashWatch> {
    return this.bash.before();
  }

  /** After it: what it changed, each with whether it can be restored; recorded in the checkpoint. */
  afterBash(watch: BashWatch): Promise<BashReport> {
    return this.exclusive(async () => this.bash.after(watch, watch.off ? undefined : await this.ensureCheckpoint()));
  }

  /** What restoring the code to checkpoint `id` would change; nothing is written. */
  plan(id: string): Promise<RestorePlan> {
    return this.exclusive(() => planRestore(this, id));
  }

  /** Applies a plan, all or nothing; conflicts need a choice each. */
  restore(plan: RestorePlan, choices: RestoreChoices = {}): Promise<RestoreResult> {
    return this.exclusive(() => applyRestore(this, plan, choices));
  }

  /** Every file this session changed, against the first copy kept of it. */
  diff(): Promise<SessionDiffEntry[]> {
    return this.exclusive(() => sessionDiff(this));
  }

  /** A kept copy, by hash (for a diff editor's left side). */
  blob(hash: string): Promise<Buffer | undefined> {
    return this.blobs.get(hash);
  }

  /** Stops watching the workspace (the session ends). */
  dispose(): void {
    this.bash.dispose();
  }

  /** Disk the store takes, and what the distinct copies it keeps add up to. */
  async usage(): Promise<{ blobs: number; blobBytes: number; manifestBytes: number }> {
    const all = await this.blobs.list();
    let blobBytes = 0;
    for (const n of all.values()) blobBytes += n;
    return { blobs: all.size, blobBytes, manifestBytes: Buffer.byteLength((await readText(this.manifest)) ?? '') };
  }
}
