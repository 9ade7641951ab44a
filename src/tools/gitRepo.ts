// What the repository is, read from its files without running git. Git's own answers come from
// the repository's config and pointers (`core.worktree`, a `.git` file's `gitdir:`, a `commondir`
// file), which a cloned repository writes itself; these come from where the opened folder really
// is, and a pointer to another repository is followed only when that repository points back.
import { basename, dirname, join, resolve } from 'node:path';
import { kernelJoin, realPathOf } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { inspect } from '../fs/stat';

/** `.git` pointers, HEAD and the like are a line each; anything bigger is not git's. */
const POINTER_MAX_BYTES = 4096;

export interface RepoLocation {
  /** The folder holding `.git` (real path): the work tree's top, as git finds it before reading any config. */
  top: string;
  /** `<top>/.git`: a folder, a `gitdir:` file, or a symlink. */
  dotGit: string;
  /**
   * The git folder whose files may be read without git: `.git` itself, or the folder a `.git`
   * file names when it is a verified worktree of another repository. Undefined for a pointer
   * that was not verified.
   */
  gitDir: string | undefined;
  /** The folder all worktrees share, when this is a verified worktree. */
  commonDir: string | undefined;
}

// The file-system reads of this module, through the gate, kept to these helpers.
async function readPointer(path: string): Promise<string | undefined> {
  const read = await readRegularFile(path, POINTER_MAX_BYTES);
  return read.ok ? read.bytes.toString('utf8').split('\n')[0]!.trim() : undefined;
}

/** A pointer file as git reads it: the path, why it cannot be followed, or undefined when there is no such file. */
export type GitPointer = { path: string } | { refused: string };

/**
 * What a `.git` file (`gitfile`: it must start `gitdir: `), a `commondir` or a worktree's `gitdir`
 * file names, read as git reads it: only the line ends at the end are dropped, so `gitdir: .gd `
 * names `.gd ` (the folder with the space). A value git would take with other blanks at its ends,
 * a line break inside or a NUL is refused: a reader that trims (as this one once did) follows
 * another folder than git, whose config then goes unread.
 */
export async function readGitPointer(path: string, o: { gitfile?: boolean } = {}): Promise<GitPointer | undefined> {
  const read = await readRegularFile(path, POINTER_MAX_BYTES);
  if (!read.ok) return read.reason === 'missing' ? undefined : { refused: `${path} cannot be read as git reads it (${read.reason})` };
  let text = read.bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(read.bytes)) return { refused: `${path} is not UTF-8` };
  text = text.replace(/[\r\n]+$/, '');
  if (o.gitfile) {
    if (!text.startsWith('gitdir: ')) return { refused: `${path} does not start with "gitdir: "` };
    text = text.slice('gitdir: '.length);
  }
  if (text === '' || /[\r\n\0]/.test(text) || /^\s|\s$/.test(text)) return { refused: `${path} names ${JSON.stringify(text.slice(0, 80))}, with blanks or line breaks git would keep` };
  return { path: text };
}

async function realFolder(path: string): Promise<string | undefined> {
  const real = await realPathOf(path);
  return real !== undefined && (await inspect(real)).kind === 'folder' ? real : undefined;
}

async function lstatKind(path: string): Promise<'dir' | 'file' | 'link' | undefined> {
  const kind = (await inspect(path, { follow: false })).kind;
  return kind === 'link' ? 'link' : kind === 'folder' ? 'dir' : kind === 'file' ? 'file' : undefined;
}

/** A git folder has a HEAD that is a regular file (what git itself checks first). */
async function looksLikeGitDir(dir: string): Promise<boolean> {
  return (await readPointer(join(dir, 'HEAD'))) !== undefined;
}

/**
 * Where a `.git` file points, if it is a worktree of a repository that lists this folder among
 * its worktrees: the target is `<common>/worktrees/<name>`, and its `gitdir` file names this very
 * `.git` file. Anything else (a pointer into someone else's repository, a forged `commondir`)
 * is not followed.
 */
export async function verifiedWorktree(dotGit: string): Promise<{ gitDir: string; commonDir: string } | undefined> {
  const pointer = await readGitPointer(dotGit, { gitfile: true });
  if (!pointer || 'refused' in pointer) return undefined;
  const gitDir = await realFolder(kernelJoin(dirname(dotGit), pointer.path));
  if (!gitDir || !(await looksLikeGitDir(gitDir))) return undefined;
  const common = await readGitPointer(join(gitDir, 'commondir'));
  const back = await readGitPointer(join(gitDir, 'gitdir'));
  if (!common || 'refused' in common || !back || 'refused' in back) return undefined;
  const commonDir = await realFolder(kernelJoin(gitDir, common.path));
  if (!commonDir || (await realFolder(dirname(gitDir))) !== join(commonDir, 'worktrees')) return undefined;
  const backTarget = kernelJoin(gitDir, back.path);
  const [realBack, realDotGit] = await Promise.all([realPathOf(backTarget), realPathOf(dotGit)]);
  if (!realBack || realBack !== realDotGit) return undefined;
  return { gitDir, commonDir };
}

/**
 * The repository the folder is in: the nearest `.git` from the folder's real location upward,
 * as git discovers it, but without `GIT_DIR`, `core.worktree` or any config. Undefined outside
 * a repository. Never runs git.
 */
export async function findRepository(cwd: string): Promise<RepoLocation | undefined> {
  let dir = await realFolder(cwd);
  while (dir) {
    const dotGit = join(dir, '.git');
    const kind = await lstatKind(dotGit);
    if (kind === 'dir' && (await looksLikeGitDir(dotGit))) return { top: dir, dotGit, gitDir: dotGit, commonDir: undefined };
    if (kind === 'file') {
      const wt = await verifiedWorktree(dotGit);
      return { top: dir, dotGit, gitDir: wt?.gitDir, commonDir: wt?.commonDir };
    }
    // A symlinked .git is another repository's folder lent to this one: git follows it, we
    // do not read through it.
    if (kind === 'link') return { top: dir, dotGit, gitDir: undefined, commonDir: undefined };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/**
 * The folder memories are keyed on: the main repository's folder for a verified worktree (so
 * every worktree of one repository shares its memories), else the folder holding `.git`, else
 * the folder itself. A `.git` file or symlink pointing at another repository gets a key of
 * its own: it can neither read that repository's memories nor write into them. So does a folder
 * you have not trusted below the repository's top.
 */
export async function memoryKeyFolder(cwd: string, trusted: boolean): Promise<string> {
  const own = (await realFolder(cwd)) ?? resolve(cwd);
  const repo = await findRepository(cwd);
  if (!repo) return own;
  // A folder you have not trusted inside a repository (an unpacked archive, `vendor/x`) is a
  // stranger to it: it neither reads that repository's memories nor writes into them (pass 70 H2).
  if (!trusted && repo.top !== own) return own;
  if (repo.commonDir) return basename(repo.commonDir) === '.git' ? dirname(repo.commonDir) : repo.commonDir;
  return repo.top;
}

/** The checked-out branch as HEAD names it, read from the file; undefined when it cannot be read safely. */
export async function branchFromFiles(repo: RepoLocation): Promise<string | undefined> {
  if (!repo.gitDir) return undefined;
  // A HEAD that is a link out of the git folder is not read through (its first line would be shown).
  const path = join(repo.gitDir, 'HEAD');
  if ((await realPathOf(path)) !== path) return undefined;
  const head = await readPointer(path);
  if (!head) return undefined;
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  if (ref) return ref[1];
  const sha = /^([0-9a-f]{40}|[0-9a-f]{64})$/.exec(head);
  return sha ? `HEAD (detached at ${sha[1]!.slice(0, 7)})` : undefined;
}
