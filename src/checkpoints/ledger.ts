import type { ChangeSource, CheckpointKind, Image, ManifestRecord, StatKey } from './manifest';

export interface CheckpointInfo {
  id: string;
  at: number;
  /** The prompt's first line, or what a restore restored. */
  label: string;
  kind: CheckpointKind;
  /** The caller's id for what started it (the user message's id in the panel). */
  ref?: string;
  /** For a restore: the checkpoint it went back to. */
  restores?: string;
}

export interface Change {
  n: number;
  cp: string;
  path: string;
  by: ChangeSource;
  before: Image;
  /** Unset while the change runs, or when a crash cut it short: what it left is not known. */
  after?: Image;
  st?: StatKey;
  /** Folders that did not exist before the change (a restore to before it may remove them when empty). */
  dirs?: string[];
}

export interface LastLeft {
  image: Image;
  st?: StatKey;
}

const UNFINISHED: Image = { k: 'unknown', why: 'the change did not finish, so what it left is not known' };

/**
 * The checkpoints and changes of one session, as the manifest describes them, and the answers
 * a restore needs: what a path held at a checkpoint, and what the session last left there.
 * Pure: it reads records and produces records; the store does the files.
 */
export class Ledger {
  readonly checkpoints: CheckpointInfo[] = [];
  private readonly index = new Map<string, number>();
  readonly changes: Change[] = [];
  private readonly byN = new Map<number, Change>();
  private readonly latest = new Map<string, Change>();
  private readonly known = new Map<string, LastLeft>();
  private readonly notes: Array<{ cp: string; text: string }> = [];
  private maxN = 0;

  static from(records: readonly ManifestRecord[]): Ledger {
    const l = new Ledger();
    for (const r of records) l.add(r);
    return l;
  }

  nextN(): number {
    return ++this.maxN;
  }

  add(r: ManifestRecord): void {
    switch (r.t) {
      case 'checkpoint': {
        if (this.index.has(r.id)) return;
        this.index.set(r.id, this.checkpoints.length);
        const { t: _t, ...info } = r;
        this.checkpoints.push(info);
        return;
      }
      case 'change': {
        // A change of a checkpoint the log does not hold (damage) cannot be placed: skipped.
        if (!this.index.has(r.cp) || this.byN.has(r.n)) return;
        const { t: _t, ...c } = r;
        const change: Change = { ...c };
        this.changes.push(change);
        this.byN.set(r.n, change);
        this.latest.set(r.path, change);
        this.maxN = Math.max(this.maxN, r.n);
        return;
      }
      case 'after': {
        const c = this.byN.get(r.n);
        if (!c) return;
        c.after = r.image;
        if (r.st) c.st = r.st;
        return;
      }
      case 'known':
        this.known.set(r.path, { image: r.image, ...(r.st ? { st: r.st } : {}) });
        return;
      case 'note':
        if (this.index.has(r.cp)) this.notes.push({ cp: r.cp, text: r.text });
        return;
    }
  }

  checkpoint(id: string): CheckpointInfo | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.checkpoints[i];
  }

  get newest(): CheckpointInfo | undefined {
    return this.checkpoints.at(-1);
  }

  changesOf(cp: string): Change[] {
    return this.changes.filter((c) => c.cp === cp);
  }

  notesOf(cp: string): string[] {
    return this.notes.filter((n) => n.cp === cp).map((n) => n.text);
  }

  /** What the session last left at `path`: the newest change's result, or what pruning carried. */
  lastLeft(path: string): LastLeft | undefined {
    const c = this.latest.get(path);
    if (c) return { image: c.after ?? UNFINISHED, ...(c.st ? { st: c.st } : {}) };
    return this.known.get(path);
  }

  /**
   * Every path changed from checkpoint `id` on, with what it held when that checkpoint began:
   * the image from before its first change since.
   */
  stateAt(id: string): Map<string, { image: Image; first: Change; changes: Change[] }> {
    const from = this.index.get(id);
    const out = new Map<string, { image: Image; first: Change; changes: Change[] }>();
    if (from === undefined) return out;
    for (const c of this.changes) {
      if (this.index.get(c.cp)! < from) continue;
      const seen = out.get(c.path);
      if (seen) seen.changes.push(c);
      else out.set(c.path, { image: c.before, first: c, changes: [c] });
    }
    return out;
  }

  /** Every path the session changed, with the image from before its first retained change. */
  firstImages(): Map<string, { image: Image; first: Change }> {
    const out = new Map<string, { image: Image; first: Change }>();
    for (const c of this.changes) if (!out.has(c.path)) out.set(c.path, { image: c.before, first: c });
    return out;
  }

  /** The blobs some record still needs. */
  referencedBlobs(): Set<string> {
    const out = new Set<string>();
    const add = (i: Image | undefined) => {
      if (i?.k === 'file') out.add(i.h);
    };
    for (const c of this.changes) {
      add(c.before);
      add(c.after);
    }
    for (const k of this.known.values()) add(k.image);
    return out;
  }

  /** The log that describes this state, in order (what a rewrite of the manifest holds). */
  records(): ManifestRecord[] {
    const out: ManifestRecord[] = [];
    for (const [path, k] of this.known) out.push({ t: 'known', path, image: k.image, ...(k.st ? { st: k.st } : {}) });
    const byCp = new Map<string, Change[]>();
    for (const c of this.changes) byCp.set(c.cp, [...(byCp.get(c.cp) ?? []), c]);
    for (const cp of this.checkpoints) {
      out.push({ t: 'checkpoint', ...cp });
      for (const c of byCp.get(cp.id) ?? []) {
        const { after, st, ...rest } = c;
        out.push({ t: 'change', ...rest });
        if (after) out.push({ t: 'after', n: c.n, image: after, ...(st ? { st } : {}) });
      }
      for (const text of this.notesOf(cp.id)) out.push({ t: 'note', cp: cp.id, text });
    }
    return out;
  }

  /**
   * Keeps the newest `max` checkpoints. What the session last left at a path whose changes all
   * go is carried as a `known` record, so Bash changes to it can still be undone.
   */
  pruned(max: number): { ledger: Ledger; dropped: string[] } {
    if (this.checkpoints.length <= max) return { ledger: this, dropped: [] };
    const dropped = this.checkpoints.slice(0, this.checkpoints.length - max).map((c) => c.id);
    const gone = new Set(dropped);
    const next = new Ledger();
    for (const [path, k] of this.known) next.known.set(path, k);
    for (const [path, c] of this.latest) {
      if (gone.has(c.cp) && c.after && c.after.k !== 'unknown') next.known.set(path, { image: c.after, ...(c.st ? { st: c.st } : {}) });
    }
    for (const r of this.records()) {
      if (r.t === 'known') continue;
      if (r.t === 'checkpoint' && gone.has(r.id)) continue;
      next.add(r);
    }
    // Paths changed again in what is kept need no carried record.
    for (const c of next.changes) next.known.delete(c.path);
    next.maxN = Math.max(next.maxN, this.maxN);
    return { ledger: next, dropped };
  }
}
