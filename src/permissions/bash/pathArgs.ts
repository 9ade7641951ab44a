import { commandBase, type SimpleCommand } from './commands';
import type { Shape } from './words';

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

interface Spec {
  write?: boolean;
  /** Its first operand is a pattern or a program, not a file, unless one of `given` gave it. */
  patternFirst?: { given: readonly string[] };
  /** Options whose value is the next word and is not a file. */
  values?: readonly string[];
  /** Operands before the files that are not files (chmod's mode, chown's owner). */
  leading?: number;
  /** Operands after the first word starting with one of these are not files (find's expression). */
  stopAt?: RegExp;
  /** Options whose value is a file the command writes (sort -o). */
  writes?: readonly string[];
  /** It writes its second operand (uniq in out, xxd in out). */
  writesSecond?: boolean;
  /** Options that make it follow symlinks while it walks a folder, wherever they lead. */
  follows?: readonly string[];
}

// `values` lists only options sure to take the next word as a value that is not a file: a flag
// listed there would hide the file after it, while a value option left out is only checked as a
// file too (it may ask once too often). Numbers need no listing: they name no file outside.
const GREP: Spec = {
  patternFirst: { given: ['-e', '--regexp', '-f', '--file'] },
  values: ['-e', '--regexp', '-m', '--max-count', '-A', '-B', '-C', '--label', '--include', '--exclude', '--exclude-dir', '-d', '--directories', '-D', '--devices', '--binary-files'],
  follows: ['-R', '--dereference-recursive'],
};
// ripgrep's -r is --replace (grep's is --recursive), its -d --max-depth.
const RG: Spec = {
  patternFirst: { given: ['-e', '--regexp', '-f', '--file'] },
  values: ['-e', '--regexp', '-m', '--max-count', '-A', '-B', '-C', '-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '-r', '--replace', '-M', '--max-columns', '-j', '--threads', '-d', '--max-depth', '-E', '--encoding', '--sort', '--sortr', '--colors'],
  follows: ['-L', '--follow'],
};
const AWK: Spec = { patternFirst: { given: ['-f', '--file'] }, values: ['-v', '--assign', '-F', '--field-separator'] };
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
  ['ls', { values: ['-I', '--ignore', '--hide'] }],
  ['du', { values: ['--exclude'], follows: ['-L', '--dereference'] }],
  ['tree', { values: ['-P', '-I', '-H'], writes: ['-o'], follows: ['-l'] }],
  ['cd', plain],
  ['pushd', plain],
  ['find', { stopAt: /^[-(!)]/, follows: ['-L', '-follow'] }],
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  ['sed', { patternFirst: { given: ['-e', '--expression', '-f', '--file'] }, values: ['-e', '--expression'] }],
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
  ['jq', { patternFirst: { given: ['-f', '--from-file'] }, values: ['--arg', '--argjson'] }],
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
  const write = Boolean(spec.write) || (name === 'sed' && c.words.some((w) => w !== undefined && /^(-i|--in-place)/.test(w)));
  const out: PathArg[] = [];
  const follows = c.words.find((w) => w !== undefined && (spec.follows ?? []).some((f) => w === f || (!f.startsWith('--') && f.length === 2 && /^-[A-Za-z]+$/.test(w) && w.includes(f[1]!))));
  let operands = 0;
  const push = (text: string | undefined, shape?: Shape, writes = write) =>
    out.push({ command: name, write: writes, text, ...(shape ? { shape } : {}), ...(onlyIfPathLike ? { onlyIfPathLike } : {}), ...(follows ? { follows } : {}) });
  const values = new Set(spec.values ?? []);
  let pattern = spec.patternFirst !== undefined && !c.words.some((w) => w !== undefined && spec.patternFirst!.given.some((g) => w === g || w.startsWith(`${g}=`) || (!g.startsWith('--') && w.startsWith(g))));
  let leading = spec.leading ?? 0;
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
        const target = c.words[++i];
        push(target, target === undefined ? (c.shapes?.[i] ?? { kind: 'computed' }) : undefined, true);
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
      if (glued && (glued.startsWith('/') || glued.startsWith('~'))) push(glued);
      continue;
    }
    if (pattern) {
      pattern = false;
      notFiles?.add(i);
      continue;
    }
    if (leading > 0) {
      leading--;
      continue;
    }
    operands++;
    const writes = write || (spec.writesSecond === true && operands === 2);
    if (w === undefined) push(undefined, c.shapes?.[i] ?? { kind: 'computed' }, writes);
    else if (!onlyIfPathLike || pathLike(w)) push(w, undefined, writes);
  }
  // `cd` alone goes home.
  if (name === 'cd' && out.length === 0) push('~');
  return out;
}
