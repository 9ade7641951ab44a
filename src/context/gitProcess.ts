// Every git process Threadline starts goes through here. A repository's config can name programs
// that git runs while it answers harmless questions: a `.gitattributes` filter while `status`
// hashes a changed file, `gpg.program` while `log` shows signatures, `core.fsmonitor`, hooks,
// pagers, diff drivers. The user trusted the folder, not those programs, so each is switched off
// for every call, where git allows it, by the config given on the command line (which beats the
// repository's). Git is started only for a trusted folder; an untrusted one is read from its files.
import { spawn } from 'node:child_process';
import { findProgram } from '../base/programs';
import { childEnv } from '../tools/childEnv';
import { driverOverrides, GIT_PROGRAM_SETTINGS, gitConfigEnv, type GitSetting } from '../tools/gitGuard';
import type { RepoLocation } from '../tools/gitRepo';

export interface GitRunOptions {
  /** The process is killed when it has not finished by then. */
  timeoutMs: number;
  /** Output past this many bytes is not kept; the process is killed and the answer marked cut. */
  maxBytes: number;
}

export interface GitOutput {
  stdout: string;
  /** The output went past `maxBytes` and was cut there. */
  cut: boolean;
}

/** Output kept as bytes: blobs (`cat-file --batch`) are not text. */
export interface GitBytes {
  bytes: Buffer;
  cut: boolean;
}

export interface GitCallOptions {
  /** false: the command reads no file content, so it may start at once (see HardenedGit). */
  drivers?: boolean;
  /** Written to git's stdin (the object ids `cat-file --batch` reads), then stdin is closed. */
  input?: string;
}

/**
 * Settings that launch nothing whatever the repository says, for every call: the program-naming
 * ones every git the agent starts gets (tools/gitGuard.ts), and what only these calls need.
 */
const FIXED: readonly GitSetting[] = [
  ...GIT_PROGRAM_SETTINGS,
  ['protocol.allow', 'never'],
  // A submodule's git reads its own config, with drivers this process never saw: do not enter.
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  // What comes back is text for the model: no colour codes, unusual bytes quoted.
  ['color.ui', 'false'],
  ['core.quotePath', 'true'],
];

/**
 * The environment every git process gets: no inherited `GIT_*` (a hook's `GIT_DIR`, a user's
 * `GIT_EXTERNAL_DIFF`), none of the agent's credentials, the system config skipped, nothing that
 * prompts, and the repository pinned to the folder that was opened (`GIT_DIR`, `GIT_WORK_TREE`
 * beat `core.worktree`).
 */
function baseEnv(repo: RepoLocation, overrides: readonly GitSetting[]): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^GIT_/i.test(k)) inherited[k] = v;
  const env: Record<string, string> = {
    GIT_DIR: repo.dotGit,
    GIT_WORK_TREE: repo.top,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_OPTIONAL_LOCKS: '0',
    ...gitConfigEnv(overrides),
  };
  return childEnv(env, inherited);
}

async function run(repo: RepoLocation, overrides: readonly GitSetting[], args: readonly string[], opts: GitRunOptions & { input?: string }): Promise<GitBytes | undefined> {
  const git = findProgram('git');
  if (!git) return undefined;
  return new Promise((resolvePromise) => {
    let child;
    try {
      child = spawn(git, ['--no-pager', ...args], { cwd: repo.top, env: baseEnv(repo, overrides), stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'], windowsHide: true });
    } catch {
      resolvePromise(undefined);
      return;
    }
    if (opts.input !== undefined) {
      // git may stop reading early (a missing object): that is its answer, not a crash here.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(opts.input);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let cut = false;
    let settled = false;
    const finish = (out: GitBytes | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(out);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(undefined);
    }, opts.timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (cut) return;
      const room = opts.maxBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (chunk.length > room) {
        // Enough for the prompt: the rest (a 4 MB commit message, a million untracked files) is not read.
        cut = true;
        child.kill('SIGKILL');
        finish({ bytes: Buffer.concat(chunks), cut: true });
      }
    });
    child.on('error', () => finish(undefined));
    child.on('close', (code) => finish(code === 0 ? { bytes: Buffer.concat(chunks), cut: false } : undefined));
  });
}

/**
 * A git for one trusted repository: `run(args)` answers with git's output, or undefined when git
 * failed, timed out or is not installed. The first call reads the names in the config (reading
 * config runs nothing) so that every driver it defines is switched off for the calls after.
 * A command that cannot reach a driver (it reads no file content: rev-parse, symbolic-ref,
 * for-each-ref, config --get, a log without patches) may say `{ drivers: false }` and start at
 * once with the fixed settings; by default a call waits for the drivers to be known.
 */
export class HardenedGit {
  private overrides: Promise<readonly GitSetting[] | undefined> | undefined;

  constructor(
    readonly repo: RepoLocation,
    private readonly timeoutMs: number,
  ) {}

  private settings(): Promise<readonly GitSetting[] | undefined> {
    return (this.overrides ??= run(this.repo, FIXED, ['config', '-z', '--name-only', '--list'], { timeoutMs: this.timeoutMs, maxBytes: 1024 * 1024 }).then((out) => {
      // Config too big to read whole: its drivers cannot all be known, so nothing more runs.
      if (!out || out.cut) return undefined;
      // A name that is not UTF-8 cannot be given back to git by the environment (it would switch
      // off some other driver): nothing more runs either.
      const names = out.bytes.toString('utf8');
      if (names.includes('\uFFFD')) return undefined;
      return [...FIXED, ...driverOverrides(names.split('\0').filter(Boolean))];
    }));
  }

  async run(args: readonly string[], maxBytes: number, opts: GitCallOptions = {}): Promise<GitOutput | undefined> {
    const out = await this.bytes(args, maxBytes, opts);
    return out && { stdout: out.bytes.toString('utf8'), cut: out.cut };
  }

  /** As `run`, with the output as bytes. */
  async bytes(args: readonly string[], maxBytes: number, opts: GitCallOptions = {}): Promise<GitBytes | undefined> {
    const call = { timeoutMs: this.timeoutMs, maxBytes, ...(opts.input !== undefined ? { input: opts.input } : {}) };
    if (opts.drivers === false) return run(this.repo, FIXED, args, call);
    const overrides = await this.settings().catch(() => undefined);
    if (!overrides) return undefined;
    return run(this.repo, overrides, args, call);
  }
}
