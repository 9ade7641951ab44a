import { randomUUID } from 'node:crypto';
import { toDisposable, type IDisposable } from './lifecycle';
import { folderNamesSync } from '../fs/list';
import { readCappedSync } from '../fs/read';

// Process groups this process started (each Bash command leads its own group), so that a CLI
// that is told to stop, or exits, can end every process they started, background jobs too.
// A group led by a supervisor (subreaper.ts) is ended through it: the supervisor also reaches
// the processes that left the group (setsid, double fork), which a signal to the group misses.
const groups = new Map<number, { supervised: boolean }>();

/**
 * Every command's environment carries this variable, set to a value unique to this process: on
 * Linux, a process that escaped both its group and the supervisor (or ran where there is none)
 * is still found by it in /proc, unless it cleared its environment.
 */
const OWNER_VARIABLE = 'THREADLINE_OWNER';
const ownerTag = `${process.pid}.${randomUUID()}`;

/** The marker as an environment entry. */
export function ownerMarker(): { name: string; value: string } {
  return { name: OWNER_VARIABLE, value: ownerTag };
}

/** Remembers a process group (its leader's pid) until the returned disposable is disposed. */
export function trackProcessGroup(pgid: number, opts: { supervised?: boolean } = {}): IDisposable {
  // Forget groups that are gone, so a pid reused later by someone else is never signalled.
  for (const g of groups.keys()) if (!processGroupAlive(g)) groups.delete(g);
  groups.set(pgid, { supervised: opts.supervised ?? false });
  return toDisposable(() => groups.delete(pgid));
}

/** Whether any process of the group still runs. */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false; // already gone
  }
}

/**
 * Ends one command and everything it started: a supervisor is asked (SIGTERM) and kills its whole
 * tree; an unsupervised group is killed.
 */
export function endProcessTree(pgid: number, supervised: boolean): void {
  if (supervised) signal(pgid, 'SIGTERM');
  else signal(-pgid, 'SIGKILL');
}

/**
 * Ends every tracked command and every process carrying this process's owner marker
 * (synchronous, so it also works in an 'exit' handler). Returns how many groups were signalled.
 */
export function killProcessGroups(sig: NodeJS.Signals = 'SIGKILL'): number {
  let n = 0;
  for (const [pgid, { supervised }] of groups) {
    // A supervisor killed outright would hand the processes that left its group to init.
    if (supervised ? signal(pgid, 'SIGTERM') : signal(-pgid, sig)) n++;
    if (sig === 'SIGKILL') groups.delete(pgid);
  }
  if (sig === 'SIGKILL') killMarked();
  return n;
}

/** Far above any real environment (Linux caps arguments and environment together at a few MB). */
const ENVIRON_MAX_BYTES = 16 * 1024 * 1024;

/** SIGKILLs every process whose environment holds this process's owner marker (Linux only). */
export function killMarked(): number {
  if (process.platform !== 'linux') return 0;
  const needle = Buffer.from(`\0${OWNER_VARIABLE}=${ownerTag}\0`);
  let n = 0;
  const names = folderNamesSync('/proc', 4 * 1024 * 1024)?.names ?? [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    // Gone, another user's, or one of our own ancestors (the gate reads none of those): skipped.
    const read = readCappedSync(`/proc/${name}/environ`, { maxBytes: ENVIRON_MAX_BYTES });
    if (!read.ok) continue;
    // A leading NUL lets the first variable match like the others.
    const env = Buffer.concat([Buffer.from([0]), read.bytes]);
    if (env.includes(needle) && signal(Number(name), 'SIGKILL')) n++;
  }
  return n;
}
