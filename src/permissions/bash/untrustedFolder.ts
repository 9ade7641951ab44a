// In a folder the user has not trusted, the CLI still runs what the user's own rules allow. But
// many programs take settings, plugins or code from the folder they run in, whatever their
// arguments say: rustfmt and rustc obey a committed rust-toolchain.toml (which can name a
// toolchain inside the clone), pylint runs a .pylintrc's init-hook, cscope indexes what a
// cscope.files names, `python3 -m json.tool` imports a committed argparse.py, javac runs the
// annotation processors on its class path `.`, make runs the Makefile. Passes 29–35 found a new
// such program each time, so no list of them can be complete. The list kept here is the other
// one: programs known to take nothing from the folder except the files their words name (which
// the path checks judge). It can be wrong only by asking. Trusting the folder lifts it: a trusted
// folder's own settings may allow Bash outright, so its other files are trusted with it.

import type { BashAnalysis } from './analyze';
import { isInertProgram } from './commands';

/**
 * Beyond the inert programs (commands.ts): programs whose options and inner commands the other
 * checks see into, and that read no settings file from the folder. git is here because Bash's git
 * runs with every program the repository's config can name switched off (see wholeTreeGit.ts and
 * the README's Security section); less, tools that read `~/.xrc` only, and anything unsure are not.
 */
const TAKES_NOTHING_FROM_FOLDER: ReadonlySet<string> = new Set([
  'git', 'sort', 'rg', 'find', 'xargs', 'tar', 'tee', 'cp', 'mv', 'ln', 'env', 'timeout', 'nice', 'nohup', 'time', 'command', 'stdbuf',
]);

/** sed and awk are safe while their program is on the command line, not in a file the folder holds. */
const PROGRAM_FILE_OPTIONS: ReadonlyMap<string, RegExp> = new Map([
  ['sed', /^(-[a-zA-Z]*f|--file)/],
  ['awk', /^(-[a-zA-Z]*[fEil]|--(file|exec|include|load))/],
  ['gawk', /^(-[a-zA-Z]*[fEil]|--(file|exec|include|load))/],
  ['mawk', /^(-[a-zA-Z]*f|--file)/],
]);

/** An awk program can pull in another file by itself (gawk `@include "x"`, `@load "x"`). */
const AWK_INCLUDE = /@\s*(include|load)\b/;

/** A word a wrapper hands on that cannot be a program name (`timeout 5 …`, `env A=1 …`, `nice -n 5 …`). */
const notAProgram = (w: string) => w.startsWith('-') || w.includes('=') || /^\d+(\.\d+)?[smhd]?$/.test(w);

function takesFromFolder(words: readonly (string | undefined)[]): boolean {
  const [name, ...args] = words;
  if (name === undefined) return true;
  if (isInertProgram(name) || TAKES_NOTHING_FROM_FOLDER.has(name)) return false;
  const programFile = PROGRAM_FILE_OPTIONS.get(name);
  if (!programFile) return true;
  return args.some((a) => a === undefined || programFile.test(a) || (name !== 'sed' && AWK_INCLUDE.test(a)));
}

/**
 * The first program the script may run that may take settings or code from the folder it runs in
 * (its name as the message should show it), or undefined when every one is known not to.
 */
export function programTakingFromFolder(a: BashAnalysis): string | undefined {
  if (a.commands.some((c) => c.words[0] === undefined)) return 'a command whose name is computed when it runs';
  for (const run of a.runs) {
    const name = run.words[0];
    if (name !== undefined && notAProgram(name)) continue;
    if (takesFromFolder(run.words)) return name ?? 'a command whose name is computed when it runs';
  }
  return undefined;
}
