import { commandBase, gitVerbIndex, spellsOption, type SimpleCommand, type Words } from './commands';

// An archive or a patch carries the names of the files it writes: `tar -xf x.tar` writes
// `.git/config`, `/home/u/.bashrc` or `../../x` when its members are called that, `patch` and
// `git apply` write the files their headers name. The checks see the archive's name, never the
// names inside it, so a command that unpacks or applies cannot be judged by its words: under a
// rule naming a prefix it asks. Listing, testing, creating an archive or unpacking to stdout
// writes nothing the input names. A mode the reading below cannot tell is taken as unpacking.

/** `unsure`: its mode cannot be told (none given, or a word computed when it runs), so it may unpack. */
type Verdict = 'writes' | 'unsure' | 'safe';

/** Long option `word` (with or without `=value`) spells `--name` or a start of it, as getopt takes it. */
const startOf = (word: string, ...names: string[]): boolean => names.some((n) => spellsOption(word, `--${n}`));
const longName = (word: string) => word.slice(2).split('=')[0]!;

/**
 * tar, bsdtar, jar: the mode is a letter of the first word (`xvf`, old style, no dash), of a
 * bundle (`-xzf`) or a long option (`--extract`, `--get`). Any `x` in a bundle counts, even in a
 * glued value (`-fx.tar` asks: asking is the safe misreading). Letters after one that takes a
 * value (`-f NAME`) are that value and tell no mode.
 */
function tarLike(args: Words, extract: readonly string[], modes: string, longModes: ReadonlySet<string>, valueLetters: string, stdout: { letter: string; long: string } | undefined): Verdict {
  let unpacks = false;
  let toStdout = false;
  let mode = false;
  const letters = (bundle: string, oldStyle: boolean) => {
    if (bundle.includes('x')) unpacks = true;
    for (const f of bundle) {
      if (modes.includes(f)) mode = true;
      if (stdout && f === stdout.letter) toStdout = true;
      // Old-style letters take their values from the words after the bundle.
      if (!oldStyle && valueLetters.includes(f)) break;
    }
  };
  for (let k = 0; k < args.length; k++) {
    const w = args[k];
    // A word the shell computes may be `-x`.
    if (w === undefined) return 'unsure';
    if (w === '--') break;
    if (w.startsWith('--')) {
      if (startOf(w, ...extract)) unpacks = true;
      else if (longModes.has(longName(w))) mode = true;
      else if (stdout && w === stdout.long) toStdout = true;
    } else if (w.startsWith('-') && w !== '-') letters(w.slice(1), false);
    else if (k === 0) letters(w, true);
  }
  if (unpacks) return toStdout ? 'safe' : 'writes';
  return mode ? 'safe' : 'unsure';
}

const TAR_LONG_MODES: ReadonlySet<string> = new Set(['create', 'list', 'append', 'update', 'catenate', 'concatenate', 'diff', 'compare', 'delete', 'test-label', 'show-defaults', 'help', 'usage', 'version']);
const JAR_LONG_MODES: ReadonlySet<string> = new Set(['create', 'list', 'update', 'generate-index', 'describe-module', 'print-module-descriptor', 'validate', 'help', 'help-extra', 'version']);

/** unzip writes unless a bundle before the archive's name lists, tests or prints (`-l`, `-t`, `-v`, `-Z`, `-z`, `-p`, `-c`). */
function unzip(args: Words): Verdict {
  // A minus inside a bundle or a doubled one turns an option off (`--l`, `-l-l`), also one set in $UNZIP.
  if (args.some((w) => w !== undefined && /^-.*-/.test(w))) return 'writes';
  for (let k = 0; k < args.length; k++) {
    const w = args[k];
    if (w === undefined) return 'writes';
    // The archive's name: options after it are not read here.
    if (!/^-[A-Za-z]/.test(w)) return 'writes';
    // `-d DIR`, `-P PASSWORD`, `-x NAMES`: what follows is their value.
    for (const f of w.slice(1)) {
      if (!/[A-Za-z]/.test(f) || 'dPx'.includes(f)) break;
      if ('ltvZzpc'.includes(f)) return 'safe';
    }
    if (w === '-d' || w === '-P') k++;
  }
  return 'writes';
}

/** cpio writes in copy-in (`-i`, `--extract`) and pass-through (`-p`) modes, except `-it` (a listing) or to stdout. */
function cpio(args: Words): Verdict {
  let passes = false;
  let safe = false;
  for (const w of args) {
    if (w === undefined) return 'writes';
    if (w === '--') break;
    if (w.startsWith('--')) {
      if (startOf(w, 'pass-through')) passes = true;
      else if (['create', 'list', 'to-stdout', 'help', 'version', 'usage'].includes(longName(w))) safe = true;
    } else if (w.startsWith('-')) {
      if (w.includes('p')) passes = true;
      for (const f of w.slice(1)) {
        if ('ot'.includes(f)) safe = true;
        if ('CDEFHIMOR'.includes(f)) break;
      }
    }
  }
  // Copy-in (`-i`, `--extract`) writes unless `-t` makes it a listing.
  return !passes && safe ? 'safe' : 'writes';
}

/** 7z and the like: the first operand is the command; only listing, testing, hashing, benchmarks and adding write nothing named inside. */
function sevenZip(args: Words, safe: ReadonlySet<string>): Verdict {
  if (args.some((w) => w === '-so')) return 'safe';
  const command = args.find((w) => w === undefined || !w.startsWith('-'));
  return command !== undefined && safe.has(command.toLowerCase()) ? 'safe' : 'writes';
}

/** ar's key (`x`, `-x`, `xv`): the first word that is not a long option (those before it that take a value skip it). */
function ar(args: Words): Verdict {
  for (let k = 0; k < args.length; k++) {
    const w = args[k];
    if (w === undefined) return 'writes';
    if (['--plugin', '--target', '--output', '--record-libdeps'].includes(w)) {
      k++;
      continue;
    }
    if (w.startsWith('--')) {
      if (['thin', 'help', 'version'].includes(longName(w)) || w.includes('=')) continue;
      return 'writes';
    }
    return w.includes('x') ? 'writes' : 'safe';
  }
  return 'writes';
}

/** git apply writes unless it only checks or reports (`--check`, `--stat`, `--numstat`, `--summary`) and is not told `--apply`. */
function gitApply(args: Words): Verdict {
  let reports = false;
  for (const w of args) {
    if (w === undefined) return 'writes';
    if (w === '--') break;
    if (w.startsWith('--') ? startOf(w, 'apply', 'reject', '3way') : /^-[A-Za-z0-9]*3/.test(w)) return 'writes';
    if (['--check', '--stat', '--numstat', '--summary'].includes(w)) reports = true;
  }
  return reports ? 'safe' : 'writes';
}

/** git am applies the patches of a mailbox, unless it only aborts, quits or shows the current one. */
function gitAm(args: Words): Verdict {
  return args.some((w) => w !== undefined && ['--abort', '--quit', '--show-current-patch'].includes(w.split('=')[0]!)) && !args.includes(undefined) ? 'safe' : 'writes';
}

const SEVEN_ZIP_SAFE: ReadonlySet<string> = new Set(['l', 't', 'h', 'i', 'b', 'a', 'u', 'd', 'rn']);
const RAR_SAFE: ReadonlySet<string> = new Set(['l', 'lt', 'lta', 'lb', 'v', 'vt', 'vta', 'vb', 't', 'p', 'a', 'u', 'd', 'rn', 'm', 'k', 'c', 'cw', 'ch']);

/** What each program unpacks or applies, for messages, and how to tell whether it does. */
const PROGRAMS: ReadonlyMap<string, { what: string; verdict: (args: Words) => Verdict }> = new Map([
  ...['tar', 'gtar', 'bsdtar'].map((n) => [n, { what: 'archive', verdict: (a: Words) => tarLike(a, ['extract', 'get'], 'ctrudA', TAR_LONG_MODES, 'bCfFgHIKLNTVXs', { letter: 'O', long: '--to-stdout' }) }] as const),
  ['jar', { what: 'archive', verdict: (a: Words) => tarLike(a, ['extract'], 'ctuid', JAR_LONG_MODES, 'fmeCp', undefined) }],
  ...['unzip', 'bsdunzip'].map((n) => [n, { what: 'archive', verdict: unzip }] as const),
  ...['cpio', 'bsdcpio'].map((n) => [n, { what: 'archive', verdict: cpio }] as const),
  ...['7z', '7za', '7zr', '7zz', '7zzs'].map((n) => [n, { what: 'archive', verdict: (a: Words) => sevenZip(a, SEVEN_ZIP_SAFE) }] as const),
  ...['rar', 'unrar'].map((n) => [n, { what: 'archive', verdict: (a: Words) => sevenZip(a, RAR_SAFE) }] as const),
  ['ar', { what: 'archive', verdict: ar }],
  // pax reads an archive in with -r (alone, or -rw copying the files named on its input).
  ['pax', { what: 'archive', verdict: (a: Words) => (a.some((w) => w === undefined || (/^-[^-]/.test(w) && w.includes('r'))) ? 'writes' : 'safe') }],
  ['dpkg-deb', { what: 'package', verdict: (a: Words) => (a.some((w) => w === undefined || /^-[A-Za-z]*[xXRe]/.test(w) || (w.startsWith('--') && startOf(w, 'extract', 'vextract', 'raw-extract', 'control'))) ? 'writes' : 'safe') }],
  ['unar', { what: 'archive', verdict: () => 'writes' }],
  // uudecode writes the file its `begin` line names, unless told where.
  ['uudecode', { what: 'encoded file', verdict: (a: Words) => (a.some((w) => w !== undefined && (w === '-o' || w.startsWith('--output-file'))) && !a.includes(undefined) ? 'safe' : 'writes') }],
  ['patch', { what: 'patch', verdict: (a: Words) => (a.some((w) => w !== undefined && w.startsWith('--') && longName(w).length > 2 && 'dry-run'.startsWith(longName(w))) ? 'safe' : 'writes') }],
]);

/** Whether writesNamedInside judges what `program` writes (an archiver, a patcher). */
export function judgesUnpacking(program: string): boolean {
  return PROGRAMS.has(program) || program === 'busybox';
}

/**
 * Why the command writes files whose names are inside its input (an archive's members, a patch's
 * headers), which no check of its words can see; undefined when it surely does not.
 */
export function writesNamedInside(c: SimpleCommand): string | undefined {
  let words = c.words;
  if (words[0] === undefined) return undefined;
  let name = commandBase(words[0]);
  // busybox runs the applet its first word names.
  if (name === 'busybox') {
    if (words.length > 1 && words[1] === undefined) return 'busybox is given an applet computed when it runs, which may unpack an archive and write the files named inside it, which the checks cannot see';
    if (words[1] === undefined) return undefined;
    words = words.slice(1);
    name = commandBase(words[0]!);
  }
  if (name === 'git') {
    const at = gitVerbIndex(words);
    if (at < 0) return undefined;
    const verb = words[at];
    const args = words.slice(at + 1);
    if (verb === 'apply' && gitApply(args) === 'writes') return 'git apply writes the files named inside the patch, which the checks cannot see (they may lie in .git/ or outside the workspace)';
    if (verb === 'am' && gitAm(args) === 'writes') return 'git am writes the files named inside the patches it applies, which the checks cannot see (they may lie in .git/ or outside the workspace)';
    return undefined;
  }
  const program = PROGRAMS.get(name);
  const verdict = program?.verdict(words.slice(1)) ?? 'safe';
  if (verdict === 'safe') return undefined;
  const writes = verdict === 'writes' ? 'writes' : 'may unpack (its mode cannot be told), writing';
  return `${name} ${writes} the files named inside the ${program!.what}, which the checks cannot see (they may lie in .git/ or outside the workspace)`;
}
