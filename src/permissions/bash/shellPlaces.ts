import type { BashAnalysis } from './analyze';
import { commandBase, EVALUATING_BUILTINS, SHELLS } from './commands';

// `~`, `~-` and `cd` go where HOME, OLDPWD and CDPATH say, which a script may set before it names
// a file (`HOME=…; cat ~/x`, `read HOME`, `declare -n h=HO\ME`, `. ./envfile`, `shopt -s
// cdable_vars`). The checks read `~` and `cd` as the user's own; where the script may have moved
// them, the files it names are known only when it runs.

/** The variables by which bash places `~`, `~-`, `~+` and a relative `cd`. */
const SHELL_PLACES = ['HOME', 'OLDPWD', 'PWD', 'CDPATH'];

/** How the script may move where `~` or `cd` lead (for a message after "The command"), or undefined. */
export function placesMoved(a: BashAnalysis): string | undefined {
  const named = SHELL_PLACES.find((n) => a.mentions.has(n));
  if (named) return `names ${named}, by which bash places \`~\` or \`cd\``;
  // A program finds its own settings file by these (`CURL_HOME=. curl` reads the clone's .curlrc).
  const config = [...a.mentions].find((n) => /^XDG_|_HOME$|RC$/.test(n));
  if (config) return `names ${config}, by which a program may find a settings file that names other files`;
  // Text the checks cannot read may set them; `shopt` changes how `cd` finds folders.
  // Inner shells' commands too: `bash <<< 'shopt -s cdable_vars; cd _'` moves the inner shell's cd (pass 83 M2).
  const all = [...a.commands, ...a.runs];
  const sets = all.find((c) => {
    const name = c.words[0];
    if (name === '.' || name === 'source' || name === 'shopt' || name === 'eval') return true;
    return name !== undefined && EVALUATING_BUILTINS.has(name) && c.words.slice(1).some((w) => w === undefined || /[$`]/.test(w));
  });
  if (sets) return `runs ${sets.words[0]} on text the checks cannot read, which may change HOME or how \`cd\` finds folders`;
  // A shell started with its own options (`bash -O cdable_vars`, `+O`, `-o`, an rc or init file) may find folders as shopt would have it.
  const shell = all.find((c) => c.words[0] !== undefined && SHELLS.has(commandBase(c.words[0])) && c.words.slice(1).some((w) => w === undefined || /^[-+][A-Za-z]*[Oo]|^--(rcfile|init-file|login)|^-[A-Za-z]*[il]/.test(w)));
  if (shell) return `starts ${shell.words[0]} with options of its own, which may change how \`cd\` finds folders`;
  // A nameref (`declare -n h=…`) sets whatever variable its value names.
  const nameref = all.find((c) => ['declare', 'typeset', 'local'].includes(c.words[0] ?? '') && c.words.slice(1).some((w) => w === undefined || /^-[A-Za-z]*n/.test(w)));
  if (nameref) return 'declares a nameref, which may set HOME or CDPATH under another name';
  return undefined;
}
