import type { BashAnalysis } from './analyze';
import { commandBase, fromEnvironment } from './commands';
import type { PathScope } from '../pathScope';

// What the checks read as written but bash builds as it runs: a value appended to or reached by
// name, and a cd a loop repeats. Both the /proc guard and the file deny rules ask on these.

/** Ways a script builds a value other than by assigning it whole: `${!name}` (indirect), `${name:0}`, `${name/…}`, `${name^^}`. */
export const ALTERS_VALUES = /\$\{!|\$\{[A-Za-z_]\w*[^}\w]/;

/**
 * The script with each expansion bash computes by more than a name (`${x:=/pr}`, `${x:-"/pr"}`,
 * `${a[0]}`, `${!p}`, `"$@"`, `$1`) written `${_}`, quotes around it included, and a quoted plain
 * one (`"$x"`, `"$x$y"`) written `${x}`, `${x}${y}`: text cut at quotes and `=` left `${x:=/pr}oc/…` and `"$@"oc/…` in
 * pieces none of which began with an expansion (pass 83 H1, H2). `_` has no value the checks know.
 */
export function flattenExpansions(script: string): string {
  let text = script;
  // Innermost first: `${x:-${y:-/}}`.
  for (let i = 0; i < 16; i++) {
    const next = text.replace(/(["']?)\$\{(?![A-Za-z_]\w*\})[^{}]*\}\1/g, '${_}');
    if (next === text) break;
    text = next;
  }
  return (
    text
      .replace(/(["']?)\$[@*#?!$0-9-]\1/g, '${_}')
      // An empty pair of quotes is nothing to bash: `e""nviron` is `environ` (pass 86 H1).
      .replace(/""|''/g, '')
      // Quotes around text with no blank are no part of the word: `"$x$y"/…` is `${x}${y}/…`.
      .replace(/"([^\s"'`\\]*)"/g, (_m, inner: string) => inner.replace(/\$([A-Za-z_]\w*)/g, '${$1}'))
  );
}

/** Whether the script appends to `name` (any name by default): `s+=oc`, `a[1]+=x`. */
export function appendsTo(script: string, name = '[A-Za-z_]\\w*'): boolean {
  return new RegExp(`(^|[^\\w])${name}(\\[[^\\]]*\\])?\\+=`).test(script);
}

/**
 * The commands that may change the folder the rest of the script runs in: cd, pushd, popd, and a
 * command whose name is computed (`$c ..` may be a cd). The one answer to "is this a cd" for the
 * /proc guard and the file checks, so that a new way to move (popd, a computed name) is seen by all.
 */
export function folderChanges(a: BashAnalysis): BashAnalysis['commands'] {
  return [...a.commands, ...a.runs].filter((c) => c.words[0] === undefined || ['cd', 'pushd', 'popd'].includes(commandBase(c.words[0])));
}

/** What inner scripts and wrappers run, less the script's own commands (`runs` holds both, each once). */
export function innerRuns(a: BashAnalysis): BashAnalysis['runs'] {
  // One of the script's own for each time it is written: `cd ..; bash -c 'cd ..'` keeps the inner one.
  const own = new Map<string, number>();
  for (const c of a.commands) own.set(c.text, (own.get(c.text) ?? 0) + 1);
  return a.runs.filter((c) => {
    const left = own.get(c.text) ?? 0;
    if (left > 0) own.set(c.text, left - 1);
    return left === 0;
  });
}

/**
 * Whether an inner script's command (its words come without shapes) computes its words only as a
 * glob or find's `{}` would, no expansion in its text: those are judged by the glob and walk
 * checks, not as names computed when they run.
 */
export function unshapedGlobs(c: BashAnalysis['runs'][number]): boolean {
  return c.shapes === undefined && !/[$`]/.test(c.text);
}

/**
 * A relative cd repeated by a loop, a function or a sourced file (`for i in 1 2 3; do cd ..; done`):
 * the checks count each cd once, so where it ends is known only when it runs (pass 77 H1).
 */
export function repeatsCd(a: BashAnalysis, script: string): boolean {
  // popd returns to a folder the stack holds, so it counts as relative however it is spelled.
  const relativeCd = folderChanges(a).some((c) => c.words.length === 1 || c.words.slice(1).some((w) => w === undefined || w.includes('..') || !w.startsWith('/')));
  // An inner shell's commands are counted once however often its script repeats them (`bash -c 'cd ..; cd ..; cd ..'`, pass 83 H3).
  const innerClimb = folderChanges({ ...a, commands: [], runs: innerRuns(a) }).some((c) => c.words.slice(1).some((w) => w === undefined || w.includes('..')));
  return innerClimb || (relativeCd && /\b(for|while|until|function|select|source)\b|\(\)\s*\{|(^|[;&|\s])\.\s/.test(script));
}

/** The values a variable may hold: the user's own for HOME and the like, else those the script assigns as written; undefined when any is computed or unknown. */
export function valuesOf(name: string, a: BashAnalysis, scope: Pick<PathScope, 'home'>, script = ''): string[] | undefined {
  if (fromEnvironment(name, a.mentions)) return name === 'HOME' ? [scope.home] : undefined;
  // Appended to (`s+=oc`) or reached by name (`${!p}`): the values as written are pieces only (pass 77 H3).
  if (ALTERS_VALUES.test(script) || appendsTo(script, name)) return undefined;
  const values = a.assigned.filter((v) => v.name === name).map((v) => v.value);
  // An assignment whose value is not literal (`p=${p}oc`, `h=$(…)`) is left out of `assigned`, so
  // the values there are not all it may hold (pass 89 H3).
  // Anything up to the end of the command counts, quotes and blanks too (`h=''${h}h`, pass 92 H1):
  // a word after it taken for part of the value makes it unknown, the safe side. So does a loop list that is not literal.
  if (new RegExp(`(^|[^\\w$])${name}(\\[[^\\]]*\\])?\\+?=(?!=)[^;&|\\n]*[$\`(]`).test(script)) return undefined;
  if (new RegExp(`\\bfor\\s+${name}\\s+in\\b[^;\\n]*[$\`(]`).test(script)) return undefined;
  // A name set by read, mapfile, printf -v or $(…) has no value as written here.
  return values.length > 0 && values.every((v) => !/[$`]/.test(v)) && !a.mentions.has(`read`) ? values : undefined;
}
