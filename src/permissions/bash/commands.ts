import { posix } from 'node:path';
import type { Shape } from './words';

/** Words as the shell will pass them; undefined where the shell computes the word when it runs. */
export type Words = readonly (string | undefined)[];

export interface SimpleCommand {
  words: Words;
  /** The command as written, for messages. */
  text: string;
  /** For each word the shell computes (undefined in `words`), what can be told about it. */
  shapes?: readonly (Shape | undefined)[];
  /** Of a command the script may run (BashAnalysis.runs), its name as written, where `words[0]` is its base name (`./ls` ran as `ls`). */
  written?: string;
}

/**
 * A command whose program is not known to be inert: it may run any word it is handed as a
 * command (its arguments, text fed to it, what is piped into it), the way `gdb -ex 'shell rm x'`
 * or `tmux new 'rm x'` do. A deny or ask rule that names a program asks when such a command is
 * handed that name.
 */
export interface Opaque extends SimpleCommand {
  /** Text it reads: here-docs and here-strings, the words of the commands piped into it; undefined where computed. */
  inputs: (string | undefined)[];
  /**
   * It writes a file the same script then runs, and may write something other than the text it
   * is given (`printf 'r\155'`, `base64 -d`): what will run is not in the text.
   */
  decodesScript?: boolean;
}

/** The index of git's verb: the first word after git's own options (`-C dir`, `-c k=v` take the next word); -1 when there is none or a computed word comes first. */
export function gitVerbIndex(words: Words): number {
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === undefined) return -1;
    if (w === '-C' || w === '-c' || w === '--git-dir' || w === '--work-tree' || w === '--namespace') {
      i++;
      continue;
    }
    if (!w.startsWith('-')) return i;
  }
  return -1;
}

/** Programs that write the text they are given as it is (`echo` without -e): a written script reads as its text. */
const VERBATIM_WRITERS: ReadonlySet<string> = new Set(['echo', 'cat', 'tee']);
/** Shells and `source`: given a file, they run it. */
const RUNS_FILES: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'busybox', 'source', '.']);

/** Whether `c` writes a file's text as given: a known verbatim writer without an escape-reading option. */
export function writesVerbatim(c: SimpleCommand): boolean {
  const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
  if (name === undefined || !VERBATIM_WRITERS.has(name)) return false;
  // echo decodes escapes under -e, and under `shopt -s xpg_echo` (or `bash -O xpg_echo`) without
  // it, which may be set anywhere before (pass 50 L1): any backslash makes it a decoding writer.
  return name !== 'echo' || !c.words.slice(1).some((w) => w === undefined || /^-[a-zA-Z]*e/.test(w) || w.includes('\\'));
}

/** Programs that print and never open a file named by a word they are given. */
export const OPENS_NO_FILES: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', ':', 'pwd', 'sleep', 'seq', 'yes', 'exit', 'return', 'wait', 'shift', 'break', 'continue', 'set', 'unset', 'umask', 'whoami', 'id', 'uname', 'hostname', 'nproc', 'arch', 'tty']);

/** Builtins that change the shell's own state and write no file. */
const SHELL_STATE: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd', 'export', 'local', 'declare', 'typeset', 'readonly', 'read', 'test', '[', 'shopt', 'alias', 'unalias', 'hash', 'type', 'command']);

/** Whether `c` writes no file itself (what it prints may still be redirected or piped into a writer). */
export function writesNoFile(c: SimpleCommand, known: (c: SimpleCommand) => boolean | undefined): boolean {
  const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
  if (name === undefined) return false;
  if (OPENS_NO_FILES.has(name) || SHELL_STATE.has(name)) return true;
  return known(c) === false;
}

/** Whether `c` runs a script file: a shell or `source` given a file, or a program run by a relative path (`./s`). */
export function runsScriptFile(c: SimpleCommand): boolean {
  const first = c.words[0];
  if (first === undefined) return true;
  if (/^\.\.?\//.test(first)) return true;
  return RUNS_FILES.has(commandBase(first)) && c.words.slice(1).some((w) => w === undefined || !w.startsWith('-'));
}

/** Commands that run the command named in their arguments. */
export const WRAPPERS: ReadonlySet<string> = new Set([
  'setarch', 'linux32', 'linux64', 'i386', 'x86_64', 'prlimit', 'setpriv', 'choom', 'numactl', 'cgexec', 'runcon', 'chpst',
  'perf', 'tmux', 'screen', 'bwrap', 'proot', 'fakechroot', 'faketime', 'eatmydata',
  'sudo', 'doas', 'pkexec', 'su', 'runuser', 'sg', 'env', 'nice', 'ionice', 'chrt', 'taskset', 'nohup', 'setsid',
  'timeout', 'gtimeout', 'time', 'command', 'builtin', 'exec', 'coproc', 'xargs', 'parallel', 'stdbuf', 'unbuffer',
  'strace', 'ltrace', 'valgrind', 'catchsegv', 'watch', 'script', 'flock', 'chroot', 'fakeroot', 'firejail',
  'unshare', 'nsenter', 'systemd-run', 'busybox', 'caffeinate', 'torsocks', 'proxychains', 'proxychains4',
  'sshpass', 'ssh', 'xvfb-run', 'dbus-launch',
  // bash's `jobs -x CMD ARGS` runs CMD (pass 47 C1).
  'jobs',
]);

/** Shells: their `-c` argument, script argument, here-doc or piped input is itself a script. */
export const SHELLS: ReadonlySet<string> = new Set([
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'csh', 'tcsh',
]);

/** Commands that run another command or a script: only a rule that names them covers them. */
export const RUNNERS: ReadonlySet<string> = new Set([...WRAPPERS, ...SHELLS, 'eval', 'source', '.', 'trap', 'find']);

/**
 * Programs known never to run a word they are given, nor their input, as a command. Everything
 * else is treated as if it might (see Opaque): that list, unlike a list of wrappers, can be
 * wrong only by asking too often. Not here on purpose: sort (--compress-program), split
 * (--filter), rg (--pre), tar, sed (its `e` command), awk, less, man, git, alias, hash, mapfile;
 * cp, mv, ln and tee (they put a program, or text, where it can run under another name); export
 * and declare (programs run what some variables hold).
 */
const INERT: ReadonlySet<string> = new Set([
  'echo', 'printf', 'cat', 'tac', 'head', 'tail', 'wc', 'nl', 'cut', 'paste', 'column', 'tr', 'fold', 'fmt', 'expand',
  'unexpand', 'rev', 'comm', 'cmp', 'diff', 'uniq', 'strings', 'hexdump', 'od', 'xxd', 'base64', 'base32', 'basenc',
  'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'file', 'stat', 'ls',
  'du', 'df', 'tree', 'pwd', 'basename', 'dirname', 'realpath', 'readlink', 'true', 'false', 'test', '[', ':', 'touch', 'mkdir',
  'rmdir', 'rm', 'chmod', 'chown', 'chgrp', 'grep', 'egrep', 'fgrep', 'jq', 'date', 'whoami', 'id', 'groups',
  'uname', 'hostname', 'tty', 'nproc', 'arch', 'printenv', 'which', 'seq', 'yes', 'sleep', 'truncate', 'mktemp', 'mkfifo',
  'shred', 'csplit', 'join', 'shuf', 'factor', 'expr', 'numfmt', 'tsort', 'pr', 'cd', 'pushd', 'popd', 'dirs', 'umask', 'wait',
  'read', 'exit', 'return', 'shift', 'break', 'continue', 'set', 'unset', 'shopt', 'gzip', 'gunzip', 'zcat', 'bzip2',
  'bunzip2', 'xz', 'unxz', 'zstd', 'unzip',
]);

/** Programs known never to run a word they are given, nor their input, as a command. */
export function isInertProgram(name: string): boolean {
  return INERT.has(name);
}

/** Commands whose arguments the checks already see into (wrappers, shells, eval, find…) or that are inert. */
export function isKnownProgram(name: string): boolean {
  return INERT.has(name) || RUNNERS.has(name);
}

/** Variables bash never sets itself: unless the script names them, they hold the user's environment. */
const ENVIRONMENT_NAMES: ReadonlySet<string> = new Set(['HOME', 'USER', 'LOGNAME', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR']);

/**
 * Whether `$name` holds what the agent's environment gave it: a variable bash does not set on
 * its own, that the script (in `mentioned`: every name it spells outside `$name` and `${name}`)
 * does not set either. The model cannot change the agent's environment, so such a value is the
 * user's, not the model's.
 */
export function fromEnvironment(name: string, mentioned: ReadonlySet<string>): boolean {
  return (ENVIRONMENT_NAMES.has(name) || isInertVariable(name)) && !mentioned.has(name);
}

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

/**
 * The values an inert variable may be given inline: the locale, language list, zone and terminal
 * are names the C library and curses look up as files, so a value with a `/` or `..`
 * (`LANGUAGE=../../ws/l`) loads the workspace's translation catalogue, whose doctored messages
 * are format strings (pass 29 F11). A value of another shape asks.
 */
export function isInertValue(name: string, value: string): boolean {
  if (name === 'LANG' || /^LC_[A-Z]+$/.test(name)) return /^[A-Za-z0-9_.@+-]*$/.test(value);
  if (name === 'LANGUAGE') return /^[A-Za-z0-9_.@+:-]*$/.test(value);
  if (name === 'TZ') return value === '' || (/^[A-Za-z0-9_+,.<>-]+(\/[A-Za-z0-9_+-]+)*$/.test(value) && !value.includes('..'));
  if (name === 'TERM') return /^[A-Za-z0-9._+-]*$/.test(value) && !value.includes('..');
  if (name === 'COLUMNS' || name === 'LINES') return /^\d*$/.test(value);
  return INERT_VARIABLES.has(name);
}

/** `/usr/bin/rm` and `../bin/rm` run a program called rm, as far as a deny rule is concerned. */
export function commandBase(name: string): string {
  return name.includes('/') ? posix.basename(name) : name;
}

/** Programs whose first word may be a bundle of options with no dash (`tar cfT - list`, `ar x lib.a`). */
const DASHLESS_BUNDLE: ReadonlySet<string> = new Set(['tar', 'gtar', 'bsdtar', 'ar']);

/**
 * The word at `index` of `program`'s command as its option parser reads it: tar's and ar's first
 * word may be options with no dash, so every check of options sees `cfT` as `-cfT`.
 */
export function asOptionWord(program: string, index: number, word: string): string {
  return index === 1 && DASHLESS_BUNDLE.has(program) && /^[A-Za-z]+$/.test(word) ? `-${word}` : word;
}

/** A path through which a process reads its own input or another descriptor: /dev/stdin, /dev/fd/0, /proc/self/fd/0… */
export function isDescriptorPath(word: string): boolean {
  return /^\/(dev|proc)\//.test(word) && word !== '/dev/null';
}

/** `source /dev/stdin`, `. /proc/self/fd/0`: the shell runs what it reads from its input. */
export function sourcesInput(words: Words): boolean {
  const head = words[0];
  if (head === undefined || !['source', '.'].includes(commandBase(head))) return false;
  const file = words[1] === '--' ? words[2] : words[1];
  return file !== undefined && isDescriptorPath(file);
}

/** `bash`, a wrapper that runs one (`sudo bash`, `env -i sh`), or a `source` of its input: its input is a script. */
export function invokesShell(words: Words): boolean {
  const head = words[0];
  if (head === undefined) return false;
  if (SHELLS.has(commandBase(head)) || sourcesInput(words)) return true;
  return WRAPPERS.has(commandBase(head)) && words.some((w, i) => w !== undefined && (SHELLS.has(commandBase(w)) || sourcesInput(words.slice(i))));
}

/** Whether `word` gives `option`, as the program's option parser reads it: the whole name, an unambiguous start of a long one, a short one in a bundle. */
export function spellsOption(word: string, option: string): boolean {
  if (word === option || word.startsWith(`${option}=`)) return true;
  // git and GNU getopt take any unambiguous start of a long option (`--ex` for `--exec`,
  // `--upload=` for `--upload-pack=`): a start counts as the option, ambiguous or not.
  if (option.startsWith('--') && word.startsWith('--')) {
    const name = word.split('=')[0]!;
    if (name.length > 2 && option.startsWith(name)) return true;
  }
  // find's and tar's long single-dash names, and short options with a glued value (-Icmd) or in a bundle (-xI).
  if (option.startsWith('--') || option.length > 2) return false;
  return /^-[A-Za-z]+/.test(word) && !word.startsWith('--') && word.slice(1).includes(option.slice(1));
}
