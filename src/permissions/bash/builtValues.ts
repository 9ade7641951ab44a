import type { BashAnalysis } from './analyze';
import { commandBase } from './commands';

// What the checks read as written but bash builds as it runs: a value appended to or reached by
// name, and a cd a loop repeats. Both the /proc guard and the file deny rules ask on these.

/** Ways a script builds a value other than by assigning it whole: `${!name}` (indirect), `${name:0}`, `${name/…}`, `${name^^}`. */
export const ALTERS_VALUES = /\$\{!|\$\{[A-Za-z_]\w*[^}\w]/;

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

/**
 * A relative cd repeated by a loop, a function or a sourced file (`for i in 1 2 3; do cd ..; done`):
 * the checks count each cd once, so where it ends is known only when it runs (pass 77 H1).
 */
export function repeatsCd(a: BashAnalysis, script: string): boolean {
  // popd returns to a folder the stack holds, so it counts as relative however it is spelled.
  const relativeCd = folderChanges(a).some((c) => c.words.length === 1 || c.words.slice(1).some((w) => w === undefined || w.includes('..') || !w.startsWith('/')));
  return relativeCd && /\b(for|while|until|function|select|source)\b|\(\)\s*\{|(^|[;&|\s])\.\s/.test(script);
}
