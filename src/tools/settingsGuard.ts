// The workspace files that grant (`.claude/settings.json` may allow Bash, `.mcp.json` starts
// servers): Threadline writes them only through an edit the user approves. A Bash command may
// still rewrite one by a way no word of it shows: `git pull origin refs/pull/7/head` checks out a
// stranger's `.claude/settings.json`, `git stash` puts back a committed one (pass 78 C3, M1). So
// each is read before a command runs and put back after it, whatever wrote it.
import { dirname, join } from 'node:path';
import { isInside, realPathOf } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { inspect } from '../fs/stat';
import { makeFolder, removeFile, writeFileAtomic } from '../fs/write';

/**
 * The files, relative to the workspace, whose text grants permissions, starts servers or runs tasks
 * when the folder opens. Not `.vscode/settings.json`: you may change it in the editor while a
 * command runs, and putting it back would undo that.
 */
export const GRANTING_FILES: readonly string[] = ['.claude/settings.json', '.claude/settings.local.json', '.mcp.json', '.vscode/mcp.json', '.vscode/tasks.json'];

/** Larger than any settings file; past it a file is left as it is and only named. */
const MAX_BYTES = 1024 * 1024;

type Before = { kind: 'missing' } | { kind: 'file'; bytes: Buffer; folder: string } | { kind: 'other' };

/** A granting folder as it was: a link is known by where it leads (its text may be relative). */
type FolderShape = { kind: 'folder' | 'missing' | 'other' } | { kind: 'link'; leadsTo: string | undefined };

export interface GrantingSnapshot {
  readonly files: ReadonlyMap<string, Before>;
  readonly folders: ReadonlyMap<string, FolderShape>;
}

async function state(path: string): Promise<Before> {
  const info = await inspect(path, { follow: false });
  if (info.kind === 'missing') return { kind: 'missing' };
  if (info.kind !== 'file') return { kind: 'other' };
  const read = await readRegularFile(path, MAX_BYTES);
  const folder = await realPathOf(dirname(path));
  return read.ok && folder !== undefined ? { kind: 'file', bytes: read.bytes, folder } : { kind: 'other' };
}

/** Whether a file made by the command lies in the workspace itself (its folder not a link out). */
async function madeInside(cwd: string, path: string): Promise<boolean> {
  const [root, folder] = await Promise.all([realPathOf(cwd), realPathOf(dirname(path))]);
  return root !== undefined && folder !== undefined && isInside(root, folder);
}

async function folderShape(path: string): Promise<FolderShape> {
  const info = await inspect(path, { follow: false });
  if (info.kind === 'link') return { kind: 'link', leadsTo: await realPathOf(path) };
  return { kind: info.kind === 'folder' || info.kind === 'missing' ? info.kind : 'other' };
}

const sameShape = (a: FolderShape, b: FolderShape) => a.kind === b.kind && (a.kind !== 'link' || (b.kind === 'link' && a.leadsTo === b.leadsTo));

export async function snapshotGranting(cwd: string): Promise<GrantingSnapshot> {
  const files = new Map<string, Before>();
  const folders = new Map<string, FolderShape>();
  for (const rel of GRANTING_FOLDERS) folders.set(rel, await folderShape(join(cwd, rel)));
  for (const rel of GRANTING_FILES) files.set(rel, await state(join(cwd, rel)));
  return { files, folders };
}

/** The folders the granting files live in (`.claude`, `.vscode`), relative to the workspace. */
const GRANTING_FOLDERS = [...new Set(GRANTING_FILES.map((f) => dirname(f)).filter((d) => d !== '.'))];

/**
 * A granting folder the command turned into a link (`.claude -> src/cfg`, checked out by a pull,
 * pass 81 C1), or into anything but a folder: removed, so that what it leads to grants nothing and
 * the files that were there can be put back.
 */
async function unlinkGrantingFolders(cwd: string, before: GrantingSnapshot): Promise<string[]> {
  const removed: string[] = [];
  for (const rel of GRANTING_FOLDERS) {
    const now = await folderShape(join(cwd, rel));
    if (now.kind === 'missing' || now.kind === 'folder') continue;
    // A link you made yourself (worktrees sharing one `.claude`) is yours; only one the command made or changed goes (pass 84 M1).
    const was = before.folders.get(rel);
    if (was && sameShape(was, now)) continue;
    await removeFile(join(cwd, rel));
    removed.push(rel);
  }
  return removed;
}

/**
 * Puts back each granting file the command changed, made or removed; what it says is for the
 * command's result (empty when nothing changed). A file whose folder is now elsewhere (a link
 * made in its place) is not written through, only named.
 */
export async function restoreGranting(cwd: string, before: GrantingSnapshot): Promise<string> {
  const put: string[] = [];
  const left: string[] = [];
  const unlinked = await unlinkGrantingFolders(cwd, before).catch(() => [] as string[]);
  for (const [rel, was] of before.files) {
    const path = join(cwd, rel);
    const now = await state(path);
    if (was.kind === 'missing' && now.kind === 'missing') continue;
    if (was.kind === 'file' && now.kind === 'file' && was.bytes.equals(now.bytes)) continue;
    if (was.kind === 'other' && now.kind === 'other') continue;
    try {
      // Its folder removed with it (`git checkout HEAD~1` before the file was tracked, pass 81 M1) or unlinked above: made again.
      if (was.kind === 'file' && (unlinked.includes(dirname(rel)) || (await inspect(dirname(path), { follow: false })).kind === 'missing')) await makeFolder(dirname(path));
      if (was.kind === 'file' && (await realPathOf(dirname(path))) === was.folder) {
        if (now.kind !== 'file') await removeFile(path);
        await writeFileAtomic(path, was.bytes);
        put.push(rel);
      } else if (was.kind === 'missing' && (await madeInside(cwd, path))) {
        await removeFile(path);
        put.push(rel);
      } else left.push(rel);
    } catch {
      left.push(rel);
    }
  }
  const lines: string[] = [];
  if (unlinked.length) lines.push(`Threadline removed ${unlinked.join(', ')}, which the command made a link or a file: the files that grant are kept in a folder of the workspace itself.`);
  if (put.length) lines.push(`Threadline put back ${put.join(', ')}, which the command changed: files that grant permissions or start programs change only through an edit you approve.`);
  if (left.length) lines.push(`The command changed ${left.join(', ')}, which Threadline could not put back; check ${left.length === 1 ? 'it' : 'them'} before the next session.`);
  return lines.join('\n');
}

/** How often the files that grant are compared while a job a command left running lives. */
const WATCH_MS = 500;

const watches = new Set<{ cwd: string; before: GrantingSnapshot; timer: NodeJS.Timeout }>();

/**
 * A command that left a job running (`… &`, `nohup`) is judged and put back once, when its shell
 * exits; the job may write a file that grants after that (pass 87 M1). Until `alive` says the job
 * has ended, the files are compared every half second and put back as they were before the
 * command; once more when it ends.
 */
export function watchGrantingWhile(cwd: string, before: GrantingSnapshot, alive: () => boolean): void {
  let busy = false;
  const w = {
    cwd,
    before,
    timer: setInterval(() => {
      if (busy) return;
      busy = true;
      const ended = !alive();
      void restoreGranting(cwd, before)
        .catch(() => '')
        .finally(() => {
          busy = false;
          if (ended) {
            clearInterval(w.timer);
            watches.delete(w);
          }
        });
    }, WATCH_MS),
  };
  w.timer.unref();
  watches.add(w);
}

/** Puts the files back one last time for every job still watched, and stops watching: the CLI calls it after ending those jobs, before it exits. */
export async function settleGrantingWatches(): Promise<void> {
  for (const w of [...watches]) {
    clearInterval(w.timer);
    watches.delete(w);
    await restoreGranting(w.cwd, w.before).catch(() => '');
  }
}
