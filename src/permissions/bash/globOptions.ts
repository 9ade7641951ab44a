import { commandBase, type SimpleCommand } from './commands';
import { braceWords } from './braces';
import { bashGlob, GLOB_CHARS, unescapePattern } from './glob';

/**
 * A word bash computes that may reach the program as an option no word shows: a glob matching a
 * name that starts with `-` (with files named `--compress-program=sh` or `-R` committed beside
 * it, `sort *` runs a program and `grep x *` walks the home folder through a link), a glob that
 * starts with `-` itself (`-[R]`), and a brace that makes one (`grep {-R,x}`, `sort
 * {--compress-program=sh,f}`). Also such a word whose expansion cannot be told.
 */
export function optionLikeMatch(commands: readonly SimpleCommand[], folders: readonly string[]): string | undefined {
  for (const c of commands) {
    const program = commandBase(c.words[0] ?? '?');
    for (let i = 1; i < c.words.length; i++) {
      const shape = c.shapes?.[i];
      if (c.words[i] !== undefined || shape?.kind !== 'glob') continue;
      const words = braceWords(shape.pattern);
      if (words === undefined) return `What ${shape.text} becomes cannot be told, and a word starting with - would reach ${program} as an option.`;
      for (const pattern of words) {
        if (pattern.startsWith('-')) return `${shape.text} becomes ${unescapePattern(pattern)}, which ${program} would take as an option.`;
        if (!GLOB_CHARS.test(pattern.replace(/\\./g, ''))) continue;
        for (const folder of folders) {
          const matched = bashGlob(pattern, folder);
          if (matched === undefined) return `What ${shape.text} matches cannot be told, and a name starting with - would reach ${program} as an option.`;
          const option = matched.find((m) => m.startsWith('-'));
          if (option !== undefined) return `${shape.text} matches ${option}, which ${program} would take as an option, not a file; write ./${shape.text} to pass it as a file.`;
        }
      }
    }
  }
  return undefined;
}
