import { toDisposable, type IDisposable } from './lifecycle';

// Process groups this process started (each Bash command leads its own group), so that a CLI
// that is told to stop, or exits, can end every process they started, background jobs too.
const groups = new Set<number>();

/** Remembers a process group (its leader's pid) until the returned disposable is disposed. */
export function trackProcessGroup(pgid: number): IDisposable {
  // Forget groups that are gone, so a pid reused later by someone else is never signalled.
  for (const g of groups) if (!processGroupAlive(g)) groups.delete(g);
  groups.add(pgid);
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

/** Sends a signal to every tracked group (synchronous, so it also works in an 'exit' handler). */
export function killProcessGroups(signal: NodeJS.Signals = 'SIGKILL'): number {
  let n = 0;
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
      n++;
    } catch {
      // already gone
    }
    if (signal === 'SIGKILL') groups.delete(pgid);
  }
  return n;
}
