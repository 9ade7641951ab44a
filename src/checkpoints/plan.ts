import { dirname } from 'node:path';
import { displayRel, imageOf, insideGitDir, type StoreCore } from './core';
import { entryAt, realPath, type Entry } from './files';
import type { CheckpointInfo } from './ledger';
import { sameImage, type Image } from './manifest';
import { lineCounts, type LineCounts } from './textDiff';

export class RestoreError extends Error {}

export interface PlannedFile extends LineCounts {
  path: string;
  rel: string;
  action: 'modify' | 'create' | 'delete';
  /** What it will hold: as it was at the checkpoint. */
  target: Image;
  /** What it holds now (checked again when the restore is applied). */
  current: Image;
  /**
   * It differs from what the session last left there: someone changed it since. It is restored
   * only if the user chooses so for this file.
   */
  conflict: boolean;
}

export interface RefusedFile {
  path: string;
  rel: string;
  why: string;
}

export interface RestorePlan {
  checkpoint: CheckpointInfo;
  /** What the restore would change. */
  files: PlannedFile[];
  /** Changed since the checkpoint but not restorable, each with the reason. */
  refused: RefusedFile[];
  /** Changed since, but already as they were at the checkpoint. */
  unchanged: string[];
  /** Folders the session created after the checkpoint: removed after the restore if left empty. */
  dirs: string[];
}

/** Why a write to `path` could land elsewhere than `path`, if it could. */
export async function linkedPath(path: string, entry: Entry | undefined): Promise<string | undefined> {
  if (entry?.kind === 'file' && entry.nlink > 1) return `it has ${entry.nlink} hard links; restoring this name would leave the others different, so it is not restored`;
  for (let d = dirname(path); ; d = dirname(d)) {
    const e = await entryAt(d);
    if (e) {
      if (e.kind === 'symlink' || (e.kind === 'dir' && (await realPath(d)) !== d)) return `a folder on its path (${d}) is a symbolic link now, and a restore never writes through a link`;
      if (e.kind !== 'dir') return `${d} is not a folder now`;
      return undefined;
    }
    if (dirname(d) === d) return undefined;
  }
}

/** The bytes of an image (a blob), undefined for none; throws when the kept copy is damaged. */
async function bytesOf(core: StoreCore, image: Image, rel: string): Promise<Buffer | undefined> {
  if (image.k !== 'file') return undefined;
  const b = await core.blobs.get(image.h);
  if (!b) throw new RestoreError(`the copy kept of ${rel} is missing or damaged`);
  return b;
}

/** What restoring the code to checkpoint `id` would change, conflicts and refusals included. */
export async function planRestore(core: StoreCore, id: string): Promise<RestorePlan> {
  const checkpoint = core.ledger.checkpoint(id);
  if (!checkpoint) throw new RestoreError(`There is no checkpoint ${id} in this session (it may have been pruned: the newest ${core.ledger.checkpoints.length} are kept).`);
  const plan: RestorePlan = { checkpoint, files: [], refused: [], unchanged: [], dirs: [] };
  const dirs = new Set<string>();
  for (const [path, { image: target, first }] of core.ledger.stateAt(id)) {
    const rel = displayRel(core.workspace, path);
    const refuse = (why: string) => plan.refused.push({ path, rel, why });
    if (insideGitDir(path)) {
      refuse("it is inside .git: git's own state (HEAD, branches, index, refs) is never restored");
      continue;
    }
    if (target.k === 'unknown') {
      refuse(target.why);
      continue;
    }
    const cur = await imageOf(path, core.maxFileBytes);
    if (sameImage(cur.image, target)) {
      plan.unchanged.push(rel);
      continue;
    }
    if (cur.image.k === 'unknown') {
      refuse(`it is now something a restore does not replace: ${cur.image.why}`);
      continue;
    }
    const linked = await linkedPath(path, cur.entry);
    if (linked) {
      refuse(linked);
      continue;
    }
    let targetBytes: Buffer | undefined;
    try {
      targetBytes = await bytesOf(core, target, rel);
    } catch (err) {
      refuse((err as Error).message);
      continue;
    }
    const last = core.ledger.lastLeft(path);
    const conflict = !last || !sameImage(last.image, cur.image);
    const action = cur.image.k === 'absent' ? 'create' : target.k === 'absent' ? 'delete' : 'modify';
    plan.files.push({ path, rel, action, target, current: cur.image, conflict, ...lineCounts(cur.bytes, targetBytes) });
    if (target.k === 'absent') for (const d of first.dirs ?? []) dirs.add(d);
  }
  plan.dirs = [...dirs].sort((a, b) => b.length - a.length);
  plan.files.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  return plan;
}
