// Why this file is long: it is the one reading of every repository a git in Bash may reach (found,
// located, its configs, its git folders and submodules) under one budget; split, each part would
// need the others' walk and bounds again.
// The repositories a git inside a Bash command may use, and what their own files tell git to do.
// Git finds a repository by walking up from where it runs (or down, once a command changes into a
// nested one), then obeys what that repository's files say: the config's settings and includes,
// `core.worktree`, a `.git` file's `gitdir:`, a `commondir` file. A downloaded repository writes all
// of those itself. The settings are switched off by the guard (gitGuard.ts); a pointer that sends
// git to work on another folder or another repository cannot be switched off from outside, so
// such a repository makes the command refused instead.
import { basename, dirname, join, resolve } from 'node:path';
import { isInside, kernelJoin, realLocation } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { listTree } from '../fs/scan';
import { inspect } from '../fs/stat';
import { CONFIG_BYTES_PER_LOOK, newConfigRead, parseGitConfig, readConfigFile, type FileEntry } from './gitConfigFile';
import { LOCAL_REMOTE, settingRefusal } from './gitSettings';
import { homedir } from 'node:os';
import { folderNames, listFolder } from '../fs/list';
import { readGitPointer, verifiedWorktree } from './gitRepo';
import { gitIndexProblem } from './gitIndex';
import { JudgedFiles } from './judgedFiles';
import { GIT_STRATEGIES } from './gitStrategies';

/** How much of the workspace is looked through for nested repositories, and for how long. */
const NESTED_BOUNDS = { entries: 50_000, ms: 1_000 };

export interface Reach {
  /** Every config name the reachable repositories set, includes followed (any condition). */
  names: string[];
  /** Why no command may run here: a repository points git at files outside the workspace. */
  refusal?: string;
  /** A repository names a remote on this machine outside the workspace: git's local transport goes off. */
  noLocalTransport?: boolean;
  /**
   * The tree was too big to look through for nested repositories: a submodule there may have
   * drivers no override names, and `git status` enters submodules by itself, so it must not.
   */
  unwalked?: boolean;
}

/**
 * `.git` entries a command run in `cwd` may reach: those of the folders above it, and nested ones
 * below; `cut` when the look through the tree stopped at its bounds, so nested ones may be missing.
 */
async function dotGitsAround(cwd: string, bounds: { entries: number; ms: number }): Promise<{ dotGits: string[]; cut: boolean }> {
  const out: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    out.push(join(dir, '.git'));
    if (dirname(dir) === dir) break;
  }
  // A repository nested in the workspace (a vendored checkout, a submodule) is git's repository
  // once a command changes into it. Bounded: a huge tree is looked through only in part.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), bounds.ms);
  let met = 0;
  let cut = false;
  const found = (rel: string) => {
    if (++met > bounds.entries) stop.abort();
    // Node reads names as UTF-8: one that is not comes back with U+FFFD, and what it holds cannot
    // be looked at under that name. The tree is then not looked through.
    if (rel.includes('\uFFFD')) {
      cut = true;
      stop.abort();
    }
    if (basename(rel) !== '.git') return false;
    out.push(join(cwd, rel));
    return true;
  };
  try {
    await listTree(cwd, { maxFiles: 0, signal: stop.signal, throwOnError: true, skipDir: (rel) => found(rel), skipFile: (rel) => (found(rel), true) });
  } catch {
    // A folder that cannot be read may hold a repository git can still enter.
    cut = true;
  } finally {
    clearTimeout(timer);
  }
  return { dotGits: out, cut: cut || stop.signal.aborted };
}

interface Located {
  /** The folder holding the `.git` entry: where git takes the work tree to be. */
  top: string;
  gitDir: string;
  commonDir: string;
  /** `.git` is a file or a link, not the folder itself. */
  redirected: boolean;
}

/**
 * The git folder a `.git` entry stands for, as git follows it: the folder, a `gitdir:` file, a
 * link; and its shared folder. undefined where there is no `.git`; a refusal where a pointer
 * cannot be read as git reads it, or leads to no folder (git's reading and ours may differ there,
 * and the config git would read is then unknown).
 */
async function locate(dotGit: string): Promise<Located | { refusal: string } | undefined> {
  const kind = (await inspect(dotGit, { follow: false })).kind;
  const top = dirname(dotGit);
  let gitDir: string;
  if (kind === 'folder') gitDir = dotGit;
  else if (kind === 'link') gitDir = realLocation(dotGit);
  else if (kind === 'file') {
    const pointer = await readGitPointer(dotGit, { gitfile: true });
    if (!pointer || 'refused' in pointer) return { refusal: pointer?.refused ?? `${dotGit} cannot be read` };
    gitDir = realLocation(kernelJoin(top, pointer.path));
  } else return undefined;
  if ((await inspect(gitDir)).kind !== 'folder') return kind === 'folder' ? undefined : { refusal: `${dotGit} leads to ${gitDir}, which is no folder` };
  const common = await readGitPointer(join(gitDir, 'commondir'));
  if (common && 'refused' in common) return { refusal: common.refused };
  return { top, gitDir, commonDir: common ? realLocation(kernelJoin(gitDir, common.path)) : gitDir, redirected: kind !== 'folder' };
}

const same = (a: string, b: string) => realLocation(a) === realLocation(b);

/**
 * Why git would work outside the workspace from this repository, if it would: a `core.worktree`
 * naming another folder than the one holding `.git`, or git data kept in another repository's
 * folder. Allowed are the pointers git itself writes: a worktree whose folder points back
 * (`git worktree add`), a submodule whose git folder names it as its work tree, and any pointer
 * that stays inside the workspace.
 */
async function redirection(repo: Located, entries: readonly FileEntry[], workspace: string): Promise<string | undefined> {
  // Walked as git's chdir walks them: `../link/..` leaves the link's target.
  const worktrees = entries.filter((e) => e.name === 'core.worktree' && e.value).map((e) => realLocation(kernelJoin(repo.gitDir, e.value!)));
  const away = worktrees.find((w) => !same(w, repo.top));
  if (away) return `sets core.worktree to ${away}, so git would read and change the files there`;
  const verified = repo.redirected ? await verifiedWorktree(join(repo.top, '.git')) : undefined;
  const pointsBack = worktrees.length > 0 || (verified !== undefined && same(verified.gitDir, repo.gitDir));
  if (repo.redirected && !pointsBack && !isInside(workspace, repo.gitDir)) return `keeps its git data in ${repo.gitDir}, another repository's folder`;
  const sharedOk = same(repo.commonDir, repo.gitDir) || (verified !== undefined && same(verified.commonDir, repo.commonDir)) || isInside(workspace, repo.commonDir);
  if (!sharedOk) return `shares its git data with ${repo.commonDir} (its commondir file), another repository's folder`;
  return undefined;
}

/** Settings the reachable repositories may set in all, includes counted. */
const MAX_SETTINGS = 20_000;
const tooManySettings = (names: string[]): Reach => ({ names, refusal: `Not run: the repositories here set more than ${MAX_SETTINGS.toLocaleString('en-US')} git settings in all, too many to judge before each command.` });

/** Entries of a git folder looked through for links leading out; past this it is refused as too big to judge. */
const GIT_FOLDER_ENTRIES = 50_000;
/** The same for every git folder a command may reach, together. */
const GIT_FOLDERS_ENTRIES = 200_000;

/**
 * Git data of this repository kept outside the workspace: a link anywhere in its git folders
 * (MERGE_MSG, rebase-merge/done, which `git status` prints, info/grafts, refs, logs, modules, and
 * packs: a link there borrowed another repository's objects, pass 63 H3) to somewhere else, or
 * objects borrowed from another repository (alternates, a multi-pack-index naming packs
 * elsewhere). Git reads them as this repository's. Object fan-out folders are not entered: there
 * can be hundreds of thousands of loose objects.
 */
async function dataOutside(repo: Located, workspace: string, shared = { entries: GIT_FOLDERS_ENTRIES }): Promise<string | undefined> {
  const queue = [...new Set([repo.gitDir, repo.commonDir])];
  const walked = new Set<string>();
  let budget = GIT_FOLDER_ENTRIES;
  while (queue.length) {
    const dir = queue.shift()!;
    if (walked.has(dir)) continue;
    walked.add(dir);
    const listed = await folderNames(dir, Math.min(budget, shared.entries) + 1);
    budget -= listed.length;
    shared.entries -= listed.length;
    if (shared.entries < 0) return `is one of repositories whose git folders hold more than ${GIT_FOLDERS_ENTRIES.toLocaleString('en-US')} entries in all, too many to look through for links leading outside the workspace`;
    if (budget < 0) return `holds more than ${GIT_FOLDER_ENTRIES.toLocaleString('en-US')} entries in its git folder, too many to look through for links leading outside the workspace`;
    for (const name of listed) {
      const path = join(dir, name);
      // Node reads names as UTF-8: one that is not cannot be looked at by the name it comes back with.
      if (name.includes('\uFFFD')) return `keeps ${path}, whose name is not UTF-8, in its git folder`;
      const kind = (await inspect(path, { follow: false })).kind;
      if (kind === 'link') {
        const target = realLocation(path);
        if (!isInside(workspace, target) && !isInside(repo.commonDir, target)) return `keeps ${path} as a link to ${target}, outside the workspace`;
      } else if (kind === 'folder' && !(basename(dir) === 'objects' && /^[0-9a-f]{2}$/.test(name))) queue.push(path);
    }
  }
  return borrowedOutside(repo.commonDir, workspace);
}

/**
 * Objects a git folder borrows from another repository (objects/info/alternates): git reads them
 * as its own, and follows each alternate's own alternates in turn (pass 57 C2: one inside the
 * workspace whose alternates lead out). A line git unquotes (`"/abs/repo/.git/objects"`,
 * C-style) is not read here, so it counts as outside (pass 54 P3), as does any HTTP alternate.
 */
async function borrowedOutside(gitDir: string, workspace: string): Promise<string | undefined> {
  const midx = await packsNamedElsewhere(join(gitDir, 'objects', 'pack'));
  if (midx) return midx;
  const queue = [join(gitDir, 'objects')];
  const seen = new Set<string>();
  while (queue.length) {
    const objects = queue.shift()!;
    const real = realLocation(objects);
    if (seen.has(real)) continue;
    seen.add(real);
    // Git follows alternates five deep; past a few more here, the chain is not read through.
    if (seen.size > 16) return 'borrows objects through a chain of alternates too long to follow';
    for (const file of ['alternates', 'http-alternates']) {
      const read = await readRegularFile(join(objects, 'info', file), 64 * 1024);
      if (!read.ok) continue;
      for (const line of read.bytes.toString('utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
        if (file === 'http-alternates' || line.startsWith('"') || !isInside(workspace, kernelJoin(objects, line))) return `borrows objects from ${line} (objects/info/${file}), outside the workspace or by a quoted path Threadline does not read`;
        queue.push(kernelJoin(objects, line));
      }
    }
  }
  return undefined;
}

/**
 * A multi-pack-index names its packs in its PNAM chunk, and git opens each name in the pack
 * folder, `../` and all (pass 63 H3: `../../../../home/private/.git/objects/pack/pack-….idx`).
 * Any name that is not a plain file name counts as borrowing from elsewhere.
 */
async function packsNamedElsewhere(packDir: string): Promise<string | undefined> {
  const files = [join(packDir, 'multi-pack-index'), ...(await folderNames(join(packDir, 'multi-pack-index.d'), 1_000)).map((n) => join(packDir, 'multi-pack-index.d', n))];
  for (const file of files) {
    const info = await inspect(file, { follow: false });
    if (info.kind === 'missing') continue;
    // Read once while unchanged, and only up to a size: 40 sparse files of 250 MB were read in full
    // before every command (pass 66 M1).
    const why = await midxJudged.get(file, info, '', () => judgeMidx(file, info.kind, info.size));
    if (why) return why;
  }
  return undefined;
}

const midxJudged = new JudgedFiles();
const MAX_MIDX_BYTES = 64 * 1024 * 1024;

async function judgeMidx(file: string, kind: string, size: number): Promise<string | undefined> {
  if (kind !== 'file') return `keeps ${file} as something other than a file`;
  if (size > MAX_MIDX_BYTES) return `keeps ${file}, a multi-pack-index of more than ${MAX_MIDX_BYTES / 1024 / 1024} MB, too big to read through`;
  const read = await readRegularFile(file, MAX_MIDX_BYTES);
  if (!read.ok) return `keeps ${file}, which cannot be read through`;
  const names = midxPackNames(read.bytes);
  if (names === undefined) return `keeps ${file}, a multi-pack-index Threadline cannot read`;
  const bad = names.find((n) => n === '' || /[/\\]/.test(n) || n.startsWith('.'));
  return bad === undefined ? undefined : `has a multi-pack-index naming the pack ${JSON.stringify(bad)}, which lies outside its pack folder`;
}

/** The pack names of a multi-pack-index (its PNAM chunk), or undefined when it cannot be read. */
export function midxPackNames(b: Buffer): string[] | undefined {
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'MIDX') return undefined;
  const chunks = b[6]!;
  const table = 12;
  if (table + (chunks + 1) * 12 > b.length) return undefined;
  for (let i = 0; i < chunks; i++) {
    const at = table + i * 12;
    if (b.toString('latin1', at, at + 4) !== 'PNAM') continue;
    const start = Number(b.readBigUInt64BE(at + 4));
    const end = Number(b.readBigUInt64BE(at + 16));
    if (start > end || end > b.length) return undefined;
    // Git reads as many names as the header counts packs, wherever they run to (pass 66 H2: a
    // second name just past the chunk): fewer in the chunk than that is a file not read here.
    const names = b.toString('utf8', start, end).split('\0').filter(Boolean);
    return names.length >= b.readUInt32BE(8) ? names : undefined;
  }
  return undefined;
}

/**
 * State git resumes from that runs commands: an interactive rebase's todo list (`exec` lines), which
 * `git rebase --continue` runs (pass 57 H1). A downloaded git folder may hold one.
 */
async function resumesCommands(gitDir: string): Promise<string | undefined> {
  for (const rel of ['rebase-merge/git-rebase-todo', 'rebase-merge/git-rebase-todo.backup', 'sequencer/todo', 'rebase-merge/strategy', 'sequencer/opts', 'rebase-merge/gpg_sign_opt', 'rebase-apply/gpg_sign_opt']) {
    const read = await readRegularFile(join(gitDir, rel), 1024 * 1024);
    if (!read.ok) {
      if (read.reason !== 'missing') return `keeps ${rel}, which cannot be read through`;
      continue;
    }
    const text = read.bytes.toString('utf8');
    if (/^\s*(x|exec)(\s|$)/m.test(text)) return `has a rebase in progress whose list (${rel}) runs commands when it goes on`;
    // A resumed pick signs with your key when its state says so (pass 63 H2).
    if (rel.endsWith('gpg_sign_opt') && text.trim() !== '') return `has a rebase in progress (${rel}) that would sign its commits with your key`;
    // The merge strategy a resumed pick uses is the program `git-merge-NAME` (pass 60 H2). opts is
    // read as git reads a config (any case, the key on the header line, every value: pass 63 H1).
    const settings = rel === 'sequencer/opts' ? parseGitConfig(text).entries : [];
    const strategies = rel === 'rebase-merge/strategy' ? [text.trim()] : settings.filter((e) => /(^|\.)strategy$/.test(e.name)).map((e) => (e.value ?? '').trim());
    const strategy = strategies.find((v) => v !== '' && !GIT_STRATEGIES.has(v));
    if (strategy !== undefined) return `has a pick in progress (${rel}) whose merge strategy ${JSON.stringify(strategy)} is a program git would run when it goes on`;
    if (settings.some((e) => /(^|\.)gpg-sign$/.test(e.name))) return `has a pick in progress (${rel}) that would sign its commits with your key`;
  }
  return undefined;
}

/**
 * The git folders of submodules kept inside a repository's git folder (`modules/<name>`, names
 * with slashes and nested submodules too), found as git finds them: every entry there, a folder,
 * a link or a `gitdir:` file, is located as a `.git` entry is (commondir included), since git
 * reaches `modules/<name>` by name, whatever it is. `cut` when there were more than can be looked
 * through, or a name that cannot be read; a refusal where one points git outside.
 */
/** Whether a folder holds what makes git take it for a git folder (any kind of entry: a link counts). */
async function looksLikeGitDir(dir: string): Promise<boolean> {
  for (const name of ['HEAD', 'config', 'commondir', 'objects', 'refs']) if ((await inspect(join(dir, name), { follow: false })).kind !== 'missing') return true;
  return false;
}

async function moduleGitDirs(repo: Located, workspace: string, shared: { entries: number; walked: Set<string> }): Promise<{ dirs: Located[]; cut: boolean } | { refusal: string }> {
  const dirs: Located[] = [];
  const queue = [join(repo.commonDir, 'modules')];
  let budget = 20_000;
  while (queue.length) {
    const dir = queue.shift()!;
    // 20 repositories whose `modules` are links to one big folder walked it 20 times (pass 54 P2):
    // each folder is walked once a look, and all of them share the look's budget.
    const real = realLocation(dir);
    if (shared.walked.has(real)) continue;
    shared.walked.add(real);
    let listed;
    try {
      listed = await listFolder(dir, 5_000);
    } catch {
      continue;
    }
    budget -= listed.entries.length;
    shared.entries -= listed.entries.length;
    if (listed.capped || budget < 0 || shared.entries < 0) return { dirs, cut: true };
    for (const entry of listed.entries) {
      if (entry.name.includes('\uFFFD')) return { dirs, cut: true };
      const path = join(dir, entry.name);
      // A plain folder that is no git folder is part of a name with slashes (`modules/lib/a`).
      if (entry.kind === 'folder' && !(await looksLikeGitDir(path))) {
        queue.push(path);
        continue;
      }
      const found = await locate(path);
      if (found && 'refusal' in found) return found;
      if (!found) continue;
      if (!isInside(workspace, found.gitDir) && !isInside(repo.commonDir, found.gitDir)) return { refusal: `${path} leads to ${found.gitDir}, a git folder outside the workspace` };
      const borrowed = (await borrowedOutside(found.commonDir, workspace)) ?? (await gitIndexProblem(found.gitDir)) ?? (await resumesCommands(found.gitDir));
      if (borrowed) return { refusal: `${path} ${borrowed}` };
      dirs.push(found);
      // Submodules nest: `modules/a/modules/b`.
      queue.push(join(found.gitDir, 'modules'));
    }
  }
  return { dirs, cut: false };
}

/**
 * Why git must not be started on the repository whose `.git` entry this is (a file, link or
 * folder pointing at another repository's git data, or a work tree elsewhere), or undefined when
 * its pointers are git's own. For callers that start git on one known repository (the snapshot).
 */
export async function pointerRefusal(dotGit: string, workspace: string): Promise<string | undefined> {
  const repo = await locate(dotGit);
  if (!repo) return `${dotGit} leads to no git folder`;
  if ('refusal' in repo) return repo.refusal;
  const read = newConfigRead();
  for (const file of [join(repo.commonDir, 'config'), join(repo.gitDir, 'config.worktree'), join(repo.commonDir, 'config.worktree'), join(repo.gitDir, 'config')]) await readConfigFile(file, read);
  if (read.problems[0]) return read.problems[0];
  // A `.git` folder too may keep its data elsewhere (`commondir`, linked `refs` or `objects`,
  // alternates): git would print another repository's commits and names as this one's.
  return (await redirection(repo, read.entries, workspace)) ?? (await dataOutside(repo, workspace));
}

/** What the repositories reachable from `cwd` (the workspace folder) tell git, and whether any points git out of the workspace. */
export async function reachableRepositories(cwd: string, bounds = NESTED_BOUNDS): Promise<Reach> {
  const names: string[] = [];
  let noLocalTransport = false;
  const { dotGits, cut } = await dotGitsAround(cwd, bounds);
  let unwalked = false;
  // 200 `.git` files pointing at one big git folder were that folder walked 200 times, minutes for
  // an `ls` (pass 45 E3): each git folder is read once, and all of them share one budget.
  const judged = new Set<string>();
  const budget = { entries: GIT_FOLDERS_ENTRIES };
  const configBytes = { bytes: CONFIG_BYTES_PER_LOOK };
  const moduleBudget = { entries: GIT_FOLDERS_ENTRIES, walked: new Set<string>() };
  for (const dotGit of dotGits) {
    const repo = await locate(dotGit);
    if (!repo) continue;
    if ('gitDir' in repo) {
      const key = `${repo.gitDir}\0${repo.commonDir}`;
      if (judged.has(key)) continue;
      judged.add(key);
    }
    if ('refusal' in repo) return { names, refusal: `Not run: ${repo.refusal}. A git command here could read another git folder's config than Threadline reads, and run what it names.` };
    const files = [join(repo.commonDir, 'config'), join(repo.gitDir, 'config.worktree'), join(repo.commonDir, 'config.worktree')];
    if (!same(repo.commonDir, repo.gitDir)) files.push(join(repo.gitDir, 'config'));
    // Each repository reads its files afresh: two repositories sharing a config judge its core.worktree each against their own folder.
    // Its includes may lead into the workspace and its own git folders; one leading elsewhere is not read.
    const read = newConfigRead([cwd, repo.gitDir, repo.commonDir], configBytes);
    for (const file of files) await readConfigFile(file, read);
    const entries = read.entries;
    names.push(...entries.map((e) => e.name));
    // Each value is judged as a path (gitSettings.ts), a look at the disk each: real configs hold dozens.
    if (names.length > MAX_SETTINGS) return tooManySettings(names);
    const refuse = (why: string): Reach => ({
      names,
      refusal: `Not run: the repository at ${repo.top} ${why}. A git command here (or a program that runs git) could run programs or reach files the workspace rules do not cover. Remove that from its git folder, or open the folder it names instead.`,
    });
    const redirected = await redirection(repo, entries, cwd);
    if (redirected) return refuse(`${redirected}, outside the workspace`);
    if (read.problems[0]) return refuse(`has a config git reads differently from Threadline: ${read.problems[0]}`);
    if (read.outside[0]) return refuse(read.outside[0]);
    const ctx = { workspace: cwd, top: repo.top, home: homedir() };
    for (const e of entries) {
      const why = settingRefusal(e, ctx);
      if (why === LOCAL_REMOTE) noLocalTransport = true;
      else if (why) return refuse(`${why} (in ${e.file})`);
    }
    const linked = await dataOutside(repo, cwd, budget);
    if (linked) return refuse(linked);
    const sha256 = entries.some((e) => e.name === 'extensions.objectformat' && e.value?.trim().toLowerCase() === 'sha256');
    for (const dir of new Set([repo.gitDir, repo.commonDir])) {
      const state = (await gitIndexProblem(dir, sha256 ? 32 : 20)) ?? (await resumesCommands(dir));
      if (state) return refuse(state);
    }
    // A submodule's own config, obeyed when git fetches or enters it, is judged as the repository's is.
    const modules = await moduleGitDirs(repo, cwd, moduleBudget);
    if ('refusal' in modules) return refuse(modules.refusal);
    if (modules.cut) unwalked = true;
    for (const mod of modules.dirs) {
      // Read as git reads a repository's config: the shared folder's, then its own.
      const moduleRead = newConfigRead([cwd, mod.gitDir, mod.commonDir, repo.commonDir], configBytes);
      const moduleFiles = [join(mod.commonDir, 'config'), join(mod.gitDir, 'config.worktree'), join(mod.commonDir, 'config.worktree')];
      if (!same(mod.commonDir, mod.gitDir)) moduleFiles.push(join(mod.gitDir, 'config'));
      for (const file of moduleFiles) await readConfigFile(file, moduleRead);
      names.push(...moduleRead.entries.map((e) => e.name));
      if (names.length > MAX_SETTINGS) return tooManySettings(names);
      if (moduleRead.problems[0]) return refuse(`has a submodule config git reads differently from Threadline: ${moduleRead.problems[0]}`);
      if (moduleRead.outside[0]) return refuse(moduleRead.outside[0]);
      // Its work tree, where one is checked out, is judged by the walk for nested repositories
      // (its `.git` file); one checked out beside another worktree of the repository lies elsewhere.
      const worktree = moduleRead.entries.find((e) => e.name === 'core.worktree' && e.value);
      const top = worktree ? realLocation(kernelJoin(mod.gitDir, worktree.value!)) : cwd;
      for (const e of moduleRead.entries) {
        if (e.name === 'core.worktree') continue;
        const why = settingRefusal(e, { workspace: cwd, top, home: homedir() });
        if (why === LOCAL_REMOTE) noLocalTransport = true;
        else if (why) return refuse(`${why} (in ${e.file})`);
      }
    }
  }
  return { names, ...(noLocalTransport ? { noLocalTransport } : {}), ...(cut || unwalked ? { unwalked: true } : {}) };
}
