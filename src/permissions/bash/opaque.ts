import { mayMatchName } from '../../tools/glob';
import { braceWords } from './braces';
import { GLOB_CHARS, unescapePattern } from './glob';
import { commandBase, fromEnvironment, type Opaque } from './commands';
import { denyMatches, type BashPattern } from './rules';

// The general rule behind every wrapper list: a program not known to be inert may run any word
// it is handed as a command, so a deny or ask rule asks (never allows) where such a program is
// handed the name of the program the rule names. `gdb -batch -ex 'shell rm x'`, `tmux new 'rm
// x'`, `perf stat rm x`, `echo 'rm x' | gdb -x /dev/stdin` and wrappers no list names are caught
// by it, at the price of asking for `git commit -m "rm the file"` while `Bash(rm:*)` is denied.

/** Stands for a word the shell computes. */
const COMPUTED = undefined;

/** The words a text holds once a shell has removed quotes and backslashes and split it at operators. */
function tokens(text: string): string[] {
  return text
    .replace(/\\\n/g, '')
    .replace(/['"\\]/g, '')
    // Anything but the characters of a file name separates (`alias.x=!rm`, `pager:rm`).
    .split(/[^\w./+~-]+/)
    .filter(Boolean);
}

/**
 * Whether a word that is a pattern may match `program` as a file name: by the simple wildcards
 * (`?`, `*`, plain brackets, braces) tried, with either case (nocaseglob); anything richer (a
 * negated or POSIX bracket, an extglob group) is taken as matching.
 */
function patternMayName(word: string, program: string): boolean {
  const base = word.split('/').at(-1) ?? '';
  if (!/[?*[]|[?*+@!]\(/.test(base) && !/[{]/.test(base)) return false;
  if (/\[[!^[]|\[:|[?*+@!]\(/.test(base)) return true;
  const names = braceWords(base) ?? [base];
  // Braces make plain words too (`{r,}m` is `rm` and `m`).
  return names.some((x) => (/[?*[]/.test(x) ? mayMatchName(x, program) || mayMatchName(x.toLowerCase(), program.toLowerCase()) || mayMatchName(x.toUpperCase(), program.toUpperCase()) : x.toLowerCase() === program.toLowerCase()));
}

/** The program a pattern names (its first word, as a base name), undefined for a wildcard that names none. */
function programOf(p: BashPattern): string | undefined {
  if (p.kind === 'wildcard') return p.first === undefined ? undefined : commandBase(p.first);
  return p.words[0] === undefined ? undefined : commandBase(p.words[0]);
}

/** A name as written and every value glued to a short option (`-erm` may be `-e rm`). */
function spellings(token: string): string[] {
  const out = [commandBase(token)];
  if (/^-[^-]/.test(token)) for (let k = 2; k < token.length; k++) out.push(commandBase(token.slice(k)));
  return out;
}

/**
 * Why `o` may run what the rule names, or undefined when it cannot: its arguments and input spell
 * the rule's program (followed by the rule's other words, for a prefix rule), or hold a word the
 * shell or the program computes (`$(…)`, `$x`, a glob that may name it).
 */
/** Programs that run the programs they find in a folder, by a pattern no word spells as a name. */
const RUNS_FOUND: ReadonlySet<string> = new Set(['run-parts']);

export function opaqueMayRun(p: BashPattern, o: Opaque, mentions: ReadonlySet<string>): string | undefined {
  const program = programOf(p);
  const name = o.words[0]!;
  if (RUNS_FOUND.has(commandBase(name))) return `${name} runs the programs it finds in a folder, which may hold the one the rule names`;
  if (o.decodesScript) return `${name} writes text it may decode on the way (escapes, base64) to a file the command then runs`;
  const stream: (string | undefined)[] = [];
  const handed = [...o.words.slice(1).map((w, i) => ({ w, shape: o.shapes?.[i + 1] })), ...o.inputs.map((w) => ({ w, shape: undefined }))];
  for (const { w, shape } of handed) {
    if (w !== undefined) {
      // A program that runs the text as a script would compute these itself.
      if (/[$`]/.test(w)) return `${name} is handed text with an expansion or substitution, which it may run`;
      stream.push(...tokens(w));
      continue;
    }
    if (shape?.kind === 'variable' && fromEnvironment(shape.name, mentions)) {
      // The user's value, not the model's: only the text around it can name a program.
      stream.push(...tokens(shape.before), ...tokens(shape.after));
      continue;
    }
    if (shape?.kind === 'glob' && program !== undefined) {
      // Braces make words of their own (`{'--filter=rm -f x',f}`): those are text as written;
      // a glob becomes the names of files it matches, which matter only if one could be the program's name.
      const words = braceWords(shape.pattern);
      if (words !== undefined) {
        const globs = words.filter((x) => GLOB_CHARS.test(x.replace(/\\./g, '')));
        if (globs.every((g) => !mayMatchName(g.split('/').at(-1) ?? '', program))) {
          for (const x of words) stream.push(...(globs.includes(x) ? [COMPUTED] : tokens(unescapePattern(x))));
          continue;
        }
      }
    }
    return `${name} is handed a word computed when it runs, which may name a program`;
  }
  // A pattern in the text names whatever it matches when the program hands it to a shell
  // (`os.system("/bin/r? x")`, `/bin/{r,}m`, pass 59 M1): one that may match the rule's program counts.
  if (program !== undefined) {
    for (const { w } of handed) {
      // Words as a shell would split them: a bracket expression (`[^n]`, `[[:alpha:]]`) or an
      // extglob group (`+(r)m`) stays whole (pass 62 M1).
      for (const g of w === undefined ? [] : w.replace(/['"\\]/g, ' ').split(/[\s;|&<>`=]+/)) {
        if (patternMayName(g, program)) return `${name} is not known to be inert and is handed ${JSON.stringify(g)}, a pattern that may name ${program}, which it may run`;
      }
    }
  }
  for (let i = 0; i < stream.length; i++) {
    const t = stream[i];
    if (t === undefined) continue;
    const hit = program === undefined ? denyMatches(p, stream.slice(i)) : spellings(t).includes(program) ? denyMatches(p, [program, ...stream.slice(i + 1)]) : 'no';
    if (hit !== 'no') return `${name} is not known to be inert and is handed ${JSON.stringify(program ?? t)}, which it may run`;
  }
  return undefined;
}

