import { asOptionWord, commandBase, spellsOption, type SimpleCommand } from './commands';
import type { Shape } from './words';
import { AWK, GREP, JQ, leavesAt, readOption, RG, SED, type Spec } from './optionSpecs';

// Which words of a command name files, for the commands that read or write the files they are
// given (the list Claude Code checks the same way). An allow rule such as `Bash(cat:*)` lets such
// a command run without asking only while those files are inside the workspace.

/** One file a command names: its text when known, else what can be told about the word. */
export interface PathArg {
  /** The command, for messages. */
  command: string;
  write: boolean;
  /** The word after quote removal; undefined when the shell computes it (see shape). */
  text: string | undefined;
  shape?: Shape | undefined;
  /** Only a path that leaves the folder (`/…`, `~…`, `..`) counts: the program takes other words for other things. */
  onlyIfPathLike?: boolean;
  /** The option by which it follows symlinks into wherever they lead, while walking this folder. */
  follows?: string;
}

const plain: Spec = {};

const SPECS: ReadonlyMap<string, Spec> = new Map<string, Spec>([
  ...['cat', 'rev', 'strings', 'realpath', 'readlink', 'tsort', 'fmt', 'expand', 'unexpand', 'fold', 'wc', 'base32', 'base64', 'head', 'tail', 'cmp', 'od'].map((n): [string, Spec] => [n, plain]),
  ...['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum'].map((n): [string, Spec] => [n, plain]),
  ['tac', { values: ['-s', '--separator'] }],
  ['nl', { values: ['-s', '--number-separator', '-d', '--section-delimiter'] }],
  ['comm', { values: ['--output-delimiter'] }],
  ['file', { values: ['-F', '--separator', '-e', '--exclude', '-P', '--parameter'] }],
  ['less', { values: ['-p', '--pattern', '-P', '--prompt'] }],
  ['more', { values: ['-p'] }],
  ['pr', { values: ['-h', '--header', '-s', '--separator', '-S', '--sep-string'] }],
  ['numfmt', { values: ['-d', '--delimiter', '--format', '--suffix'] }],
  ['hexdump', { values: ['-e'] }],
  ['xxd', { writesSecond: true }],
  ['cut', { values: ['-d', '--delimiter', '--output-delimiter'] }],
  ['paste', { values: ['-d', '--delimiters'] }],
  ['column', { values: ['-s', '--separator', '-o', '--output-separator'] }],
  ['sort', { values: ['-t', '--field-separator'], writes: ['-o', '--output', '-T', '--temporary-directory'] }],
  ['uniq', { writesSecond: true }],
  ['join', { values: ['-t', '-e'] }],
  ['diff', { values: ['-I', '--ignore-matching-lines', '-x', '--exclude', '-F', '--show-function-line', '--label', '-L'] }],
  ['stat', { values: ['-c', '--format', '--printf'] }],
  ['ls', { values: ['-I', '--ignore', '--hide'], follows: ['-L', '--dereference'], walksHere: ['-R', '--recursive'] }],
  ['du', { values: ['--exclude'], follows: ['-L', '--dereference'], walksHere: true }],
  ['tree', { values: ['-P', '-I', '-H'], writes: ['-o'], follows: ['-l'], walksHere: true }],
  ['cd', plain],
  ['pushd', plain],
  ['find', { stopAt: /^[-(!)]/, follows: ['-L', '-follow'], walksHere: true }],
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  ['sed', SED],
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
  ['jq', JQ],
  ['touch', { write: true, values: ['-d', '--date', '-t'] }],
  ['mkdir', { write: true, values: ['-m', '--mode'] }],
  ...['rmdir', 'rm', 'tee', 'shred', 'ln', 'unlink'].map((n): [string, Spec] => [n, { write: true }]),
  ...['cp', 'mv'].map((n): [string, Spec] => [n, { write: true, values: ['-S', '--suffix'], follows: ['-L', '--dereference'] }]),
  ['truncate', { write: true, values: ['-s', '--size'] }],
  ...['chmod', 'chown', 'chgrp'].map((n): [string, Spec] => [n, { write: true, leading: 1 }]),
]);

/** Commands that name files only by paths that leave the folder: git's pathspecs, and the like. */
const PATH_LIKE_ONLY: ReadonlySet<string> = new Set(['git']);

const pathLike = (w: string) => w.startsWith('/') || w.startsWith('~') || w.split('/').includes('..');

/**
 * find's tests whose value is a pattern matched against names, never opened: `-name '/etc/*'`
 * names no file. Other tests' values are left to the word check (`-newer FILE`, `-samefile FILE`
 * read the file they name).
 */
const FIND_PATTERN_TESTS: ReadonlySet<string> = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname']);

/** find's actions whose next word is a file it writes. */
const FIND_WRITES: ReadonlySet<string> = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

function patternValues(words: readonly (string | undefined)[], from: number, notFiles: Set<number>): void {
  for (let i = from; i < words.length - 1; i++) if (words[i] !== undefined && FIND_PATTERN_TESTS.has(words[i]!)) notFiles.add(++i);
}

/** Whether pathArgs knows which of the command's words it writes (for others, any word may be written). */
export function knowsWrites(name: string): boolean {
  return SPECS.has(name);
}

/**
 * The files each command names, for the commands that read or write files (others: none).
 * `notFiles` gets the indexes of the words known not to be files (a pattern, a script, an option's value).
 */
export function pathArgs(c: SimpleCommand, notFiles?: Set<number>): PathArg[] {
  const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
  const spec = name === undefined ? undefined : (SPECS.get(name) ?? (PATH_LIKE_ONLY.has(name) ? {} : undefined));
  if (name === undefined || !spec) return [];
  const onlyIfPathLike = PATH_LIKE_ONLY.has(name);
  let write = Boolean(spec.write);
  const out: PathArg[] = [];
  const hasOption = (options: readonly string[]) =>
    c.words.find((word, i) => {
      if (i === 0 || word === undefined) return false;
      const w = asOptionWord(name, i, word);
      return options.some((f) => spellsOption(w, f));
    });
  const follows = hasOption(spec.follows ?? []);
  const push = (text: string | undefined, shape?: Shape, writes = write) =>
    out.push({ command: name, write: writes, text, ...(shape ? { shape } : {}), ...(onlyIfPathLike ? { onlyIfPathLike } : {}), ...(follows ? { follows } : {}) });
  const pushWord = (i: number, writes?: boolean) => push(c.words[i], c.words[i] === undefined ? (c.shapes?.[i] ?? { kind: 'computed' }) : undefined, writes);
  const values = new Set(spec.values ?? []);
  // Operands are placed once every option is read: an option after them (`grep x -e y f`) still counts.
  const operands: number[] = [];
  let given = false;
  let unknownFirst = false;
  let options = true;
  for (let i = 1; i < c.words.length; i++) {
    const w = c.words[i];
    // find's expression starts at its first word beginning with -, (, ! or ) other than -H, -L, -P.
    if (spec.stopAt && w !== undefined && spec.stopAt.test(w) && !/^-[HLP]$/.test(w)) {
      if (notFiles) patternValues(c.words, i, notFiles);
      break;
    }
    if ((name === 'cd' || name === 'pushd') && w !== undefined && /^[-+]\d*$/.test(w)) {
      // The folder before, or one on the stack: known only when it runs.
      push(undefined, { kind: 'computed' });
      continue;
    }
    if (w !== undefined && options && w === '--') {
      options = false;
      continue;
    }
    if (w !== undefined && options && w.startsWith('-') && w !== '-') {
      if (spec.writes?.includes(w)) {
        pushWord(++i, true);
        continue;
      }
      if (spec.flags) {
        const r = readOption(spec, w, i);
        given ||= r.given;
        write ||= r.inPlace;
        // An unknown option before the pattern may have taken it as its value: no operand is then taken for the pattern.
        if (r.unknown && operands.length === 0) unknownFirst = true;
        for (const f of r.files) {
          if (!('at' in f)) push(f.text, undefined, false);
          else if (f.at < c.words.length) pushWord(f.at, false);
        }
        for (let k = i + 1; k <= i + r.takes; k++) if (!r.files.some((f) => 'at' in f && f.at === k)) notFiles?.add(k);
        i += r.takes;
        continue;
      }
      if (values.has(w)) {
        i++;
        notFiles?.add(i);
        continue;
      }
      // A value glued to an option names a file when it reads like one: --file=/etc/x, -f/etc/x.
      const eq = w.startsWith('--') ? w.indexOf('=') : -1;
      const glued = eq > 0 ? w.slice(eq + 1) : !w.startsWith('--') && !values.has(w.slice(0, 2)) ? w.slice(2) : '';
      if (glued && leavesAt(glued)) push(glued);
      continue;
    }
    operands.push(i);
  }
  const pattern = spec.patternFirst !== undefined && !given && !unknownFirst ? operands[0] : undefined;
  let leading = spec.leading ?? 0;
  let count = 0;
  for (const i of operands) {
    if (i === pattern) {
      notFiles?.add(i);
      continue;
    }
    if (leading > 0) {
      leading--;
      continue;
    }
    count++;
    const w = c.words[i];
    const writes = write || (spec.writesSecond === true && count === 2);
    if (w === undefined || !onlyIfPathLike || pathLike(w)) pushWord(i, writes);
  }
  // find's actions that write the file they name (pass 56 H1: `-fprintf ~/.bashrc …` past Edit(~/.bashrc)).
  if (name === 'find') {
    for (let i = 1; i < c.words.length - 1; i++) if (c.words[i] === undefined || FIND_WRITES.has(c.words[i]!)) pushWord(++i, true);
  }
  // `cd` alone goes home.
  if (name === 'cd' && out.length === 0) push('~');
  // `find -L -name x`, `grep -R x`, `du -aL`: given no file, the walk starts where it runs.
  const walks = spec.walksHere === true || (spec.walksHere !== undefined && hasOption(spec.walksHere) !== undefined);
  // With the pattern not told (an option not known came first), a lone operand may be the pattern.
  const patternUntold = spec.patternFirst !== undefined && pattern === undefined && !given;
  if (walks && (count === 0 || (patternUntold && count === 1))) push('.');
  return out;
}
