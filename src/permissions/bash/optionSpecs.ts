// How a program's options take their values, for pathArgs: which words after an option are its
// value, which of those are files, and, for the programs whose first operand is a pattern or a
// program (grep, rg, sed, awk, jq), every option they are known to take, so that one not known
// leaves the pattern untold rather than taking a file for it.

export interface Spec {
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
  /** Given no file, it walks the folder it runs in: always, or when one of these options is given. */
  walksHere?: true | readonly string[];
}

// `values` lists only options sure to take the next word as a value that is not a file: a flag
// listed there would hide the file after it, while a value option left out is only checked as a
// file too (it may ask once too often). Numbers need no listing: they name no file outside.
export const GREP: Spec = {
  patternFirst: { given: ['-e', '--regexp', '-f', '--file'] },
  flags: {
    short: 'abcEFGhHiIlLnoPqrRsTUuvVwxyzZ0123456789',
    long: ['--extended-regexp', '--fixed-strings', '--basic-regexp', '--perl-regexp', '--ignore-case', '--no-ignore-case', '--word-regexp', '--line-regexp', '--null-data', '--no-messages', '--invert-match', '--version', '--help', '--byte-offset', '--line-buffered', '--with-filename', '--no-filename', '--only-matching', '--quiet', '--silent', '--binary', '--text', '--recursive', '--dereference-recursive', '--files-without-match', '--files-with-matches', '--count', '--initial-tab', '--null', '--color', '--colour', '--line-number', '--no-group-separator'],
  },
  values: ['-e', '--regexp', '-m', '--max-count', '-A', '--after-context', '-B', '--before-context', '-C', '--context', '--label', '--include', '--exclude', '--exclude-dir', '-d', '--directories', '-D', '--devices', '--binary-files', '--group-separator'],
  reads: ['-f', '--file', '--exclude-from'],
  follows: ['-R', '--dereference-recursive'],
  walksHere: ['-r', '-R', '--recursive', '--dereference-recursive'],
};
// ripgrep's -r is --replace (grep's is --recursive), its -d --max-depth. `--files` lists the files
// of the folders it is given: no pattern.
export const RG: Spec = {
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
  walksHere: true,
};
export const AWK: Spec = {
  patternFirst: { given: ['-f', '--file', '-e', '--source', '-E', '--exec'] },
  flags: { short: 'bcCgMNOPrSstVh', long: ['--posix', '--traditional', '--re-interval', '--sandbox', '--characters-as-bytes', '--use-lc-numeric', '--bignum', '--copyright', '--version', '--help'] },
  values: ['-v', '--assign', '-F', '--field-separator', '-e', '--source'],
  reads: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'],
};
// jq takes -f as a flag: its first operand is then the file the program is read from.
export const JQ: Spec = {
  patternFirst: { given: ['-f', '--from-file'] },
  flags: {
    short: 'nrjascCMSeRhVb0f',
    long: ['--null-input', '--raw-output', '--raw-output0', '--join-output', '--ascii-output', '--slurp', '--compact-output', '--color-output', '--monochrome-output', '--sort-keys', '--exit-status', '--raw-input', '--tab', '--seq', '--stream', '--stream-errors', '--unbuffered', '--help', '--version', '--build-configuration', '--binary', '--args', '--jsonargs', '--from-file', '--nul-output', '--debug-dump-disasm', '--debug-trace'],
  },
  values: ['--indent'],
  pairs: ['--arg', '--argjson', '--slurpfile', '--rawfile'],
  reads: ['-L', '--library-path', '--slurpfile', '--rawfile'],
};
export const SED: Spec = {
  patternFirst: { given: ['-e', '--expression', '-f', '--file'] },
  flags: { short: 'nrEsuzb', long: ['--quiet', '--silent', '--regexp-extended', '--separate', '--unbuffered', '--null-data', '--zero-terminated', '--posix', '--debug', '--sandbox', '--follow-symlinks', '--binary', '--help', '--version'] },
  values: ['-e', '--expression', '-l', '--line-length'],
  reads: ['-f', '--file'],
  inPlace: ['-i', '--in-place'],
};

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

export const leavesAt = (text: string) => text.startsWith('/') || text.startsWith('~');

/** Reads the option word `w` (at `i`) of a program with known flags: a long option, or a bundle of short ones letter by letter. */
export function readOption(spec: Spec, w: string, i: number): OptionRead {
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
