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
  /**
   * Its options that take no value, as far as they are known: short letters and long options.
   * Given, its option bundles are read letter by letter (`-rnf FILE`), and an option known
   * neither here nor in the lists below may take the next word as its value: which operand is
   * the pattern is then not told, and every operand is judged as a file.
   */
  flags?: { short: string; long: readonly string[] };
  /** Options whose value is the next word and is not a file. */
  values?: readonly string[];
  /** Options whose value, glued or the next word, is a file or folder it reads (jq -L, rg --ignore-file). */
  reads?: readonly string[];
  /** Options followed by two words, a name and a value; the value is a file it reads when the option is in `reads` too. */
  pairs?: readonly string[];
  /** Options by which it writes the files it is given, with an optional glued suffix (sed -i.bak, --in-place=.bak). */
  inPlace?: readonly string[];
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
  flags: {
    short: 'abcEFGhHiIlLnoPqrRsTUuvVwxyzZ0123456789',
    long: ['--extended-regexp', '--fixed-strings', '--basic-regexp', '--perl-regexp', '--ignore-case', '--no-ignore-case', '--word-regexp', '--line-regexp', '--null-data', '--no-messages', '--invert-match', '--version', '--help', '--byte-offset', '--line-buffered', '--with-filename', '--no-filename', '--only-matching', '--quiet', '--silent', '--binary', '--text', '--recursive', '--dereference-recursive', '--files-without-match', '--files-with-matches', '--count', '--initial-tab', '--null', '--color', '--colour', '--line-number', '--no-group-separator'],
  },
  values: ['-e', '--regexp', '-m', '--max-count', '-A', '--after-context', '-B', '--before-context', '-C', '--context', '--label', '--include', '--exclude', '--exclude-dir', '-d', '--directories', '-D', '--devices', '--binary-files', '--group-separator'],
  reads: ['-f', '--file', '--exclude-from'],
  follows: ['-R', '--dereference-recursive'],
};
// ripgrep's -r is --replace (grep's is --recursive), its -d --max-depth. `--files` lists the files
// of the folders it is given: no pattern.
const RG: Spec = {
  patternFirst: { given: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'] },
  flags: {
    short: 'abcFHhiIlnNopqsSuUvVwxzL0.P',
    long: [
      '--hidden', '--no-hidden', '--no-ignore', '--ignore', '--no-ignore-vcs', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-files', '--no-ignore-messages', '--files-with-matches', '--files-without-match', '--count', '--count-matches',
      '--json', '--no-json', '--vimgrep', '--heading', '--no-heading', '--line-number', '--no-line-number', '--column', '--no-column', '--with-filename', '--no-filename', '--fixed-strings', '--no-fixed-strings', '--ignore-case', '--smart-case', '--case-sensitive', '--word-regexp', '--line-regexp',
      '--invert-match', '--only-matching', '--multiline', '--no-multiline', '--multiline-dotall', '--pcre2', '--no-pcre2', '--crlf', '--text', '--binary', '--search-zip', '--trim', '--quiet', '--no-messages', '--no-config', '--follow', '--one-file-system', '--null', '--null-data', '--passthru',
      '--pretty', '--stats', '--debug', '--trace', '--unrestricted', '--help', '--version', '--byte-offset', '--no-unicode', '--block-buffered', '--line-buffered', '--sort-files', '--no-require-git', '--include-zero', '--stop-on-nonmatch',
    ],
  },
  values: ['-e', '--regexp', '-m', '--max-count', '-A', '--after-context', '-B', '--before-context', '-C', '--context', '-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '-r', '--replace', '-M', '--max-columns', '-j', '--threads', '-d', '--max-depth', '--maxdepth', '-E', '--encoding', '--sort', '--sortr', '--colors', '--color', '--context-separator', '--field-context-separator', '--field-match-separator', '--path-separator', '--max-filesize', '--engine', '--dfa-size-limit', '--regex-size-limit', '--type-add', '--type-clear', '--pre-glob', '--hyperlink-format', '--generate'],
  reads: ['-f', '--file', '--ignore-file'],
  follows: ['-L', '--follow'],
};
const AWK: Spec = {
  patternFirst: { given: ['-f', '--file', '-e', '--source', '-E', '--exec'] },
  flags: { short: 'bcCgMNOPrSstVh', long: ['--posix', '--traditional', '--re-interval', '--sandbox', '--characters-as-bytes', '--use-lc-numeric', '--bignum', '--copyright', '--version', '--help'] },
  values: ['-v', '--assign', '-F', '--field-separator', '-e', '--source'],
  reads: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'],
};
// jq takes -f as a flag: its first operand is then the file the program is read from.
const JQ: Spec = {
  patternFirst: { given: ['-f', '--from-file'] },
  flags: {
    short: 'nrjascCMSeRhVb0f',
    long: ['--null-input', '--raw-output', '--raw-output0', '--join-output', '--ascii-output', '--slurp', '--compact-output', '--color-output', '--monochrome-output', '--sort-keys', '--exit-status', '--raw-input', '--tab', '--seq', '--stream', '--stream-errors', '--unbuffered', '--help', '--version', '--build-configuration', '--binary', '--args', '--jsonargs', '--from-file', '--nul-output', '--debug-dump-disasm', '--debug-trace'],
  },
  values: ['--indent'],
  pairs: ['--arg', '--argjson', '--slurpfile', '--rawfile'],
  reads: ['-L', '--library-path', '--slurpfile', '--rawfile'],
};
const SED: Spec = {
  patternFirst: { given: ['-e', '--expression', '-f', '--file'] },
  flags: { short: 'nrEsuzb', long: ['--quiet', '--silent', '--regexp-extended', '--separate', '--unbuffered', '--null-data', '--zero-terminated', '--posix', '--debug', '--sandbox', '--follow-symlinks', '--binary', '--help', '--version'] },
  values: ['-e', '--expression', '-l', '--line-length'],
  reads: ['-f', '--file'],
  inPlace: ['-i', '--in-place'],
};
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

function patternValues(words: readonly (string | undefined)[], from: number, notFiles: Set<number>): void {
  for (let i = from; i < words.length - 1; i++) if (words[i] !== undefined && FIND_PATTERN_TESTS.has(words[i]!)) notFiles.add(++i);
}

/** Whether pathArgs knows which of the command's words it writes (for others, any word may be written). */
export function knowsWrites(name: string): boolean {
  return SPECS.has(name);
}

/** What one option word of a program whose flags are known (Spec.flags) takes. */
interface OptionRead {
  /** How many words after it are its values. */
  takes: number;
  /** Its values that are files it reads: a word's index, or the text glued to it. */
  files: Array<{ at: number } | { text: string }>;
  /** It gives the pattern or program itself (grep -e, jq -f): the first operand is no pattern. */
  given: boolean;
  /** Not known: it may take the next word as its value. */
  unknown: boolean;
  /** It writes the files it is given (sed -i). */
  inPlace: boolean;
}

const leavesAt = (text: string) => text.startsWith('/') || text.startsWith('~');

/** Reads the option word `w` (at `i`) of a program with known flags: a long option, or a bundle of short ones letter by letter. */
function readOption(spec: Spec, w: string, i: number): OptionRead {
  const r: OptionRead = { takes: 0, files: [], given: false, unknown: false, inPlace: false };
  const has = (list: readonly string[] | undefined, o: string) => list?.includes(o) ?? false;
  /** Whether `o` takes a value (glued, or the words after it), noting what it takes. */
  const value = (o: string, glued: string | undefined): boolean => {
    r.given ||= has(spec.patternFirst?.given, o);
    if (has(spec.inPlace, o)) r.inPlace = true;
    else if (has(spec.pairs, o)) {
      r.takes = 2;
      if (has(spec.reads, o)) r.files.push({ at: i + 2 });
    } else if (has(spec.reads, o)) {
      if (glued !== undefined) r.files.push({ text: glued });
      else {
        r.takes = 1;
        r.files.push({ at: i + 1 });
      }
    } else if (has(spec.values, o)) r.takes = glued === undefined ? 1 : 0;
    else return false;
    return true;
  };
  if (w.startsWith('--')) {
    const eq = w.indexOf('=');
    const o = eq < 0 ? w : w.slice(0, eq);
    const glued = eq < 0 ? undefined : w.slice(eq + 1);
    if (value(o, glued) || has(spec.flags?.long, o)) return r;
    // Unknown: `--opt=value` took its value; `--opt` alone may take the next word.
    if (glued === undefined) r.unknown = true;
    else if (leavesAt(glued)) r.files.push({ text: glued });
    return r;
  }
  for (let k = 1; k < w.length; k++) {
    const rest = k + 1 < w.length ? w.slice(k + 1) : undefined;
    if (value(`-${w[k]}`, rest)) return r;
    if (spec.flags?.short.includes(w[k]!)) continue;
    // Unknown: the rest of the bundle may be its value, and so may the next word.
    r.unknown = true;
    if (rest !== undefined && leavesAt(rest)) r.files.push({ text: rest });
    return r;
  }
  return r;
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
  const follows = c.words.find((w) => w !== undefined && (spec.follows ?? []).some((f) => w === f || (!f.startsWith('--') && f.length === 2 && /^-[A-Za-z]+$/.test(w) && w.includes(f[1]!))));
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
  // `cd` alone goes home.
  if (name === 'cd' && out.length === 0) push('~');
  return out;
}
