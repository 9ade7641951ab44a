import type { IDisposable } from '../base/lifecycle';
import type { RecoveryReport, RestoreChoices, RestoreResult } from './apply';
import type { FingerprintLimits } from './fingerprint';
import type { GitPreImages } from './git';
import type { CheckpointInfo } from './ledger';
import type { ChangeSource } from './manifest';
import type { RestorePlan } from './plan';
import { makeDirs } from '../fs/entries';
import { RestoreError } from './plan';
import type { SessionDiffEntry } from './sessionDiff';
import { CheckpointStore } from './store';

export interface SessionCheckpointsOptions {
  /** The session's checkpoint folder (beside its transcript; see sessionCheckpointsDir). */
  dir: string;
  workspace: string;
  /** git's copies of files a command changed; asked when the store opens, given only for a trusted folder. */
  git?(): GitPreImages | undefined;
  /** Said to the user (once each): checkpoints could not be kept, Bash changes are not tracked, a restore was recovered. */
  notify(text: string): void;
  retention?: number;
  watch?: boolean;
  fingerprint?: FingerprintLimits;
}

/** A tool's change could not be kept for undo, so the tool did not run. */
class CheckpointError extends Error {}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The code checkpoints of one open session, as the agent and the faces use them: the store is
 * opened the first time it is needed (a session nobody writes in gets no folder), a prompt
 * begins a checkpoint, each Write or Edit keeps its file's content first, and Bash commands run
 * one at a time between a fingerprint before and a comparison after (two at once would be
 * credited with each other's changes). If the store cannot be opened, the session goes on
 * without checkpoints and the user is told once.
 */
export class SessionCheckpoints implements IDisposable {
  private opening: Promise<CheckpointStore | undefined> | undefined;
  private bashTail: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly opts: SessionCheckpointsOptions) {}

  /** The store, opened once; undefined when it cannot be (the user was told). */
  store(): Promise<CheckpointStore | undefined> {
    return (this.opening ??= (async () => {
      try {
        // Made at once: a folder that cannot be made turns checkpoints off for the session, where
        // a failure later (a full disk) stops only the change it could not keep.
        await makeDirs(this.opts.dir);
        const git = this.opts.git?.();
        const { store, recovered } = await CheckpointStore.open({
          dir: this.opts.dir,
          workspace: this.opts.workspace,
          ...(git ? { git } : {}),
          ...(this.opts.retention !== undefined ? { retention: this.opts.retention } : {}),
          ...(this.opts.watch !== undefined ? { watch: this.opts.watch } : {}),
          ...(this.opts.fingerprint ? { fingerprint: this.opts.fingerprint } : {}),
        });
        if (recovered) this.opts.notify(recoveredText(recovered));
        if (this.disposed) store.dispose();
        return store;
      } catch (err) {
        this.opts.notify(`Code checkpoints are off for this session: they could not be kept in ${this.opts.dir} (${why(err)}). Files the agent changes from now on cannot be restored from Threadline.`);
        return undefined;
      }
    })());
  }

  /** Starts the checkpoint of a user prompt (`ref`: its message's id). */
  async begin(label: string, ref: string): Promise<CheckpointInfo | undefined> {
    const store = await this.store();
    try {
      return await store?.begin(label, ref);
    } catch (err) {
      this.opts.notify(`Could not start a code checkpoint for this message (${why(err)}); changes it leads to may not be restorable.`);
      return undefined;
    }
  }

  /**
   * Runs a change to `path` with its content kept first. A copy that cannot be kept stops the
   * change (CheckpointError): a change that could not be undone is not made silently.
   */
  async track<T>(path: string, by: ChangeSource, run: () => Promise<T>): Promise<T> {
    const store = await this.store();
    if (!store) return run();
    let ticket;
    try {
      ticket = await store.capture(path, by);
    } catch (err) {
      throw new CheckpointError(`${path} was not changed: Threadline could not keep a copy of it to undo the change (${why(err)}).`);
    }
    try {
      return await run();
    } finally {
      await store.settle(ticket).catch(() => undefined);
    }
  }

  /** Runs a shell command, one at a time, with what it changed in the workspace recorded. */
  bash<T>(run: () => Promise<T>): Promise<T> {
    const turn = this.bashTail.then(async () => {
      const store = await this.store();
      if (!store) return run();
      const watch = await store.beforeBash().catch((err: unknown) => ({ off: why(err) }));
      try {
        return await run();
      } finally {
        const report = await store.afterBash(watch).catch(() => undefined);
        if (report?.notice) this.opts.notify(report.notice);
      }
    });
    this.bashTail = turn.catch(() => undefined);
    return turn;
  }

  /** The checkpoints kept, oldest first (none when the store never opened or cannot). */
  async list(): Promise<readonly CheckpointInfo[]> {
    return (await this.store())?.checkpoints ?? [];
  }

  /** The checkpoint a user message began, by the message's id. */
  async forMessage(ref: string): Promise<CheckpointInfo | undefined> {
    return (await this.list()).find((c) => c.ref === ref && c.kind === 'prompt');
  }

  private async open(): Promise<CheckpointStore> {
    const store = await this.store();
    if (!store) throw new RestoreError('code checkpoints are not available in this session');
    return store;
  }

  plan(checkpointId: string): Promise<RestorePlan> {
    return this.open().then((s) => s.plan(checkpointId));
  }

  restore(plan: RestorePlan, choices: RestoreChoices = {}): Promise<RestoreResult> {
    return this.open().then((s) => s.restore(plan, choices));
  }

  async diff(): Promise<SessionDiffEntry[]> {
    return (await this.store())?.diff() ?? [];
  }

  async blob(hash: string): Promise<Buffer | undefined> {
    return (await this.store())?.blob(hash);
  }

  dispose(): void {
    this.disposed = true;
    void this.opening?.then((s) => s?.dispose());
  }
}

function recoveredText(r: RecoveryReport): string {
  if (r.outcome === 'set-aside') return 'A code restore was interrupted and its journal could not be read; it was set aside and no file was changed.';
  return r.outcome === 'completed' ? `A code restore that was interrupted was finished (${r.files} file(s)).` : `A code restore that was interrupted was undone: the ${r.files} file(s) are as they were before it.`;
}
