import { readFileSync } from 'node:fs';
import { posix } from 'node:path';

// The agent's own process, and every process above it (the shell or editor that started it,
// and theirs), hold the API key in their environment, memory and open files. No tool may read
// their /proc entries: not Read, Grep or Glob, not a Bash command, whatever rule allows it.

let cached: ReadonlySet<number> | undefined;

/**
 * This process's pid and every ancestor's, up to init. Read once: an orphan is handed to an
 * ancestor (the nearest subreaper, or init), so the set never gains a member; a pid that died
 * and was reused stays in it, which only refuses more.
 */
export function ownProcessTree(): ReadonlySet<number> {
  return (cached ??= readTree());
}

function readTree(): ReadonlySet<number> {
  const tree = new Set<number>();
  for (let pid = process.pid; pid > 0 && !tree.has(pid); ) {
    tree.add(pid);
    try {
      // The fourth field of stat is the parent; the name before it may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return tree;
}

/**
 * Whether `path` (absolute) is inside the /proc entry of the agent or an ancestor. `self` is whose
 * `/proc/self` it is: the agent's own for a file tool, the command's for a Bash command (whose
 * `/proc/self` is itself, but whose `/proc/$PPID` is not).
 */
export function isOwnProcessPath(path: string, self: 'agent' | 'command', tree: ReadonlySet<number> = ownProcessTree()): boolean {
  const p = posix.normalize(path);
  if (self === 'agent' && /^\/dev\/(fd(\/|$)|std(in|out|err)$)/.test(p)) return true;
  const m = /^\/proc\/(self|thread-self|\d+)(\/|$)/.exec(p);
  if (!m) return false;
  if (m[1] === 'self' || m[1] === 'thread-self') return self === 'agent';
  return tree.has(Number(m[1]));
}

/** The refusal, the same for every tool. */
export function ownProcessRefusal(path: string): string {
  return `${path} is the agent's own process (or one that started it) in /proc, which holds its API key: no tool may read it.`;
}
