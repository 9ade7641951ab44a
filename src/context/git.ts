import { branchFromFiles, findRepository, type RepoLocation } from '../tools/gitRepo';
import { HardenedGit } from './gitProcess';
import { pointerRefusal } from '../tools/gitReach';

export const MAX_STATUS_CHARS = 2000;
export const MAX_COMMITS_CHARS = 2000;
/** One line of any section: a commit subject or a file name can be megabytes long. */
export const MAX_LINE_CHARS = 300;
/** Branch names and the user name. */
const MAX_NAME_CHARS = 200;
/** What one git process may hand back at most; the sections are cut far shorter. */
const MAX_OUTPUT_BYTES = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 3000;

export interface GitSnapshot {
  branch: string | undefined;
  mainBranch: string | undefined;
  userName: string | undefined;
  status: string;
  statusTruncated: boolean;
  recentCommits: string;
  /**
   * Git did not run (the folder is not trusted): the branch was read from HEAD's file and
   * nothing else was read.
   */
  filesOnly?: boolean;
}

export interface GitSnapshotOptions {
  /**
   * Whether git may run in this folder (the user trusts it). Without trust no git process
   * starts: the repository's config could make it run programs.
   */
  trusted: boolean;
  /** A slow git (huge repo, network filesystem) must not hold the first turn hostage. */
  timeoutMs?: number;
}

/** Each line cut to MAX_LINE_CHARS, the whole to `max` characters (at a line's end where one fits). */
function capSection(text: string, max: number, maxLine = MAX_LINE_CHARS): { text: string; cut: boolean } {
  let cut = false;
  const lines = text.split('\n').map((l) => {
    if (l.length <= maxLine) return l;
    cut = true;
    return `${l.slice(0, maxLine)}…`;
  });
  let out = lines.join('\n');
  if (out.length > max) {
    cut = true;
    const at = out.lastIndexOf('\n', max);
    out = out.slice(0, at > 0 ? at : max);
  }
  return { text: out, cut };
}

const name = (s: string | undefined) => (s === undefined ? undefined : capSection(s.split('\n')[0]!, MAX_NAME_CHARS, MAX_NAME_CHARS).text);

/** `noDrivers`: the command reads no file content, so no filter or diff driver can run (see HardenedGit). */
async function quiet(git: HardenedGit, args: string[], opts: { keepLeading?: boolean; noDrivers?: boolean } = {}): Promise<{ text: string; cut: boolean } | undefined> {
  const out = await git.run(args, MAX_OUTPUT_BYTES, opts.noDrivers ? { drivers: false } : {}).catch(() => undefined);
  if (!out) return undefined;
  // `status --short` lines start with a meaningful space (" M file"): keep it.
  const s = opts.keepLeading ? out.stdout.replace(/^\n+/, '').trimEnd() : out.stdout.trim();
  return s || out.cut ? { text: s, cut: out.cut } : undefined;
}

/** The remote's default branch if known, else main or master: one git process for all three. */
async function mainBranchOf(git: HardenedGit): Promise<string | undefined> {
  const refs = (await quiet(git, ['for-each-ref', '--format=%(refname) %(symref)', 'refs/remotes/origin/HEAD', 'refs/heads/main', 'refs/heads/master'], { noDrivers: true }))?.text;
  if (!refs) return undefined;
  const lines = refs.split('\n').map((l) => l.trim().split(' '));
  const remote = lines.find(([n]) => n === 'refs/remotes/origin/HEAD')?.[1];
  if (remote) return remote.replace(/^refs\/remotes\/origin\//, '');
  if (lines.some(([n]) => n === 'refs/heads/main')) return 'main';
  if (lines.some(([n]) => n === 'refs/heads/master')) return 'master';
  return undefined;
}

/** An untrusted folder: what HEAD's file says, and nothing that needs git. */
async function fromFiles(repo: RepoLocation): Promise<GitSnapshot> {
  return { branch: name(await branchFromFiles(repo)), mainBranch: undefined, userName: undefined, status: '', statusTruncated: false, recentCommits: '', filesOnly: true };
}

async function fromGit(repo: RepoLocation, timeoutMs: number): Promise<GitSnapshot | undefined> {
  const git = new HardenedGit(repo, timeoutMs);
  // All at once. Each process costs a start-up that a big, busy machine feels, so what the
  // files say without git (the branch, from HEAD) is not asked of git.
  const [fromHead, mainBranch, tracked, untracked, log, userName] = await Promise.all([
    branchFromFiles(repo),
    mainBranchOf(git),
    // --no-optional-locks: a snapshot must never contend with the user's own git commands, and
    // never writes the index (whose hook would run).
    // Status hashes changed files through their filters: it waits until every driver is known.
    // The untracked files come from a second process at the same time: on a big tree the scan
    // for them costs as much as the index check, and the two together are most of a new
    // session's wait. `status --short` lists untracked files after all the tracked ones, in the
    // same form, so the two outputs join into what one `status` would print.
    quiet(git, ['--no-optional-locks', 'status', '--short', '--untracked-files=no', '--ignore-submodules=all'], { keepLeading: true }),
    // Lists names only, reading no content: no driver can run, so it need not wait for them. It
    // also answers whether git takes this for a work tree at all (an empty list is an answer).
    git.run(['ls-files', '--others', '--exclude-standard', '--directory', '--no-empty-directory'], MAX_OUTPUT_BYTES, { drivers: false }).catch(() => undefined),
    // A subject line only, cut by git itself (a 4 MB subject must not crowd out the other four);
    // no signature check, no diff drivers, whatever the config says.
    quiet(git, ['log', `--format=%h %<(${MAX_LINE_CHARS},trunc)%s`, '-n', '5', '--no-show-signature', '--no-ext-diff', '--no-textconv', '--no-color'], { noDrivers: true }),
    quiet(git, ['config', '--get', 'user.name'], { noDrivers: true }),
  ]);
  if (!untracked) return undefined;
  // The branch from HEAD's file; git is asked only where that file is not read (a linked .git).
  // The symbolic ref exists before the first commit, where `rev-parse HEAD` fails.
  let branch = fromHead ?? (await quiet(git, ['symbolic-ref', '--short', '-q', 'HEAD'], { noDrivers: true }))?.text;
  if (!branch) {
    const sha = (await quiet(git, ['rev-parse', '--short', 'HEAD'], { noDrivers: true }))?.text;
    branch = sha ? `HEAD (detached at ${sha})` : undefined;
  }
  const others = untracked.stdout.trim();
  const status = [tracked?.text, others && others.split('\n').map((f) => `?? ${f}`).join('\n')].filter(Boolean).join('\n');
  const s = capSection(status, MAX_STATUS_CHARS);
  // `%<(N,trunc)` pads short subjects with spaces.
  const commits = capSection((log?.text ?? '').split('\n').map((l) => l.trimEnd()).join('\n'), MAX_COMMITS_CHARS);
  return {
    branch: name(branch),
    mainBranch: name(mainBranch),
    userName: name(userName?.text),
    status: s.text,
    statusTruncated: s.cut || Boolean(tracked?.cut) || untracked.cut,
    recentCommits: commits.text,
  };
}

/**
 * Branch, main branch, short status, the last five commits and the user name. In a trusted
 * folder they come from git, run with every program the repository could name switched off; in
 * an untrusted one, no git runs and only the branch is read, from HEAD's file. Undefined outside
 * a repository, or when git does not answer in time. Every section is capped.
 */
export async function takeGitSnapshot(cwd: string, opts: GitSnapshotOptions): Promise<GitSnapshot | undefined> {
  const repo = await findRepository(cwd);
  if (!repo) return undefined;
  if (!opts.trusted) return fromFiles(repo);
  // A `.git` file, link or folder may keep another repository's data (a `gitdir:` pointer,
  // `commondir`, linked `refs`, alternates): its commits and names would go to the model as this
  // repository's. A `.git` entry that is not a verified worktree is judged before git starts;
  // otherwise git (which runs nothing the repository names) starts at once, as the judging walks
  // the git folder, and its answer is dropped if the guard Bash uses refuses (tools/gitReach.ts).
  const refused = pointerRefusal(repo.dotGit, cwd).catch(() => 'unreadable');
  if (repo.gitDir === undefined && (await refused)) return fromFiles(repo);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const [snapshot, why] = await Promise.all([Promise.race([fromGit(repo, timeoutMs), deadline]), refused]);
    return why ? fromFiles(repo) : snapshot;
  } finally {
    clearTimeout(timer);
  }
}

/** The snapshot as the model reads it: worded so it is not mistaken for live state. */
export function formatGitSnapshot(s: GitSnapshot): string {
  const lines = [
    'This is the git status at the start of the conversation. It is a snapshot in time and does not update as the conversation goes on.',
    '',
    `Current branch: ${s.branch ?? '(unknown)'}`,
    '',
  ];
  if (s.filesOnly) {
    lines.push('Not read: the main branch, the status, the recent commits and the user. The folder is not trusted, so no git command ran for this snapshot (the branch comes from .git/HEAD).');
    return lines.join('\n');
  }
  lines.push(`Main branch (usually the target for pull requests): ${s.mainBranch ?? '(unknown)'}`, '');
  if (s.userName) lines.push(`Git user: ${s.userName}`, '');
  lines.push('Status:', s.status || '(clean)');
  if (s.statusTruncated) {
    lines.push(`… (status cut at ${MAX_STATUS_CHARS} characters, ${MAX_LINE_CHARS} a line; run "git status" with the Bash tool for the full list)`);
  }
  lines.push('', 'Recent commits:', s.recentCommits || '(none)');
  return lines.join('\n');
}
