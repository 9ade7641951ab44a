// In a folder the user has not trusted, the CLI still runs what the user's own rules allow. But
// many programs take settings, plugins or code from the folder they run in, whatever their
// arguments say: rustfmt and rustc obey a committed rust-toolchain.toml (which can name a
// toolchain inside the clone), pylint runs a .pylintrc's init-hook, cscope indexes what a
// cscope.files names, `python3 -m json.tool` imports a committed argparse.py, javac runs the
// annotation processors on its class path `.`, make runs the Makefile, git obeys its git folder.
// Passes 29–35 found a new such program each time, so no list of them can be complete. The list
// kept here is the other one: programs known to take nothing from the folder except the files
// their words name (which the path checks judge). It can be wrong only by asking. Trusting the folder lifts it: a trusted
// folder's own settings may allow Bash outright, so its other files are trusted with it.

import type { BashAnalysis } from './analyze';
import { commandBase, isInertProgram, isInertVariable } from './commands';
import { optionInjection } from './options';
import { scriptDanger } from './scriptTools';

/**
 * Beyond the inert programs (commands.ts): programs whose options and inner commands the other
 * checks see into, and that read no settings file from the folder; less, tools that read `~/.xrc`
 * only, and anything unsure are not. Each is then judged as under a rule naming it alone
 * (optionInjection). git is not here: a downloaded git folder steers git by files no setting
 * switches off (an index naming `../`, rerere's MERGE_RR, worktree pointers, packs, a resumed
 * pick's state: passes 57-66), so in a folder you have not trusted git asks.
 */
const TAKES_NOTHING_FROM_FOLDER: ReadonlySet<string> = new Set([
  'sort', 'rg', 'find', 'xargs', 'tar', 'tee', 'cp', 'mv', 'ln', 'env', 'timeout', 'nice', 'nohup', 'time', 'command', 'stdbuf',
  // Their program from a file (`sed -f`, `awk -f`, gawk's `-i`, `@include`) is judged with their other options below.
  'sed', 'awk', 'gawk', 'mawk',
]);

/** A word a wrapper hands on that cannot be a program name (`timeout 5 …`, `env A=1 …`, `nice -n 5 …`). */
const notAProgram = (w: string) => w.startsWith('-') || w.includes('=') || /^\d+(\.\d+)?[smhd]?$/.test(w);

function takesFromFolder(words: readonly (string | undefined)[]): boolean {
  const name = words[0];
  return name === undefined || !(isInertProgram(name) || TAKES_NOTHING_FROM_FOLDER.has(name));
}

/** Lower-case names programs read from the environment; any other name with an upper-case letter may be one too. */
const LOWER_CASE_ENVIRONMENT = new Set(['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'no_proxy']);
const environmentName = (name: string) => !isInertVariable(name) && (/[A-Z]/.test(name) || LOWER_CASE_ENVIRONMENT.has(name));

/** An identifier a builtin may set: a plain lower-case name no program reads is the shell's own. */
const shellOwn = (w: string) => /^[a-z_][a-z0-9_]*$/.test(w) && !LOWER_CASE_ENVIRONMENT.has(w);

/**
 * A variable a command may set, export or remove by its words, other than a plain lower-case
 * shell variable: `env NAME=…` (behind any wrapper), `read NAME`, `printf -vNAME`, `wait -p NAME`,
 * `mapfile`, `getopts`, `unset`, `test -v a[NAME=0]` (an index is arithmetic), `set -a` (every
 * later assignment exported) (pass 44 H1, H2). Undefined when none.
 */
function setsEnvironment(c: { words: readonly (string | undefined)[] }): string | undefined {
  const [head, ...args] = c.words;
  const name = head === undefined ? '' : commandBase(head);
  const shown = (w: string | undefined) => `${name} ${w ?? '(a computed word)'}`;
  // A word a builtin may take as a variable to set: computed, indexed (arithmetic), or a name a program may read.
  const risky = (w: string | undefined) => w === undefined || w.includes('[') || (/^[A-Za-z_]\w*(=|$)/.test(w) && !shellOwn(w.split('=')[0]!));
  switch (name) {
    case 'env':
    case 'sudo':
    case 'doas': {
      const set = args.find((w) => w === undefined || (/^[A-Za-z_]\w*=/.test(w) && environmentName(w.slice(0, w.indexOf('=')))) || /^-[a-zA-Z]*[uiS]/.test(w) || /^--(unset|ignore|split)/.test(w));
      return set === undefined && !args.includes(undefined) ? undefined : shown(set);
    }
    case 'read':
    case 'mapfile':
    case 'readarray':
    case 'getopts':
    case 'let':
    case 'unset': {
      // A name may be glued to an option or sit in a bundle (`read -raPATH`, `-u0 -aPATH`, pass 47 H1v):
      // an option word with an upper-case letter or an index counts as naming one.
      const set = args.find((w) => w === undefined || (w.startsWith('-') ? /[A-Z[]/.test(w.slice(1)) : risky(w)));
      return set === undefined && !args.includes(undefined) ? undefined : shown(set);
    }
    case 'printf':
    case 'wait':
    case 'test':
    case '[': {
      // printf -v NAME / -vNAME, wait -p NAME / -fpNAME / -fp NAME, test -v a[i] (an index is arithmetic).
      const flag = name === 'printf' || name === 'test' || name === '[' ? 'v' : 'p';
      for (let i = 0; i < args.length; i++) {
        const w = args[i];
        if (w === undefined) return shown(w);
        if (!w.startsWith('-') || w === '-' || w === '--') {
          if (name === 'printf' || name === 'wait') break;
          continue;
        }
        const at = w.indexOf(flag, 1);
        if (at < 0) continue;
        const glued = w.slice(at + 1);
        const named = glued || args[i + 1];
        if (name === 'test' || name === '[' ? named === undefined || named.includes('[') : risky(named)) return shown(named);
      }
      return undefined;
    }
    case 'set':
      return args.some((w) => w === undefined || /^-[a-zA-Z]*a/.test(w) || w === 'allexport') ? 'set -a (every later assignment exported)' : undefined;
    default:
      return undefined;
  }
}

/**
 * The first program the script may run that may take settings or code from the folder it runs in
 * (its name as the message should show it), or undefined when every one is known not to.
 * Whatever rule allowed the script (`Bash` itself too), the options by which a listed program runs another
 * are judged as under a rule naming that program alone (pass 40 W3), and a program named by a
 * path (`./ls`, `sub/../cat`, `~+/cat`) is the folder's own, whatever its name (W1).
 */
export function programTakingFromFolder(a: BashAnalysis): string | undefined {
  // A glob or variable where a wrapper takes its program (`env *`, pass 40 W2): nothing to judge by.
  if (a.unseen.length > 0 || a.commands.some((c) => c.words[0] === undefined)) return 'a command whose name is known only when it runs';
  // A listed program obeys its environment: `LD_PRELOAD=./x.so cat`, `PATH=. ls`, `GIT_CONFIG_COUNT=0; git status` (pass 41 G2).
  const setting = [...a.commands, ...a.runs].map(setsEnvironment).find((w) => w !== undefined);
  if (setting) return `a program given a variable of the script's (${setting})`;
  for (const run of a.runs) {
    const name = run.words[0];
    if (run.written !== undefined && (run.written.includes('/') || run.written.startsWith('~'))) return run.written;
    if (name !== undefined && notAProgram(name)) continue;
    if (takesFromFolder(run.words)) return name ?? 'a command whose name is known only when it runs';
    if (name === undefined) continue;
    // jq's program is a language of its own: `import "../home/.docker/config" as $a` reads a file
    // no word names (pass 68 H1), so an inert program's script is judged as under a rule naming it.
    if (isInertProgram(name)) {
      const script = scriptDanger(name, run, 1);
      if (script) return `${name} (${script})`;
      continue;
    }
    const why = optionInjection({ kind: 'prefix', words: [name] }, run, a.mentions);
    if (why) return `${name} (${why})`;
  }
  return undefined;
}

/** hostname's options that only print. */
const HOSTNAME_PRINTS: ReadonlySet<string> = new Set(['-s', '-f', '-i', '-I', '-d', '-a', '-A', '--short', '--fqdn', '--long', '--ip-address', '--all-ip-addresses', '--domain', '--alias', '--all-fqdns', '--help', '--version']);

/** date's options that take the next word as their value (a date to print, a file to read dates or a time from). */
const DATE_VALUES = /^(-[a-zA-Z]*[dfr]|--(d|da|dat|date|f|fi|fil|file|r|re|ref|refe|refer|refere|referen|referenc|reference))$/;

/**
 * An inert program given what makes it change the machine rather than print it: `date -s …` or a
 * date as its operand sets the clock, `hostname NAME` renames the machine, both as root (pass 47 L1);
 * mktemp makes a file outside the workspace.
 * Untrusted, every rule is held to printing here.
 */
export function changesMachine(a: BashAnalysis): string | undefined {
  for (const { words } of [...a.commands, ...a.runs]) {
    const [name, ...args] = words;
    if (name === 'date') {
      for (let i = 0; i < args.length; i++) {
        const w = args[i];
        if (w === undefined || /^-[a-zA-Z]*s|^--(s|se|set)(=|$)/.test(w)) return 'date given a time to set the clock to';
        if (DATE_VALUES.test(w)) i++;
        else if (!/^[-+]/.test(w)) return 'date given a time to set the clock to';
      }
    }
    if (name === 'hostname' && args.some((w) => w === undefined || !HOSTNAME_PRINTS.has(w))) return 'hostname given a name or a file to rename the machine by';
    // With no template, or told to use the temporary folder, mktemp makes its file there (pass 53 L1).
    if (name === 'mktemp' && (args.every((w) => w !== undefined && w.startsWith('-')) || args.some((w) => w === undefined || /^(-[a-zA-Z]*[tp]|--tmpdir)/.test(w)))) return 'mktemp, which makes a file in the temporary folder, outside the workspace';
  }
  return undefined;
}

/**
 * What keeps any prefix rule from covering the script (a redirection to a file, an assignment, a
 * substitution, arithmetic, a loop…): untrusted, `Bash` itself and exact rules are held to the same,
 * or the model could plant what runs the folder's code later (`>> ~/.gitconfig`, pass 41 G3) or set
 * what a listed program obeys (`a[PATH=0]=1`, `(( PATH=0 ))`, `${PATH:=0}`, pass 44 H1).
 */
export function untrustedHazard(a: BashAnalysis): string | undefined {
  return a.hazards[0];
}
