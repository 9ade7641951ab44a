import { execFile } from 'node:child_process';

export const MAX_STATUS_CHARS = 2000;
const DEFAULT_TIMEOUT_MS = 3000;

export interface GitSnapshot {
  branch: string | undefined;
  mainBranch: string | undefined;
  userName: string | undefined;
  status: string;
  statusTruncated: boolean;
  recentCommits: string;
}

export interface GitSnapshotOptions {
  /** A slow git (huge repo, network filesystem) must not hold the first turn hostage. */
  timeoutMs?: number;
}

/**
 * `core.fsmonitor` names a program that `git status` runs, and a repository that arrives as an
 * archive brings its own .git/config: the snapshot must not run it. (In Restricted Mode no git
 * runs at all: see ContextService.)
 */
const SAFE_CONFIG = ['core.fsmonitor=false'];

/** Runs one git command in a folder; its standard output, or a rejection. */
interface GitRunner {
  raw(args: readonly string[]): Promise<string>;
}

/** Git's own environment variables (GIT_DIR, GIT_WORK_TREE…) would point git elsewhere than the folder asked about. */
function gitEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toUpperCase().startsWith('GIT_')));
}

/**
 * git itself, not through simple-git: simple-git waits 50 ms after every git that printed nothing
 * (its completion plugin), and the snapshot's `status` of a clean tree and `config user.name` of
 * an unset name print nothing, which made that wait most of a new session's context assembly.
 * A command is killed after `timeoutMs`; a folder that does not exist answers with an error.
 */
function git(cwd: string, timeoutMs: number): GitRunner {
  const config = SAFE_CONFIG.flatMap((c) => ['-c', c]);
  return {
    raw: (args) =>
      new Promise((resolve, reject) => {
        execFile('git', [...config, ...args], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: gitEnv(), windowsHide: true }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
      }),
  };
}


async function quiet(p: Promise<string>, keepLeading = false): Promise<string | undefined> {
  try {
    // `status --short` lines start with a meaningful space (" M file"): keep it.
    const raw = await p;
    const s = keepLeading ? raw.replace(/^\n+/, '').trimEnd() : raw.trim();
    return s || undefined;
  } catch {
    return undefined;
  }
}

/** The remote's default branch if known, else main or master: one git process for all three. */
async function mainBranchOf(g: GitRunner): Promise<string | undefined> {
  const refs = await quiet(g.raw(['for-each-ref', '--format=%(refname) %(symref)', 'refs/remotes/origin/HEAD', 'refs/heads/main', 'refs/heads/master']));
  if (!refs) return undefined;
  const lines = refs.split('\n').map((l) => l.trim().split(' '));
  const remote = lines.find(([name]) => name === 'refs/remotes/origin/HEAD')?.[1];
  if (remote) return remote.replace(/^refs\/remotes\/origin\//, '');
  if (lines.some(([name]) => name === 'refs/heads/main')) return 'main';
  if (lines.some(([name]) => name === 'refs/heads/master')) return 'master';
  return undefined;
}

/** A detached HEAD is named by the commit it points at. */
async function detachedName(g: GitRunner): Promise<string | undefined> {
  const sha = await quiet(g.raw(['rev-parse', '--short', 'HEAD']));
  return sha ? `HEAD (detached at ${sha})` : undefined;
}

/**
 * Branch, main branch, short status, the last five commits and the user name, fetched in
 * parallel. Undefined outside a repository, or when git does not answer in time.
 */
export async function takeGitSnapshot(cwd: string, opts: GitSnapshotOptions = {}): Promise<GitSnapshot | undefined> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const g = git(cwd, timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  const work = (async (): Promise<GitSnapshot | undefined> => {
    // All at once, the repository check included: a folder that is not a repository just
    // answers each of them with an error.
    // The branch comes from the symbolic ref, which exists before the first commit: asking
    // `rev-parse HEAD` in a fresh `git init` fails and made the folder look like no repository.
    const [inside, symbolic, mainBranch, status, log, userName] = await Promise.all([
      quiet(g.raw(['rev-parse', '--is-inside-work-tree'])),
      quiet(g.raw(['symbolic-ref', '--short', '-q', 'HEAD'])),
      mainBranchOf(g),
      // --no-optional-locks: a snapshot must never contend with the user's own git commands.
      quiet(g.raw(['--no-optional-locks', 'status', '--short']), true),
      quiet(g.raw(['--no-optional-locks', 'log', '--oneline', '-n', '5'])),
      quiet(g.raw(['config', 'user.name'])),
    ]);
    if (inside !== 'true') return undefined;
    const branch = symbolic ?? (await detachedName(g));
    const full = status ?? '';
    const statusTruncated = full.length > MAX_STATUS_CHARS;
    return {
      branch,
      mainBranch,
      userName,
      status: statusTruncated ? full.slice(0, MAX_STATUS_CHARS) : full,
      statusTruncated,
      recentCommits: log ?? '',
    };
  })();
  try {
    return await Promise.race([work, deadline]);
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
    `Main branch (usually the target for pull requests): ${s.mainBranch ?? '(unknown)'}`,
    '',
  ];
  if (s.userName) lines.push(`Git user: ${s.userName}`, '');
  lines.push('Status:', s.status || '(clean)');
  if (s.statusTruncated) {
    lines.push(`… (status cut at ${MAX_STATUS_CHARS} characters; run "git status" with the Bash tool for the full list)`);
  }
  lines.push('', 'Recent commits:', s.recentCommits || '(none)');
  return lines.join('\n');
}

/** The work tree's top folder, or undefined outside a repository. */
export async function repoRoot(cwd: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string | undefined> {
  return quiet(git(cwd, timeoutMs).raw(['rev-parse', '--show-toplevel']));
}

/**
 * The folder all worktrees of a repository share: the parent of the common git dir. Memory is
 * keyed on it so every worktree of one repository sees the same memories.
 */
export async function canonicalRepoRoot(cwd: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string | undefined> {
  const common = await quiet(git(cwd, timeoutMs).raw(['rev-parse', '--path-format=absolute', '--git-common-dir']));
  if (!common) return undefined;
  return common.endsWith('/.git') || common.endsWith('\\.git') ? common.slice(0, -5) : common;
}
