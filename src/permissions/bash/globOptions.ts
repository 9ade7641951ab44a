import { commandBase, type SimpleCommand } from './commands';
import { bashGlob } from './glob';

/**
 * A glob that matches a name starting with `-` hands the program an option no word shows: with
 * files named `--compress-program=sh` or `-R` committed beside it, `sort *` runs a program and
 * `grep x *` walks the home folder through a link. Also a glob whose matches cannot be told.
 */
export function optionLikeMatch(commands: readonly SimpleCommand[], folders: readonly string[]): string | undefined {
  for (const c of commands) {
    for (let i = 1; i < c.words.length; i++) {
      const shape = c.shapes?.[i];
      if (c.words[i] !== undefined || shape?.kind !== 'glob' || shape.pattern.startsWith('-')) continue;
      for (const folder of folders) {
        const matched = bashGlob(shape.pattern, folder);
        if (matched === undefined) return `What ${shape.text} matches cannot be told, and a name starting with - would reach ${commandBase(c.words[0] ?? '?')} as an option.`;
        const option = matched.find((m) => m.startsWith('-'));
        if (option !== undefined) return `${shape.text} matches ${option}, which ${commandBase(c.words[0] ?? '?')} would take as an option, not a file; write ./${shape.text} to pass it as a file.`;
      }
    }
  }
  return undefined;
}
