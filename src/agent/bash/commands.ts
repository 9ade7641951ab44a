import { posix } from 'node:path';

/** Words as the shell will pass them; undefined where the shell computes the word when it runs. */
export type Words = readonly (string | undefined)[];

export interface SimpleCommand {
  words: Words;
  /** The command as written, for messages. */
  text: string;
}

/** Commands that run the command named in their arguments. */
export const WRAPPERS: ReadonlySet<string> = new Set([
  'sudo', 'doas', 'pkexec', 'su', 'runuser', 'sg', 'env', 'nice', 'ionice', 'chrt', 'taskset', 'nohup', 'setsid',
  'timeout', 'gtimeout', 'time', 'command', 'builtin', 'exec', 'coproc', 'xargs', 'parallel', 'stdbuf', 'unbuffer',
  'strace', 'ltrace', 'valgrind', 'catchsegv', 'watch', 'script', 'flock', 'chroot', 'fakeroot', 'firejail',
  'unshare', 'nsenter', 'systemd-run', 'busybox', 'caffeinate', 'torsocks', 'proxychains', 'proxychains4',
  'sshpass', 'ssh', 'xvfb-run', 'dbus-launch',
]);

/** Shells: their `-c` argument, script argument, here-doc or piped input is itself a script. */
export const SHELLS: ReadonlySet<string> = new Set([
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'csh', 'tcsh',
]);

/** Commands that run another command or a script: only a rule that names them covers them. */
export const RUNNERS: ReadonlySet<string> = new Set([...WRAPPERS, ...SHELLS, 'eval', 'source', '.', 'trap', 'find']);

/** Builtins that treat an argument as a variable name or an arithmetic expression, which runs `a[$(…)]`. */
export const EVALUATING_BUILTINS: ReadonlySet<string> = new Set([
  'printf', 'read', 'test', 'unset', 'declare', 'typeset', 'local', 'export', 'readonly', 'let', 'mapfile',
  'readarray', 'getopts', 'wait', 'shift', 'return', 'exit', 'ulimit', 'trap', 'alias', 'hash', 'enable',
]);

/**
 * Variables a command may be given inline (`NODE_ENV=test npm test`) and still be allowed by a rule
 * for the command: they only tune output or locale. Everything else (PATH, LD_PRELOAD, BASH_ENV,
 * NODE_OPTIONS, GIT_SSH_COMMAND, PAGER, IFS…) can make the command run something else, so it asks.
 */
const INERT_VARIABLES: ReadonlySet<string> = new Set([
  'NODE_ENV', 'CI', 'FORCE_COLOR', 'NO_COLOR', 'TERM', 'TZ', 'LANG', 'LANGUAGE', 'COLUMNS', 'LINES',
  'RUST_BACKTRACE', 'RUST_LOG', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'NODE_NO_WARNINGS', 'DEBUG',
]);

export function isInertVariable(name: string): boolean {
  return INERT_VARIABLES.has(name) || /^LC_[A-Z]+$/.test(name);
}

/** `/usr/bin/rm` and `../bin/rm` run a program called rm, as far as a deny rule is concerned. */
export function commandBase(name: string): string {
  return name.includes('/') ? posix.basename(name) : name;
}

/** `bash`, or a wrapper that runs one (`sudo bash`, `env -i sh`): its input is a script. */
export function invokesShell(words: readonly (string | undefined)[]): boolean {
  const head = words[0];
  if (head === undefined) return false;
  if (SHELLS.has(commandBase(head))) return true;
  return WRAPPERS.has(commandBase(head)) && words.some((w) => w !== undefined && SHELLS.has(commandBase(w)));
}
