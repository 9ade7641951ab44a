import { spawnSync } from 'node:child_process';
import { isExecutableFileSync } from '../fs/stat';
import { findProgram } from './programs';
import type { Launch } from './subreaper';

// The /proc guard (permissions/bashProc.ts) reads what a command spells; a program that builds a
// path itself (an interpreter's string arithmetic, a binary the model compiled) is not seen by it,
// and the agent's environment holds its API key. The kernel draws the line words cannot: a process
// in a user namespace below the agent's may not read, as ptrace would, a process outside it
// (CAP_SYS_PTRACE in the target's namespace is required, and it has none there), and /proc's
// environ, mem, maps, cwd, root and fd entries are guarded by that check. So each command the
// model runs starts in a user namespace of its own with the user's uid and gid mapped to
// themselves: its files are the user's as before, its signals reach what they did, and the agent,
// whose namespace is the parent, still reads the command's /proc (the marker sweep needs it).
// Where user namespaces are off (some containers, hardened kernels) commands run as before and
// the word checks are the only guard; THREADLINE_BASH_ISOLATION=off turns it off for a user whose
// tools need more than their own uid (sudo, newgrp).

/** Fixed places only: an `unshare` found through PATH could be one a repository put there. */
const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'];
const ARGS = ['--user', '--map-current-user', '--'];

let prefix: readonly string[] | null | undefined;

/**
 * How a command is started in a user namespace of its own, or undefined where this machine cannot.
 * The switch is read from the agent's own environment: a command's may carry a project's settings.
 */
export function namespacePrefix(): readonly string[] | undefined {
  if (process.platform !== 'linux' || process.env.THREADLINE_BASH_ISOLATION === 'off') return undefined;
  // Asked once: util-linux before 2.38 has no --map-current-user, and a kernel or container may forbid the namespace.
  prefix ??= UNSHARE.filter((file) => isExecutableFileSync(file)).map((file) => [file, ...ARGS]).find((p) => spawnSync(p[0]!, [...p.slice(1), p[0]!, '--version'], { stdio: 'ignore', timeout: 5000 }).status === 0) ?? null;
  return prefix ?? undefined;
}

/** `launch` started in a namespace of its own where the machine allows it; unshare execs the program, so the pid is the same. */
export function inOwnUserNamespace(launch: Launch, path = process.env.PATH): Launch {
  const p = namespacePrefix();
  // A program that is not there must still fail at spawn, where the caller tries another shell.
  const file = launch.file.includes('/') ? launch.file : findProgram(launch.file, path);
  if (!p || !file) return launch;
  return { ...launch, file: p[0]!, args: [...p.slice(1), file, ...launch.args] };
}
