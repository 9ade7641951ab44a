import { join } from 'node:path';
import { z } from 'zod';
import { withFileLock } from '../fs/lock';
import { folderNames, listFolder } from '../fs/list';
import { readStateText } from '../fs/read';
import { inspect } from '../fs/stat';
import { makeFolder, markPrivate, movePath, openAppendable, removeTree, touchPath, writeFileAtomic, type AppendableFile } from '../fs/write';
import { Emitter } from '../base/event';
import { previewFrom, titleFrom } from './markdown';
import { sessionUiFile } from './sessionUiStore';
import { assertSessionId, cutTornTail, isSessionId, loadSession, SessionError, type LoadedSession, type SessionEvent } from './transcript';
import { parseJson } from '../fs/jsonText';

// Callers import the transcript and markdown helpers from here too.
export { archiveToMarkdown, previewFrom, sessionToMarkdown, titleFrom } from './markdown';
export { assertSessionId, loadSession, SCHEMA_VERSION, SessionError, type LoadedSession, type SessionEvent } from './transcript';

const INDEX_FILE = 'index.json';
/** How long a deleted session's code checkpoints are kept in the trash (for Undo of the delete). */
const TRASHED_CHECKPOINTS_MS = 24 * 60 * 60 * 1000;

/** Where a session's code checkpoints are kept (see checkpoints/): they live and go with the session. */
export function sessionCheckpointsDir(sessionsDir: string, id: string): string {
  return join(sessionsDir, 'checkpoints', assertSessionId(id));
}

/** A session without a draft or scroll anchor has no UI file to move (nor one without checkpoints a folder). */
async function moveIfThere(from: string, to: string): Promise<void> {
  try {
    await movePath(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model: string;
  messageCount: number;
  tokens: number;
  cwd: string;
  branch?: string;
  /** What the user asked, for searching beyond the title (capped). */
  preview?: string;
}

const summarySchema = z.looseObject({
  id: z.string().refine(isSessionId),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  model: z.string(),
  messageCount: z.number(),
  tokens: z.number(),
  cwd: z.string(),
  branch: z.string().optional(),
  preview: z.string().optional(),
});

/** Something found broken on disk and mended (or set aside) instead of failing. */
export interface SessionRepair {
  kind: 'torn-line' | 'not-a-folder' | 'unreadable' | 'index';
  message: string;
}

/**
 * Sessions of one workspace: a JSONL transcript each, plus an index for fast listing.
 * Each window writes only its own sessions' files; the shared index is updated under a
 * cross-process lock and replaced atomically, so two windows never lose each other's entries.
 * The index is derived data: listing checks it against the transcripts and mends it.
 */
export class SessionStore {
  private readonly repaired = new Emitter<SessionRepair>();
  readonly onDidRepair = this.repaired.event;

  constructor(readonly dir: string) {
    // Transcripts hold everything said and read in a session: the user's alone.
    markPrivate(dir);
  }

  file(id: string): string {
    return join(this.dir, `${assertSessionId(id)}.jsonl`);
  }

  /**
   * Appends events, one line each, in one write. A torn last line left by a crash is cut off
   * first (and kept aside), so the new line never joins it. `wasEmpty`: the transcript had
   * nothing before this write (new, or lost since), so a writer that had already written its
   * header knows to write the whole session again.
   */
  async append(id: string, events: readonly SessionEvent[]): Promise<{ wasEmpty: boolean }> {
    const file = this.file(id);
    if (!events.length) return { wasEmpty: false };
    let text = '';
    for (const e of events) text += `${JSON.stringify(e)}\n`;
    let fh: AppendableFile;
    try {
      fh = await openAppendable(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      await this.ensureFolder();
      fh = await openAppendable(file);
    }
    try {
      const torn = await cutTornTail(fh, file);
      if (torn) this.repaired.fire({ kind: 'torn-line', message: `${id}: the last line was cut off by a crash; its ${torn.bytes} bytes were removed from the transcript and kept in ${torn.keptIn}` });
      const wasEmpty = torn ? torn.sizeAfter === 0 : (await fh.size()) === 0;
      await fh.append(text);
      return { wasEmpty };
    } finally {
      await fh.close();
    }
  }

  /** Whether the transcript is on disk. */
  async exists(id: string): Promise<boolean> {
    return (await inspect(this.file(id))).kind === 'file';
  }

  async load(id: string): Promise<LoadedSession> {
    return loadSession(this.file(id));
  }

  /** The sessions folder; a file in its place is moved aside (nothing is deleted). */
  private async ensureFolder(): Promise<void> {
    const kind = (await inspect(this.dir)).kind;
    if (kind === 'file' || kind === 'other') {
      const aside = `${this.dir}.not-a-folder-${Date.now()}`;
      await movePath(this.dir, aside);
      this.repaired.fire({ kind: 'not-a-folder', message: `the sessions folder ${this.dir} was a file; it was moved to ${aside}` });
    }
    await makeFolder(this.dir);
  }

  async updateIndex(entry: SessionSummary): Promise<void> {
    await this.editIndex((all) => all.set(entry.id, entry));
  }

  async removeFromIndex(id: string): Promise<void> {
    await this.editIndex((all) => all.delete(id));
  }

  /** Read, change and replace the index under the lock, so concurrent writers keep each other's entries. */
  private async editIndex(edit: (all: Map<string, SessionSummary>) => void): Promise<void> {
    await this.ensureFolder();
    await withFileLock(join(this.dir, `${INDEX_FILE}.lock`), async () => {
      const all = await this.readIndex();
      edit(all);
      await writeFileAtomic(join(this.dir, INDEX_FILE), JSON.stringify([...all.values()]));
    });
  }

  private async readIndex(): Promise<Map<string, SessionSummary>> {
    let list: unknown;
    try {
      list = parseJson((await readStateText(join(this.dir, INDEX_FILE))) ?? '');
    } catch {
      // Missing or corrupt: it is derived data, mended from the transcripts by `list`.
      return new Map();
    }
    const out = new Map<string, SessionSummary>();
    if (!Array.isArray(list)) return out;
    for (const e of list) if (summarySchema.safeParse(e).success) out.set((e as SessionSummary).id, e as SessionSummary);
    return out;
  }

  /** The transcripts on disk with their modification times; none when the folder is missing or not a folder. */
  private async transcripts(): Promise<Map<string, number>> {
    let names: string[];
    try {
      names = (await listFolder(this.dir)).entries.map((e) => e.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') this.repaired.fire({ kind: 'not-a-folder', message: `the sessions folder ${this.dir} is a file, so no session is listed` });
      return new Map();
    }
    const out = new Map<string, number>();
    await Promise.all(
      names.map(async (name) => {
        const id = name.slice(0, -'.jsonl'.length);
        if (!name.endsWith('.jsonl') || !isSessionId(id)) return;
        const st = await inspect(join(this.dir, name));
        if (st.kind === 'file') out.set(id, st.mtimeMs);
      }),
    );
    return out;
  }

  async rename(id: string, title: string): Promise<void> {
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (!clean) throw new SessionError('a title cannot be empty');
    await this.append(id, [{ t: 'title', title: clean }]);
    const entry = (await this.readIndex()).get(id) ?? summarize(await this.load(id), Date.now());
    await this.updateIndex({ ...entry, title: clean });
  }

  /**
   * Moves a session to the trash folder, with its draft, scroll anchor and code checkpoints
   * (nothing is destroyed, so Undo can bring it back); `restore` undoes it.
   */
  async delete(id: string): Promise<void> {
    const trash = join(this.dir, '.trash');
    await movePath(this.file(id), join(trash, `${assertSessionId(id)}.jsonl`));
    await moveIfThere(sessionUiFile(this.dir, id), join(trash, `${id}.ui.json`));
    const checkpoints = join(trash, `${id}.checkpoints`);
    await moveIfThere(sessionCheckpointsDir(this.dir, id), checkpoints);
    // Stamped when trashed, so the purge below can tell how long it has been there.
    await touchPath(checkpoints).catch(() => undefined);
    await this.removeFromIndex(id);
    await this.purgeTrashedCheckpoints();
  }

  /**
   * The code checkpoints of sessions deleted more than a day ago go for good (they are most of a
   * session's disk: copies of files). Undo of a delete is offered at once, so a day is plenty;
   * the transcripts themselves stay in the trash.
   */
  private async purgeTrashedCheckpoints(now = Date.now()): Promise<void> {
    const trash = join(this.dir, '.trash');
    for (const name of await folderNames(trash)) {
      if (!name.endsWith('.checkpoints')) continue;
      const st = await inspect(join(trash, name), { follow: false });
      if (st.kind !== 'missing' && st.kind !== 'unreadable' && now - st.mtimeMs > TRASHED_CHECKPOINTS_MS) await removeTree(join(trash, name));
    }
  }

  async restore(id: string): Promise<void> {
    await movePath(join(this.dir, '.trash', `${assertSessionId(id)}.jsonl`), this.file(id));
    await moveIfThere(join(this.dir, '.trash', `${id}.ui.json`), sessionUiFile(this.dir, id));
    await moveIfThere(join(this.dir, '.trash', `${id}.checkpoints`), sessionCheckpointsDir(this.dir, id));
    const st = await inspect(this.file(id));
    await this.updateIndex(summarize(await this.load(id), st.mtimeMs));
  }

  /**
   * Newest first. The index is checked against the transcripts on disk: an entry whose
   * transcript is gone is dropped, a transcript written after its entry (a crash before the
   * index caught up) or missing from it is read again, and one that cannot be read (empty,
   * no header) is left on disk, unlisted, and reported. What was mended is written back.
   */
  async list(): Promise<SessionSummary[]> {
    return this.reconcile(false);
  }

  /** Recreates the index from the transcripts (a lost or corrupt index loses no session). */
  async rebuildIndex(): Promise<SessionSummary[]> {
    return this.reconcile(true);
  }

  private async reconcile(rebuild: boolean): Promise<SessionSummary[]> {
    const [onDisk, index] = await Promise.all([this.transcripts(), this.readIndex()]);
    const set = new Map<string, SessionSummary>();
    const dropped = [...index.keys()].filter((id) => !onDisk.has(id));
    const missing = [...onDisk.keys()].filter((id) => !index.has(id)).length;
    for (const [id, mtime] of onDisk) {
      const entry = index.get(id);
      if (entry && !rebuild && mtime <= entry.updatedAt) continue;
      try {
        set.set(id, summarize(await loadSession(join(this.dir, `${id}.jsonl`)), mtime));
      } catch (err) {
        if (entry) dropped.push(id);
        this.repaired.fire({ kind: 'unreadable', message: `${id}: not listed, ${err instanceof Error ? err.message : String(err)} (the file is kept)` });
      }
    }
    for (const id of dropped) index.delete(id);
    for (const [id, e] of set) index.set(id, e);
    if (dropped.length || set.size || rebuild) {
      const out = [...index.values()];
      try {
        await this.editIndex((all) => {
          if (rebuild) all.clear();
          for (const id of dropped) all.delete(id);
          for (const e of rebuild ? out : set.values()) all.set(e.id, e);
        });
        if (!rebuild && (dropped.length || missing)) this.repaired.fire({ kind: 'index', message: `the session index was mended: ${missing} transcript(s) added, ${dropped.length} entr(ies) without a readable transcript dropped` });
      } catch {
        // Listing still answers; the index is mended by the next writer.
      }
    }
    return [...index.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }
}

export function summarize(s: LoadedSession, updatedAt: number): SessionSummary {
  return {
    id: s.meta.id,
    title: s.title ?? titleFrom(s.view) ?? 'Untitled session',
    createdAt: s.meta.createdAt,
    updatedAt,
    model: s.meta.model,
    messageCount: s.view.filter((m) => m.kind === 'user' || m.kind === 'assistant').length,
    tokens: s.tokens,
    cwd: s.meta.cwd,
    ...(s.meta.branch ? { branch: s.meta.branch } : {}),
    preview: previewFrom(s.view),
  };
}
