import { spawn } from 'node:child_process';
import { isExecutableFileSync } from '../fs/stat';

// A command the model runs is the user's own uid, so it may signal the agent, even from the user
// namespace it runs in (userNamespace.ts): SIGUSR1 opened Node's inspector on 127.0.0.1:9229,
// through which a test file ran code inside the agent and read its API key; `prlimit --pid
// <agent> --core=unlimited` then SIGABRT wrote the agent's memory, key included, to a core file
// (pass 86 C1, H2). Two settings of the agent's own process close both.

/** Fixed places only, as for unshare: a prlimit found through PATH could be one a repository put there. */
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'];

let guarded = false;

/** Called once where the agent's process starts (the CLI's main, the extension's activate). */
export function guardAgentProcess(): void {
  if (guarded) return;
  guarded = true;
  // With a listener, Node does not start its inspector on SIGUSR1.
  process.on('SIGUSR1', () => undefined);
  if (process.platform !== 'linux') return;
  // Core files capped at nothing, soft and hard: a process without CAP_SYS_RESOURCE cannot raise a hard limit again.
  const file = PRLIMIT.find((f) => isExecutableFileSync(f));
  if (!file) return;
  const child = spawn(file, ['--pid', String(process.pid), '--core=0:0'], { stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
}
