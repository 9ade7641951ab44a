import { asOptionWord, commandBase, gitVerbIndex, spellsOption, type SimpleCommand } from './commands';
import { runsProjectCode } from './options';
import { writesOwnNames } from './optionModels';
import { folderNamesSync } from '../../fs/list';
import { isFolderSync, isLinkSync } from '../../fs/stat';
import { dirname } from 'node:path';
import { kernelJoin, realLocation } from '../../fs/paths';
import { embedded } from './embedded';
import { judgesUnpacking } from './unpacks';
import { gitWritesTree } from './wholeTreeGit';

// A folder inside the workspace may hold a committed link to anywhere (`sub/s -> ~/.ssh`). A
// program that walks the folder and follows links reads or changes what the link leads to:
// `tar chf - sub`, `diff -r sub empty`, `zip -r - sub`, `gzip -r sub`, `chgrp -RL g sub`. Which
// programs follow links while walking is a matter of each one's defaults and options, so the rule
// is deny-by-default: a folder given to a program not known to leave links alone is looked
// through (bounded), and a link leading outside, or a folder too big to look through, asks.

/**
 * Programs that never walk a folder, or walk it without following links unless an option says so
 * (those options are judged apart: pathArgs' `follows`, and FOLLOW_OPTIONS below).
 */
const LEAVES_LINKS: ReadonlySet<string> = new Set([
  'cat', 'head', 'tail', 'wc', 'nl', 'less', 'more', 'file', 'stat', 'ls', 'dir', 'grep', 'egrep', 'fgrep', 'rg', 'find', 'du', 'tree',
  'cp', 'mv', 'rm', 'rmdir', 'mkdir', 'touch', 'chmod', 'chown', 'chgrp', 'ln', 'unlink', 'cd', 'pushd', 'git', 'tar', 'gtar', 'bsdtar',
  'rsync', 'sort', 'uniq', 'cut', 'paste', 'tr', 'sed', 'awk', 'gawk', 'mawk', 'nawk', 'jq', 'gojq', 'jaq', 'yq', 'tee', 'shred', 'truncate', 'echo', 'printf',
  'test', '[', 'realpath', 'readlink', 'basename', 'dirname', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'b2sum', 'xxd', 'od', 'hexdump',
]);

/** Options by which programs of that list follow links while walking, where pathArgs does not know them. */
const FOLLOW_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['tar', ['-h', '--dereference']],
  ['gtar', ['-h', '--dereference']],
  ['bsdtar', ['-h', '-L']],
  ['chown', ['-L', '-H']],
  ['chgrp', ['-L', '-H']],
  ['chmod', ['-L', '-H']],
  ['rsync', ['-L', '--copy-links', '-k', '--copy-dirlinks', '--copy-unsafe-links']],
]);

/** Entries looked through per folder; past this the folder counts as holding such a link. */
const MAX_ENTRIES = 10_000;

/** Whether `c` may follow links while walking a folder it is given. */
export function mayFollowLinks(c: SimpleCommand): boolean {
  const head = c.words[0];
  if (head === undefined) return true;
  const name = commandBase(head);
  // A test runner or build tool runs the project's code, which reaches any file by itself once the rule lets it run.
  if (runsProjectCode(name)) return false;
  if (!LEAVES_LINKS.has(name)) return true;
  return spellsAnyOption(c, name, FOLLOW_OPTIONS.get(name) ?? []);
}

/** Whether a word of `c` spells one of `options`, as `name`'s option parser reads it. */
function spellsAnyOption(c: SimpleCommand, name: string, options: readonly string[]): boolean {
  return options.length > 0 && c.words.some((given, i) => i > 0 && given !== undefined && options.some((o) => spellsOption(asOptionWord(name, i, given), o)));
}

/**
 * A link inside `folder` (walked without following links) that leads where `inside` says no,
 * `'too big'` when the folder holds more than can be looked through, undefined when neither.
 */
export function linkLeavingFolder(folder: string, inside: (real: string) => boolean): string | undefined {
  // Node reads names as UTF-8: one that is not comes back with U+FFFD and cannot be looked at by
  // that name, while the program walking the folder opens it as it is.
  return firstInside(folder, (path, name) => (name.includes('\uFFFD') || (isLinkSync(path) && !inside(realLocation(path))) ? path : undefined));
}

/** Looks through `folder` breadth first within MAX_ENTRIES, entering folders that are not links: the first path `look` names, or `'too big'`. */
function firstInside(folder: string, look: (path: string, name: string) => string | undefined): string | undefined {
  if (!isFolderSync(folder)) return undefined;
  const queue = [folder];
  let seen = 0;
  while (queue.length) {
    const dir = queue.shift()!;
    const listed = folderNamesSync(dir, MAX_ENTRIES);
    if (!listed) continue;
    seen += listed.names.length;
    if (listed.capped || seen > MAX_ENTRIES) return 'too big';
    for (const name of listed.names) {
      const path = kernelJoin(dir, name);
      const hit = look(path, name);
      if (hit !== undefined) return hit;
      if (!isLinkSync(path) && isFolderSync(path)) queue.push(path);
    }
  }
  return undefined;
}

/**
 * An entry below `folder` that `denied` names (a file a rule matching at any depth covers:
 * `packages/api/.env` for `Read(**\/.env)`), or `'too big'` past the bound: what a recursive read
 * of the folder would reach (pass 46 F2). Links are not followed (another check judges those).
 */
export function deniedEntryInside(folder: string, denied: (path: string) => boolean): string | undefined {
  return firstInside(folder, (path, name) => (name.includes('\uFFFD') || denied(path) ? path : undefined));
}

/**
 * A link directly in `folder` leading where `inside` says no (or a name that cannot be looked
 * at), or `'too big'`: where a program writing files it names itself (`a.out`, split's `xaa`,
 * the URL's name) would write through it.
 */
export function linkAtTop(folder: string, inside: (real: string) => boolean): string | undefined {
  const listed = folderNamesSync(folder, MAX_ENTRIES);
  if (!listed) return undefined;
  if (listed.capped) return 'too big';
  for (const name of listed.names) {
    const path = kernelJoin(folder, name);
    if (name.includes('\uFFFD')) return path;
    if (isLinkSync(path) && !inside(realLocation(path))) return path;
  }
  return undefined;
}

/**
 * Programs known to write no file but those their words name, or none at all: deny-by-default,
 * as a list of the programs that do name their own outputs never ended (`file -C` writes
 * `magic.mgc`, `tree -R -H` a `00Tree.html` in every folder, `rustc --emit=dep-info` `main.d`,
 * `python -m py_compile` a `__pycache__`, `git format-patch` `0001-….patch`, `git clone` the
 * folder the URL names). Options that make one of these write such files are below.
 */
const WRITES_ONLY_NAMED: ReadonlySet<string> = new Set([
  'cat', 'head', 'tail', 'wc', 'nl', 'less', 'more', 'stat', 'ls', 'dir', 'grep', 'egrep', 'fgrep', 'rg', 'find', 'du', 'df',
  'cp', 'mv', 'rm', 'rmdir', 'mkdir', 'touch', 'chmod', 'chown', 'chgrp', 'ln', 'unlink', 'cd', 'pushd', 'popd', 'tar', 'gtar', 'bsdtar',
  'rsync', 'sort', 'uniq', 'cut', 'paste', 'tr', 'sed', 'awk', 'gawk', 'mawk', 'nawk', 'jq', 'gojq', 'jaq', 'yq', 'tee', 'shred', 'truncate',
  'test', '[', 'realpath', 'readlink', 'basename', 'dirname', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'b2sum', 'cksum', 'xxd', 'od', 'hexdump',
  'diff', 'cmp', 'comm', 'join', 'fold', 'fmt', 'column', 'expand', 'unexpand', 'rev', 'tac', 'strings', 'base64', 'base32', 'printenv',
  'which', 'type', 'date', 'uptime', 'ps', 'free', 'pr', 'numfmt', 'tsort', 'shuf', 'dd', 'install',
  'file', 'tree', 'git',
]);

/** Options that make a program of that list write files it names itself. */
const OWN_NAMES_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['file', ['-C', '--compile']],
  ['tree', ['-R']],
]);

/** git verbs known to write no file but those their words name (in the work tree or in .git). */
const GIT_NAMED_ONLY: ReadonlySet<string> = new Set([
  'status', 'diff', 'log', 'show', 'branch', 'tag', 'add', 'commit', 'fetch', 'pull', 'push', 'merge', 'rebase', 'reset', 'checkout', 'switch',
  'restore', 'rm', 'mv', 'stash', 'grep', 'blame', 'shortlog', 'describe', 'rev-parse', 'rev-list', 'ls-files', 'ls-tree', 'ls-remote',
  'cat-file', 'config', 'remote', 'reflog', 'cherry-pick', 'revert', 'notes', 'show-ref', 'for-each-ref', 'symbolic-ref', 'count-objects',
  'fsck', 'gc', 'prune', 'version', 'help', 'apply', 'am', 'whatchanged', 'range-diff', 'merge-base', 'name-rev', 'check-ignore', 'check-attr', 'var',
]);

/** Whether `c` may write files whose names no word of it gives, in the folder it runs in or beside a name it is given. */
export function mayWriteOwnNames(c: SimpleCommand): boolean {
  const head = c.words[0];
  if (head === undefined) return true;
  const name = commandBase(head);
  if (writesOwnNames(name)) return true;
  // A test runner or build tool runs the project's code, which writes anywhere by itself once the
  // rule lets it run; one that only compiles runs none, and writes where it chooses.
  if (runsProjectCode(name) && !compilesOnly(c)) return false;
  // An archiver's and a patcher's writes are the names inside their input, judged in unpacks.ts.
  if (judgesUnpacking(name)) return false;
  if (!WRITES_ONLY_NAMED.has(name)) return true;
  if (name === 'git') {
    const at = gitVerbIndex(c.words);
    const verb = at < 0 ? undefined : c.words[at];
    return verb === undefined || !GIT_NAMED_ONLY.has(verb);
  }
  return spellsAnyOption(c, name, OWN_NAMES_OPTIONS.get(name) ?? []);
}

/** A code runner used only to compile (`rustc`, `tsc`, `python -m py_compile`): it runs no code of the project's. */
function compilesOnly(c: SimpleCommand): boolean {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (name === 'rustc' || name === 'tsc') return true;
  return /^python[\d.]*$/.test(name) && c.words.some((w, i) => c.words[i - 1] === '-m' && (w === 'py_compile' || w === 'compileall'));
}

/** Programs that write files they name themselves into every folder they walk. */
function writesInEveryFolder(c: SimpleCommand): boolean {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (name === 'tree') return mayWriteOwnNames(c);
  return c.words.some((w) => w === 'compileall' || w === 'compileall.py');
}

/**
 * A program that writes files it names itself (`gcc` its `a.out` and `.o`, `split` its `xaa`,
 * `wget` the URL's name) writes them in the folder it runs in: the first such program among
 * `commands` and a link in one of `folders` that leads where `inside` says no. One that writes
 * them in every folder it walks (`tree -R`, `compileall`) has those folders looked through.
 */
export function linkTakingOwnNames(commands: readonly SimpleCommand[], folders: readonly string[], inside: (real: string) => boolean): { name: string; folder: string; link: string } | undefined {
  for (const writer of commands) {
    if (writer.words[0] === undefined || !mayWriteOwnNames(writer)) continue;
    // Also beside a name it derives its own from (`split f out/x` writes out/xaa, `gcc -o out/m.o
    // -MD` out/m.d), and inside a folder it is given.
    const places = new Set(folders);
    for (const folder of folders) {
      for (const word of writer.words.slice(1)) {
        if (word === undefined) continue;
        for (const text of embedded(word)) {
          if (!text.includes('/')) continue;
          const at = kernelJoin(folder, text);
          places.add(isFolderSync(at) ? at : dirname(at));
        }
      }
    }
    const walks = writesInEveryFolder(writer);
    for (const place of places) {
      // A name outside (`-subj /CN=x`, `-o /tmp/x`) is judged as a word elsewhere: what sits beside it is not the workspace's.
      if (!folders.includes(place) && !inside(realLocation(place))) continue;
      const link = walks ? linkLeavingFolder(place, inside) : linkAtTop(place, inside);
      if (link !== undefined) return { name: commandBase(writer.words[0]), folder: place, link };
    }
  }
  return undefined;
}

/**
 * A file server of a folder (`python3 -m http.server`, `php -S`) hands out whatever its links lead
 * to, to anyone who can reach the port: the folder it serves (`-d`/`--directory`/`-t`, else the
 * one it runs in), if the command is one.
 */
export function servedFolder(c: SimpleCommand): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  const words = c.words;
  const valueOf = (options: readonly string[]): string | undefined => {
    for (let i = 1; i < words.length; i++) {
      const w = words[i];
      if (w === undefined) return '\0';
      const hit = options.find((o) => spellsOption(w, o));
      if (hit) return w.includes('=') ? w.slice(w.indexOf('=') + 1) : (words[i + 1] ?? '\0');
    }
    return undefined;
  };
  if (/^python[\d.]*$/.test(name) && words.some((w, i) => words[i - 1] === '-m' && (w === 'http.server' || w === 'SimpleHTTPServer'))) return valueOf(['-d', '--directory']) ?? '.';
  if (/^php[\d.]*$/.test(name) && words.some((w) => w === '-S' || (w?.startsWith('-S') ?? false))) return valueOf(['-t']) ?? '.';
  return undefined;
}

/** Compressors write beside their input a name made from it (`f.gz`, and `f` back from `f.gz`). */
const COMPRESSORS: ReadonlySet<string> = new Set(['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'lzma', 'unlzma', 'zstd', 'unzstd', 'lz4', 'unlz4', 'compress', 'uncompress', 'pigz', 'unpigz']);

/** A backup beside each file changed, named by a suffix (`sed -i.txt`, `cp -b -S .txt`): a name no word gives whole (pass 35 D2). */
export function backsUp(c: SimpleCommand): boolean {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  const words = c.words.slice(1);
  if (name === 'sed' || name === 'perl') return words.some((w) => w !== undefined && (/^-[A-Za-z]*i.+$/.test(w) || /^--in-place=./.test(w)));
  if (!['cp', 'mv', 'ln', 'install', 'rsync'].includes(name)) return false;
  return words.some((w) => w !== undefined && (/^-[A-Za-z]*[bS]/.test(w) || spellsOption(w, '--backup') || spellsOption(w, '--suffix')));
}

/** Copies of whole folders (`cp -r src/. .`, `rsync -a`): the names written are those inside the source. */
function copiesFolders(c: SimpleCommand): boolean {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (!['cp', 'rsync', 'ditto', 'scp'].includes(name)) return false;
  return c.words.some((w, i) => i > 0 && w !== undefined && (/^-[A-Za-z]*[rRa][A-Za-z]*$/.test(w) || spellsOption(w, '--recursive') || spellsOption(w, '--archive')));
}

/**
 * The folders where `c` may write names no word of it gives, with what to call the writer: a git
 * verb that rewrites the tree, a program writing names of its own (split's `xaa`, gzip's `.gz`,
 * gunzip's name less `.gz`), a copy of whole folders (into each folder a word names too).
 */
export function unnamedWrites(c: SimpleCommand, folders: readonly string[], known = false): Array<{ writer: string; folder: string }> {
  const name = c.words[0] === undefined ? 'the command' : commandBase(c.words[0]);
  const git = gitWritesTree(c);
  // `known`: only the programs known to (under Bash as a whole, where every program may run).
  const own = known ? writesOwnNames(name) || COMPRESSORS.has(name) : mayWriteOwnNames(c);
  const writer = git ?? (own || copiesFolders(c) || backsUp(c) ? name : undefined);
  if (writer === undefined) return [];
  const places = new Set(folders);
  if (copiesFolders(c)) {
    for (const f of folders) for (const w of c.words.slice(1)) if (w !== undefined && !w.startsWith('-') && isFolderSync(kernelJoin(f, w))) places.add(kernelJoin(f, w));
  }
  return [...places].map((folder) => ({ writer, folder }));
}