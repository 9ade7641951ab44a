import { dirname, join } from 'node:path';
import { newId } from '../base/ids';
import { imageOf, missingDirs, statKey, type StoreCore } from './core';
import { besideName, entryAt, makeDirs, moveEntry, readText, removeEmptyDir, removeEntry, syncDir, writeDurable, writeLink, writeNew } from '../fs/entries';
import type { CheckpointInfo } from './ledger';
import { sameContent, sameImage, type Image, type ManifestRecord } from './manifest';
import { linkedPath, RestoreError, type PlannedFile, type RefusedFile, type RestorePlan } from './plan';
import { parseJson } from '../fs/jsonText';

export { RestoreError } from './plan';

/** For each conflict (by path): restore it anyway, or keep what is there now. */
export type RestoreChoices = Record<string, 'restore' | 'keep'>;

export interface RestoreResult {
  /** The restore's own checkpoint: restoring to it is Redo. Undefined when nothing changed. */
  checkpoint?: CheckpointInfo;
  /** Exactly the files this restore changed. */
  restored: Array<Pick<PlannedFile, 'path' | 'rel' | 'action'>>;
  /** Conflicts the user chose to keep as they are. */
  kept: Array<Pick<PlannedFile, 'path' | 'rel'>>;
  refused: RefusedFile[];
}

export interface RecoveryReport {
  /** set-aside: the journal could not be read; it was moved aside and nothing was changed. */
  outcome: 'rolled-back' | 'completed' | 'set-aside';
  files: number;
}

/**
 * A restore in progress. Each file's new content is first written beside it (`staged`); then,
 * file by file, the current entry is renamed aside (`backup`) and the staged one renamed into
 * place. Until the journal says `committed`, a crash is undone from it (every backup renamed
 * back); after, it is finished. Either way the files end as they were, or as restored.
 */
interface JournalEntry {
  path: string;
  staged?: string;
  backup?: string;
  existed: boolean;
  target: Image;
}

interface Journal {
  v: 1;
  phase: 'prepared' | 'committed';
  entries: JournalEntry[];
  /** Folders made for restored files: removed again (if empty) when rolling back. */
  madeDirs: string[];
  /** The restore's checkpoint, appended to the manifest once committed. */
  records: ManifestRecord[];
}

const JOURNAL = 'restore-journal.json';
const journalPath = (core: StoreCore) => join(core.dir, JOURNAL);

/** Puts each entry back as it was before the restore began; safe to run twice. */
async function rollBack(j: Journal): Promise<void> {
  for (const e of [...j.entries].reverse()) {
    if (e.backup && (await entryAt(e.backup))) await moveEntry(e.backup, e.path);
    else if (!e.existed && !(e.staged && (await entryAt(e.staged)))) {
      // Created by the restore (or never staged): remove it only if it is what the restore put there.
      const now = await imageOf(e.path, Number.MAX_SAFE_INTEGER);
      if (now.image.k !== 'absent' && sameContent(now.image, e.target)) await removeEntry(e.path);
    }
    if (e.staged) await removeEntry(e.staged);
  }
  for (const d of [...j.madeDirs].sort((a, b) => b.length - a.length)) await removeEmptyDir(d);
}

async function finish(core: StoreCore, j: Journal): Promise<void> {
  const cp = j.records[0];
  if (cp?.t === 'checkpoint' && !core.ledger.checkpoint(cp.id)) {
    // What the restored files hold now, by stat: later Bash changes to them can then be undone.
    const pathOf = new Map(j.records.flatMap((r): Array<[number, string]> => (r.t === 'change' ? [[r.n, r.path]] : [])));
    const records: ManifestRecord[] = [];
    for (const r of j.records) {
      const entry = r.t === 'after' && r.image.k !== 'absent' ? await entryAt(pathOf.get(r.n) ?? '') : undefined;
      records.push(r.t === 'after' && entry ? { ...r, st: statKey(entry) } : r);
    }
    await core.append(records);
  }
  for (const e of j.entries) {
    if (e.backup) await removeEntry(e.backup);
    if (e.staged) await removeEntry(e.staged);
  }
}

/** Finishes or undoes a restore a crash interrupted (when the store opens). */
export async function recoverRestore(core: StoreCore): Promise<RecoveryReport | undefined> {
  const text = await readText(journalPath(core));
  if (text === undefined) return undefined;
  let j: Journal;
  try {
    j = parseJson(text) as Journal;
  } catch {
    // Written atomically, so never torn; damaged some other way, it is set aside, not trusted.
    await moveEntry(journalPath(core), `${journalPath(core)}.damaged-${core.now()}`);
    return { outcome: 'set-aside', files: 0 };
  }
  if (j.phase === 'committed') await finish(core, j);
  else await rollBack(j);
  await removeEntry(journalPath(core));
  return { outcome: j.phase === 'committed' ? 'completed' : 'rolled-back', files: j.entries.length };
}

function selected(plan: RestorePlan, choices: RestoreChoices): { files: PlannedFile[]; kept: PlannedFile[] } {
  const open = plan.files.filter((f) => f.conflict && !choices[f.path]);
  if (open.length) {
    throw new RestoreError(`Changed since the agent last left them, so a choice is needed for each (restore or keep): ${open.map((f) => f.rel).join(', ')}`);
  }
  return { files: plan.files.filter((f) => !f.conflict || choices[f.path] === 'restore'), kept: plan.files.filter((f) => f.conflict && choices[f.path] === 'keep') };
}

/**
 * Applies a plan: every file as at the checkpoint, or (on any failure, or a crash recovered at
 * the next open) none. A file that changed since the plan was made stops the whole restore.
 * The files' contents before the restore are kept as the restore's own checkpoint.
 */
export async function applyRestore(core: StoreCore, plan: RestorePlan, choices: RestoreChoices): Promise<RestoreResult> {
  const { files, kept } = selected(plan, choices);
  const result = (checkpoint?: CheckpointInfo): RestoreResult => ({
    ...(checkpoint ? { checkpoint } : {}),
    restored: checkpoint ? files.map(({ path, rel, action }) => ({ path, rel, action })) : [],
    kept: kept.map(({ path, rel }) => ({ path, rel })),
    refused: plan.refused,
  });
  if (!files.length) return result();
  const cp: CheckpointInfo = { id: newId('cp'), at: core.now(), label: `Restore to "${plan.checkpoint.label}"`, kind: 'restore', restores: plan.checkpoint.id };
  const records: ManifestRecord[] = [{ t: 'checkpoint', ...cp }];
  const entries: JournalEntry[] = [];
  const madeDirs = new Set<string>();
  for (const f of files) {
    // The current content is kept first (it is the restore's "before"), and must be as planned.
    const now = await imageOf(f.path, core.maxFileBytes, core.blobs);
    if (!sameImage(now.image, f.current)) throw new RestoreError(`${f.rel} changed since the restore was previewed; preview it again.`);
    const linked = await linkedPath(f.path, now.entry);
    if (linked) throw new RestoreError(`${f.rel}: ${linked}. Preview the restore again.`);
    if (f.target.k === 'file' && !(await core.blobs.has(f.target.h))) throw new RestoreError(`the copy kept of ${f.rel} is missing`);
    if (f.target.k !== 'absent') for (const d of await missingDirs(f.path)) madeDirs.add(d);
    const n = core.ledger.nextN();
    records.push({ t: 'change', n, cp: cp.id, path: f.path, by: 'restore', before: now.image }, { t: 'after', n, image: f.target });
    entries.push({
      path: f.path,
      existed: now.image.k !== 'absent',
      target: f.target,
      ...(f.target.k !== 'absent' ? { staged: besideName(f.path, 'tl-restore') } : {}),
      ...(now.image.k !== 'absent' ? { backup: besideName(f.path, 'tl-backup') } : {}),
    });
  }
  const journal: Journal = { v: 1, phase: 'prepared', entries, madeDirs: [...madeDirs], records };
  await writeDurable(journalPath(core), JSON.stringify(journal));
  try {
    for (const d of [...madeDirs].sort((a, b) => a.length - b.length)) await makeDirs(d);
    for (const e of entries) {
      if (e.target.k === 'file') {
        const bytes = await core.blobs.get(e.target.h);
        if (!bytes) throw new RestoreError(`the copy kept of ${e.path} is damaged`);
        await writeNew(e.staged!, bytes, e.target.mode);
      } else if (e.target.k === 'link') await writeLink(e.staged!, e.target.to);
    }
    for (const e of entries) {
      if (e.backup) await moveEntry(e.path, e.backup);
      if (e.staged) await moveEntry(e.staged, e.path);
    }
    for (const d of new Set(entries.map((e) => dirname(e.path)))) await syncDir(d);
  } catch (err) {
    await rollBack(journal);
    await removeEntry(journalPath(core));
    throw err instanceof RestoreError ? err : new RestoreError(`The restore failed and nothing was changed: ${(err as Error).message}`);
  }
  const committed: Journal = { ...journal, phase: 'committed' };
  await writeDurable(journalPath(core), JSON.stringify(committed));
  await finish(core, committed);
  await removeEntry(journalPath(core));
  // Folders the session made after the checkpoint, left empty by the restore.
  for (const d of plan.dirs) await removeEmptyDir(d);
  return result(cp);
}
