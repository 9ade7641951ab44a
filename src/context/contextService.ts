import { resolve } from 'node:path';
import { memoize } from 'lodash-es';
import { realPathOf } from '../fs/paths';
import { formatGitSnapshot, takeGitSnapshot, type GitSnapshot } from './git';
import { formatInstructions, loadInstructions, matchingRules, type InstructionFile, type InstructionSet } from './instructions';
import type { Reminder } from './reminders';
import type { Host } from '../ports/host';

export interface ContextServiceOptions {
  cwd: string;
  home?: string;
  /** The machine-wide instructions folder; null: none. Default: the platform's. */
  managedRoot?: string | null;
  /** Where the walk up from cwd ends (tests use a temp folder). Default: the filesystem root. */
  filesystemRoot?: string;
  /** Trust decides what of the workspace is read and whether git runs; an include outside the project is asked about. */
  host: Pick<Host, 'isTrusted' | 'approveExternal'>;
  /**
   * Whether the folder's own instruction files are read. Default: the host's trust, as VS Code's
   * Restricted Mode withholds them; the CLI reads them in any folder, since they grant nothing.
   */
  projectInstructions?(): boolean;
  gitTimeoutMs?: number;
  /** Whether a Read deny rule covers a file: such an instruction file or include is not sent. */
  readDenied?(path: string): boolean;
}

/**
 * What the model sees before the conversation: the git snapshot and the instruction files.
 * Each is computed once per session and memoised, so every request of the session sends the
 * same bytes and the prompt cache keeps hitting; `clear()` (compaction, new session) is the
 * one moment they are read again. An instruction file edited mid-session therefore applies
 * from the next compaction or session: a fresh read each turn would rewrite the cached prefix
 * on every edit, and the files change rarely compared with how often requests go out.
 */
export class ContextService {
  private sentRules = new Set<string>();
  /** Answers about files outside their level's folders, by real path: asked once, not after every compaction. */
  private readonly approvals = new Map<string, Promise<boolean>>();

  constructor(private readonly opts: ContextServiceOptions) {}

  private approveOnce(path: string, from: string): Promise<boolean> {
    let answer = this.approvals.get(path);
    if (!answer) {
      answer = this.opts.host.approveExternal(path, from).catch(() => false);
      this.approvals.set(path, answer);
    }
    return answer;
  }

  /** One snapshot per trust state, so granting trust mid-session brings git's answers in. */
  private readonly snapshot = memoize(
    async (trusted: boolean): Promise<GitSnapshot | undefined> => takeGitSnapshot(this.opts.cwd, { trusted, timeoutMs: this.opts.gitTimeoutMs ?? 3000 }),
    String,
  );

  /**
   * No git process runs in an untrusted folder: a repository's own config can make git run
   * programs (filters, hooks), and VS Code's git extension stays off there too. The snapshot then
   * holds the branch, read from HEAD's file, and says what it could not read.
   */
  async git(): Promise<GitSnapshot | undefined> {
    return this.snapshot(this.opts.host.isTrusted());
  }

  readonly instructions = memoize(async (): Promise<InstructionSet> => {
    // The project is the folder that was opened, where it really is: never the repository's
    // idea of its work tree (`core.worktree = /` would make every file "in the project").
    const root = (await realPathOf(this.opts.cwd)) ?? resolve(this.opts.cwd);
    return loadInstructions({
      cwd: this.opts.cwd,
      projectRoot: root,
      trusted: this.opts.projectInstructions ? this.opts.projectInstructions() : this.opts.host.isTrusted(),
      ...(this.opts.home ? { home: this.opts.home } : {}),
      ...(this.opts.managedRoot !== undefined ? { managedRoot: this.opts.managedRoot } : {}),
      ...(this.opts.filesystemRoot ? { filesystemRoot: this.opts.filesystemRoot } : {}),
      approveExternal: (path, from) => this.approveOnce(path, from),
      ...(this.opts.readDenied ? { readDenied: this.opts.readDenied } : {}),
    });
  });

  /** Dynamic system-prompt sections (after the cache boundary). */
  async systemSections(): Promise<string[]> {
    const git = await this.git();
    return git ? [`# Git status\n${formatGitSnapshot(git)}`] : [];
  }

  async reminders(): Promise<Reminder[]> {
    const text = formatInstructions((await this.instructions()).files);
    return text ? [{ type: 'instructions', text }] : [];
  }

  /**
   * Conditional rules for files the agent just read or edited, each sent once per session
   * (it then stays in the history, where the cache keeps it cheap).
   */
  async rulesFor(paths: readonly string[]): Promise<InstructionFile[]> {
    if (!paths.length) return [];
    const set = await this.instructions();
    const out: InstructionFile[] = [];
    for (const p of paths) {
      for (const rule of matchingRules(set, p, this.opts.cwd)) {
        if (this.sentRules.has(rule.path)) continue;
        this.sentRules.add(rule.path);
        out.push(rule);
      }
    }
    return out;
  }

  /** Starts reading git and the instruction files now, so the first turn does not wait. */
  prefetch(): void {
    void this.git().catch(() => undefined);
    void this.instructions().catch(() => undefined);
  }

  /**
   * After a compaction or in a new session: git and the instruction files are read again, and
   * conditional rules are sent again (the history that held them is gone).
   */
  clear(): void {
    this.snapshot.cache.clear?.();
    this.rereadInstructions();
    this.sentRules = new Set();
  }

  /**
   * After micro-compaction: the instruction files are read again (unchanged files give the
   * same bytes, so the cache is not disturbed); rules already sent are still in the history.
   */
  rereadInstructions(): void {
    this.instructions.cache.clear?.();
  }
}
