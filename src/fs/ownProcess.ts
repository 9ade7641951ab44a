// The agent's own processes under /proc: their `environ` holds the API key (the CLI's, and that of
// the shell that started it, where the key was exported), their `mem` and `cmdline` more. No read
// through the gate opens them, whatever path leads there (/proc/self, /proc/<pid>, a link in the
// workspace). Checked on the open handle: only a file on the proc file system costs more than a
// comparison of device numbers.
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';

let procDev: number | undefined | null = null;
let ancestry: Set<string> | undefined;

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

/** This process and its ancestors, up to init, as /proc folder names. */
function ownPids(): Set<string> {
  if (ancestry) return ancestry;
  const pids = new Set<string>([String(process.pid)]);
  let pid = process.ppid;
  for (let k = 0; k < 64 && pid > 1 && !pids.has(String(pid)); k++) {
    pids.add(String(pid));
    try {
      // The fourth field of /proc/<pid>/stat, after the command name in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return (ancestry = pids);
}

/** Whether an opened file (`st` from its handle) is one of the agent's own process files. */
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
  const m = /^\/proc\/(\d+)(?:\/|$)/.exec(real);
  return m !== null && ownPids().has(m[1]!);
}
