// The agent's own process, and every process above it (the shell or editor that started it, and
// theirs), hold the API key in their environment, memory and open files. Nothing reads their /proc
// entries: no read through the gate opens them whatever path leads there (/proc/self, /proc/<pid>,
// a link in the workspace), checked on the open handle; and the permission engine refuses every
// tool, Bash included, that names one. One list of those processes, decided here.
import { readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { posix } from 'node:path';

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
  const id = Number(m[1]);
  return tree.has(id) || tree.has(threadGroup(id) ?? id);
}

/**
 * The process a thread id belongs to. Every thread has a /proc/<tid> directory of its own (left
 * out of a listing of /proc, but open to anyone who names it) holding its process's environ:
 * a thread of the agent is the agent. Looked up each time, since threads come and go.
 */
function threadGroup(id: number): number | undefined {
  try {
    const m = /^Tgid:\s*(\d+)$/m.exec(readFileSync(`/proc/${id}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The /proc directories of the agent's processes, each of their threads' included (`/proc/<tid>`). */
export function ownProcessEntries(tree: ReadonlySet<number> = ownProcessTree()): string[] {
  const ids = new Set(tree);
  for (const pid of tree) {
    try {
      for (const t of readdirSync(`/proc/${pid}/task`)) ids.add(Number(t));
    } catch {
      // gone, or no /proc: its pid is in the list still
    }
  }
  return [...ids].map((id) => `/proc/${id}`);
}

/** The refusal, the same for every tool. */
export function ownProcessRefusal(path: string): string {
  return `${path} is the agent's own process (or one that started it) in /proc, which holds its API key: no tool may read it.`;
}

let procDev: number | undefined | null = null;

/** The device of the proc file system, or undefined where there is none. */
function procDevice(): number | undefined {
  if (procDev === null) {
    try {
      procDev = process.platform === 'linux' ? statSync('/proc').dev : undefined;
    } catch {
      procDev = undefined;
    }
  }
  return procDev;
}

/**
 * Whether an opened file (`st` from its handle) is one of the agent's own process files. Only a
 * file on the proc file system costs more than a comparison of device numbers.
 */
export function isOwnProcessFile(path: string, st: Stats): boolean {
  const dev = procDevice();
  if (dev === undefined || st.dev !== dev) return false;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    // A proc file we cannot place: not read.
    return true;
  }
  return isOwnProcessPath(real, 'agent');
}
