import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { entryAt, listDir, readBytes, removeEntry, writeDurable } from '../fs/entries';

export const hashOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Content-addressed copies of files, one per distinct content (`blobs/ab/abcdef…`, sha256). A
 * blob is written once, flushed, and never changed; a read checks the bytes against the name,
 * so a blob damaged on disk is treated as missing, never restored.
 */
/** What one store (one session's checkpoints) may hold: past it no more copies are kept. */
export const BLOB_BUDGET_BYTES = 1024 * 1024 * 1024;

/** Thrown by put past the budget: the change is recorded as not restorable instead. */
export class BlobBudgetSpent extends Error {
  constructor(readonly budget: number) {
    super(`this session's checkpoint copies reached ${Math.round(budget / (1024 * 1024))} MB`);
  }
}

export class BlobStore {
  /** Blobs known to be on disk: saves a stat per put when the same content comes back. */
  private readonly present = new Set<string>();
  /**
   * Bytes the store holds, counted from its folder at the first new copy (a resumed session's
   * earlier runs count, pass 94 L1): 26 replace_all edits of a growing file kept 192 MB (pass 91 M2).
   */
  private held: number | undefined;

  constructor(
    readonly dir: string,
    private readonly budget = BLOB_BUDGET_BYTES,
  ) {}

  private path(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash);
  }

  /**
   * Keeps `bytes` (once) and returns its hash. A copy from before a change is flushed to disk
   * (`durable`); one of what a change left need not be: a power cut that loses it loses a
   * shortcut (later copies are taken again, or the file is named as not restorable), never a
   * restore that claims to have it, since a read checks every blob against its hash.
   */
  async put(bytes: Uint8Array, hash = hashOf(bytes), durable = true): Promise<string> {
    if (this.present.has(hash)) return hash;
    const there = await entryAt(this.path(hash));
    if (!there || there.size !== bytes.byteLength) {
      this.held ??= [...(await this.list()).values()].reduce((a, b) => a + b, 0);
      if (this.held + bytes.byteLength > this.budget) throw new BlobBudgetSpent(this.budget);
      await writeDurable(this.path(hash), bytes, durable);
      this.held += bytes.byteLength;
    }
    this.present.add(hash);
    return hash;
  }

  async has(hash: string): Promise<boolean> {
    return this.present.has(hash) || (await entryAt(this.path(hash))) !== undefined;
  }

  /** The bytes, or undefined when the blob is missing or does not match its hash. */
  async get(hash: string): Promise<Buffer | undefined> {
    const bytes = await readBytes(this.path(hash));
    if (!bytes || hashOf(bytes) !== hash) {
      this.present.delete(hash);
      return undefined;
    }
    return bytes;
  }

  /** Every blob on disk with its size. */
  async list(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const shard of await listDir(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await listDir(join(this.dir, shard))) {
        if (!/^[0-9a-f]{64}$/.test(name)) continue;
        const e = await entryAt(join(this.dir, shard, name));
        if (e?.kind === 'file') out.set(name, e.size);
      }
    }
    return out;
  }

  /** Removes these blobs (those only pruned checkpoints needed). */
  async remove(hashes: Iterable<string>): Promise<number> {
    let removed = 0;
    for (const h of hashes) {
      this.present.delete(h);
      if (await removeEntry(this.path(h))) removed++;
    }
    return removed;
  }

  /** Removes every blob not in `keep` (and temp files a crash left); returns what it freed. */
  async collect(keep: ReadonlySet<string>): Promise<{ removed: number; bytes: number }> {
    let removed = 0;
    let bytes = 0;
    for (const shard of await listDir(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await listDir(join(this.dir, shard))) {
        if (keep.has(name)) continue;
        const p = join(this.dir, shard, name);
        const e = await entryAt(p);
        if (e?.kind !== 'file') continue;
        if (await removeEntry(p)) {
          removed++;
          bytes += e.size;
          this.present.delete(name);
        }
      }
    }
    return { removed, bytes };
  }
}
