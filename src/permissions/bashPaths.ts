// Why this file is long: it is the one place where a Bash word becomes the files it names (tilde,
// globs and braces by bash, cd, the kernel's walk) and each check that judges those files (outside,
// protected, denied); split, the checks would each need their own copy of that expansion.
import { isAbsolute } from 'node:path';
import { historyRun, KEYWORD_SET, type BashAnalysis } from './bash/analyze';
import { commandBase, fromEnvironment, gitVerbIndex, OPENS_NO_FILES, runsScriptFile, type SimpleCommand } from './bash/commands';
import { placesMoved } from './bash/shellPlaces';
import { linkRace } from './bash/linkRace';
import { knowsWrites, pathArgs, type PathArg } from './bash/pathArgs';
import { writesNamedInside } from './bash/unpacks';
import { mayFollowLinks, unnamedWrites } from './bash/walkLinks';
import { prefixedNames, unspelledNames } from './bash/outputNames';
import { scriptDanger } from './bash/scriptTools';
import { configFinding, defaultNamesFinding, recursesHereFinding, servedFinding, walkFinding } from './linkFindings';
import type { PathFinding, PathScope } from './pathScope';
import { runsFedText } from './bash/optionModels';
import { namesFromFile } from './bash/options';
import { gitCredentialFiles, gitFolders, gitForeignRepository, gitReadsUserConfig, wholeTreeGit } from './bash/wholeTreeGit';
import { braceWords } from './bash/braces';
import { bashGlob, GLOB_CHARS, mayClimb, unescapePattern } from './bash/glob';
import { globBase } from '../tools/glob';
import { ALTERS_VALUES, appendsTo, folderChanges, innerRuns, repeatsCd, unshapedGlobs, valuesOf } from './bash/builtValues';
import { optionLikeMatch } from './bash/globOptions';
import { quotePattern, type Shape } from './bash/words';
import { isFolderSync } from '../fs/stat';
import { entryLocation, existingLocation, kernelJoin, lexicalJoin, realLocation, spelledLocation, upPastMissing, within as isWithin } from '../fs/paths';
import { embedded } from './bash/embedded';

// Where the files a Bash command names really are: a command an allow rule let through must name
// files inside the workspace (reads: also the added folders). The /proc check (bashProc.ts) uses
// the same expansion of globs, tildes and cd.

export type { PathFinding, PathScope } from './pathScope';

/** The command's own streams and the null device: no file of anyone's. */
const STREAMS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr']);
/** Programs that start what they are given detached from the command: it goes on after the next command is judged. */
const DETACHES: ReadonlySet<string> = new Set(['setsid', 'nohup', 'disown', 'daemonize', 'start-stop-daemon', 'at', 'batch', 'systemd-run', 'screen', 'tmux', 'dtach', 'abduco']);
/** Programs that, given a folder to write, write names inside it they take from elsewhere. */
const COPIES_INTO: ReadonlySet<string> = new Set(['cp', 'mv', 'ln', 'install', 'rsync', 'scp', 'tar', 'unzip', 'cpio', 'git']);

/** A pattern's leading `~` or `~/` as the home folder's name, which is no pattern; other `~` forms stay. */
export function homePattern(pattern: string, home: string): string {
  return pattern === '~' || pattern.startsWith('~/') ? `${quotePattern(home)}${pattern.slice(1)}` : pattern;
}

/** What bash makes of `~` and `~/x`; `~user`, `~+`, `~-` are not known here. */
export function tilde(text: string, home: string): string | undefined {
  if (text === '~') return home;
  // Joined as the kernel walks it: `~/ws/t/../x` leaves t's target, as `t/../x` does. Bash puts
  // the home before the rest as text, so `~//x` is the home's x, not `/x`.
  if (text.startsWith('~/')) return kernelJoin(home, text.slice(2).replace(/^\/+/, ''));
  return text.startsWith('~') ? undefined : text;
}

/**
 * The paths a glob pattern (see `Word.pattern`) stands for when the command runs in `cwd`, each
 * joined to `cwd` as the kernel walks it: bash's own expansion now, and the word as bash passes
 * it on when nothing matches; undefined when bash cannot say (too many, too slow).
 */
export function expandGlob(pattern: string, cwd: string): string[] | undefined {
  const matched = bashGlob(pattern, cwd);
  if (matched === undefined) return undefined;
  // The word itself always counts: what matches now may be gone when the glob is expanded (an
  // earlier `rm -r ex` leaves `[e]x/…` matching nothing, and bash then hands over the committed
  // link named `[e]x`), and with no match, or no glob left once its escapes are read, bash gives
  // the word back as it came.
  const literal = unescapePattern(pattern);
  const words = matched.includes(literal) ? matched : [...matched, literal];
  return words.map((w) => kernelJoin(cwd, w));
}

/**
 * The paths one word may stand for; undefined when the shell computes it from what the checks
 * cannot see. A glob is expanded in each folder the command may run in (`folders`), and its
 * matches come back absolute.
 */
function candidates(text: string | undefined, shape: Shape | undefined, scope: PathScope, mentions: ReadonlySet<string>, folders: readonly string[] | undefined): string[] | undefined {
  if (text === undefined && shape?.kind === 'glob') return globCandidates(shape.pattern, scope, folders);
  let spelled: string;
  if (text !== undefined) spelled = text;
  else if (shape?.kind === 'variable' && shape.before.startsWith('-')) {
    // An option with a value the shell fills in (`--from-file=$HOME/x`, `-o$HOME/x`): which
    // file it names is known only when it runs.
    return undefined;
  } else if (shape?.kind === 'variable' && fromEnvironment(shape.name, mentions)) {
    // Neither bash nor the script sets it: the environment's value, and empty when it has none.
    const value = scope.env[shape.name] ?? '';
    spelled = `${shape.before}${value}${shape.after}`;
    // Unquoted, bash would expand a glob in the value too.
    if (GLOB_CHARS.test(value)) return undefined;
  } else return undefined;
  const expanded = tilde(spelled, scope.home);
  return expanded === undefined ? undefined : [expanded];
}

/**
 * A variable's word by the values the script assigns it as written (`x=~/.bash; cp p ${x}rc`,
 * `for f in .e*; do cat $f`), globs expanded as bash would; undefined when a value is unknown.
 */
function assignedCandidates(shape: Shape | undefined, a: BashAnalysis, scope: PathScope, script: string, folders: readonly string[] | undefined): string[] | undefined {
  if (shape?.kind !== 'variable' || shape.before.startsWith('-')) return undefined;
  const values = valuesOf(shape.name, a, scope, script);
  if (values === undefined) return undefined;
  const out: string[] = [];
  for (const v of values) {
    const word = `${shape.before}${v}${shape.after}`;
    const each = GLOB_CHARS.test(word) ? globCandidates(word, scope, folders) : [tilde(word, scope.home) ?? word];
    if (each === undefined) return undefined;
    out.push(...each);
  }
  return out;
}

function globCandidates(pattern: string, scope: PathScope, folders: readonly string[] | undefined): string[] | undefined {
  const out: string[] = [];
  // Brace expansion comes first in bash, then the tilde, then globs.
  const words = braceWords(pattern);
  if (words === undefined) return undefined;
  for (const word of words) {
    const spelled = homePattern(word, scope.home);
    if (spelled.startsWith('~')) return undefined;
    if (!GLOB_CHARS.test(spelled)) {
      out.push(unescapePattern(spelled));
      continue;
    }
    if (!isAbsolute(spelled) && folders === undefined) return undefined;
    for (const folder of isAbsolute(spelled) ? [scope.cwd] : folders!) {
      const matched = expandGlob(spelled, folder);
      if (matched === undefined) return undefined;
      out.push(...matched);
    }
  }
  return out;
}

/**
 * Options by which a wrapper runs its command in another folder or root (`env -C`, `unshare -w`,
 * `nsenter --wd`, `sudo -D`, a login `su -`); chroot and tmux-like ones always do.
 */
const MOVES_FOLDER: ReadonlyMap<string, RegExp> = new Map([
  ['env', /^-[A-Za-z]*C|^--ch/],
  // find runs -execdir's command in each found file's folder (pass 71 M2); build tools and package
  // managers told a folder read their other words from there.
  ['find', /^-(execdir|okdir)$/],
  ...['make', 'gmake', 'ninja', 'go', 'cargo'].map((n): [string, RegExp] => [n, /^-[A-Za-z]*C|^--directory/]),
  ...['pnpm', 'poetry', 'uv', 'yarn', 'bun'].map((n): [string, RegExp] => [n, /^-C|^--(dir|directory|cwd)(=|$)/]),
  ['unshare', /^-[A-Za-z]*[wR]|^--(wd|root)/],
  ['nsenter', /^-[A-Za-z]*[wra]|^--(wd|root|all)/],
  ['sudo', /^-[A-Za-z]*[Di]|^--(ch|login)/],
  ['su', /^(-|-[A-Za-z]*l|--login)$/],
  ['runuser', /^(-|-[A-Za-z]*l|--login)$/],
  ['bwrap', /^--chdir/],
  ['proot', /^-[A-Za-z]*[wr]|^--(pwd|cwd|rootfs)/],
  ['parallel', /^--(wd|workdir)/],
  ['chpst', /^-\//],
  ['firejail', /^--private/],
  ['chroot', /./],
  ['tmux', /./],
  ['screen', /./],
  ['systemd-run', /./],
]);

function movesFolder(name: string, args: readonly (string | undefined)[]): boolean {
  const moves = MOVES_FOLDER.get(name);
  if (moves === undefined) return false;
  if (moves.source === '.') return name !== 'chroot' || !args.includes('--skip-chdir');
  // find's `{}` is a word the checks leave computed; its actions are words as written.
  return args.some((w) => (w === undefined ? name !== 'find' : moves.test(w)));
}

/** The folders a command may run in: the workspace, and where each literal `cd` goes; undefined once one goes somewhere unknown. */
export function workingFolders(commands: readonly SimpleCommand[], scope: Pick<PathScope, 'cwd' | 'home'> & { env?: NodeJS.ProcessEnv }): string[] | undefined {
  // A relative name not spelled from `.` is looked up in each folder of CDPATH first.
  const cdPath = scope.env?.CDPATH ? scope.env.CDPATH.split(':') : [];
  const folders = new Set([scope.cwd]);
  for (const c of commands) {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    // `env -C src cat ../../x` opens x from src (pass 68 M1): where such a wrapper runs its command is its own.
    if (name !== undefined && movesFolder(name, c.words.slice(1))) return undefined;
    // git's own -C before its verb: the paths after it are read from there (`git -C src diff --no-index ../../x`).
    if (name === 'git' && c.words.slice(1, gitVerbIndex(c.words)).some((w) => w === undefined || /^-C/.test(w))) return undefined;
    if (name !== 'cd' && name !== 'pushd' && name !== 'popd') continue;
    if (name === 'popd') return undefined;
    for (const arg of pathArgs(c)) {
      const to = arg.text === undefined ? undefined : tilde(arg.text, scope.home);
      if (to === undefined) return undefined;
      // bash's cd takes `..` as text (cd -L) unless told -P; the kernel's walk is kept beside it.
      const searched = !isAbsolute(to) && !/^\.\.?(\/|$)/.test(to);
      for (const f of [...folders]) {
        for (const base of searched ? ['', ...cdPath] : ['']) {
          const from = base === '' ? f : lexicalJoin(f, base);
          folders.add(lexicalJoin(from, to));
          folders.add(realLocation(kernelJoin(from, to)));
        }
      }
    }
  }
  return [...folders];
}

const leaves = (p: string) => p.startsWith('/') || p.startsWith('~') || p.split('/').includes('..');

/**
 * The first file named by `commands` (those a prefix or wildcard rule allowed) or read by `<`
 * that lies outside where it may go without asking; undefined when all are inside.
 */
export function outsideFinding(a: BashAnalysis, commands: readonly SimpleCommand[], scope: PathScope): PathFinding | undefined {
  // Allowed by Bash as a whole, or by rules that name their files exactly: nothing to check.
  if (commands.length === 0) return undefined;
  // `shopt -s cdable_vars; cd HOME` goes to $HOME, not ./HOME (pass 68 H2): where a script may have
  // moved `~` or `cd`, its names are judged as known only when it runs, as under deny rules.
  const placed = folderChanges(a).length > 0 || [...a.commands, ...a.runs].some((c) => c.words.some((w) => w === undefined || w.startsWith('~')));
  const moved = placed ? placesMoved(a) : undefined;
  if (moved) return { behavior: 'ask', reason: `The command ${moved}, so where the files it names lie is known only when it runs.` };
  const race = linkRace(a.commands, commands, a.readsFrom.length > 0);
  if (race) return { behavior: 'ask', reason: race };
  if (a.globOptions === KEYWORD_SET) return { behavior: 'ask', reason: 'The command runs set -k, which takes every word with an = out of the arguments of the commands after it: the files they name are not the ones written.' };
  if (a.globOptions) {
    const glob = [...commands.flatMap((c) => c.shapes ?? []), ...a.readsFrom.map((r) => r.shape)].find((s) => s?.kind === 'glob');
    if (glob?.kind === 'glob') return { behavior: 'ask', reason: `The command changes how bash expands globs (${a.globOptions}), so what ${glob.text} names is known only when it runs.` };
  }
  // An archive or patch writes the files named inside it, which no word of the command shows.
  const unpacks = commands.map(writesNamedInside).find((why) => why !== undefined);
  if (unpacks) return { behavior: 'ask', reason: `${unpacks}.`, write: true };
  // Names kept in a file (`xargs cat < list`, `tar -T`), or expanded by the program itself.
  const expands = commands.map(namesFromFile).find((why) => why !== undefined);
  if (expands) return { behavior: 'ask', reason: `${expands}.` };
  const unspelled = commands.map(unspelledNames).find((why) => why !== undefined);
  if (unspelled) return { behavior: 'ask', reason: `${unspelled}.`, write: true };
  const fed = runsFedText(a, commands);
  if (fed) return { behavior: 'ask', reason: `${fed}.` };
  const folders = workingFolders([...a.commands, ...a.runs], scope);
  const options = optionLikeMatch(commands, folders ?? [scope.cwd]);
  if (options) return { behavior: 'ask', reason: options };
  const served = servedFinding(commands, folders ?? [scope.cwd], scope);
  if (served) return served;
  const config = configFinding(commands, folders ?? [scope.cwd], scope) ?? recursesHereFinding(commands, folders ?? [scope.cwd], scope);
  if (config) return config;
  const defaults = defaultNamesFinding(commands, folders ?? [scope.cwd], scope);
  if (defaults) return defaults;
  const walkers = new Set<PathArg>();
  const args: PathArg[] = [
    ...commands.flatMap((c) => {
      const found = pathArgs(c);
      if (mayFollowLinks(c)) for (const arg of found) walkers.add(arg);
      return found;
    }),
    ...a.readsFrom.map((r) => ({ command: '<', write: false, text: r.text, shape: r.shape })),
  ];
  const realRoots = { read: scope.readRoots.map(realLocation), write: scope.writeRoots.map(realLocation) };
  for (const arg of args) {
    if (arg.follows) return { behavior: 'ask', reason: `${arg.command} ${arg.follows} follows symlinks while it walks a folder, wherever they lead, which may be outside the workspace.` };
    const spelled = arg.text ?? (arg.shape?.kind === 'glob' ? arg.shape.text : undefined);
    if (arg.onlyIfPathLike && !(spelled !== undefined ? leaves(spelled) : arg.shape?.kind === 'variable')) continue;
    const paths = candidates(arg.text, arg.shape, scope, a.mentions, folders);
    // Computed (`$PWD/..`, `~+/..`, `~user`): path-like or not, where it leads is known only when it runs.
    if (paths === undefined) return { behavior: 'ask', reason: `${arg.command} is given a file name computed when it runs, which may be outside the workspace.` };
    for (const p of paths) {
      if (arg.onlyIfPathLike && !leaves(p)) continue;
      if (!isAbsolute(p) && folders === undefined) return { behavior: 'ask', reason: `${arg.command} is given ${p} after a cd to a folder known only when it runs.` };
      // Joined, not resolved: the program opens `link/../x` through the link, so `..` is the kernel's to take.
      for (const abs of isAbsolute(p) ? [p] : folders!.map((f) => kernelJoin(f, p))) {
        // A stream, /proc or /dev by where the name lies, not by its text: `x/../../dev/stdin` may be a committed link (pass 39 C6).
        const entry = entryLocation(abs);
        if (STREAMS.has(entry)) continue;
        if (upPastMissing(abs)) return { behavior: 'ask', reason: `${arg.command} is given ${p}, whose \`..\` comes after a name that does not exist yet: where it leads depends on what is made there first.` };
        // /proc/self and /dev/fd resolve to this process here, not to the command's: judged as written.
        const real = /^\/(proc|dev)(\/|$)/.test(entry) ? entry : realLocation(abs);
        if (!(arg.write ? realRoots.write : realRoots.read).some((r) => isWithin(r, real))) {
          return { behavior: 'ask', reason: `${arg.command} ${arg.write ? 'writes' : 'reads'} ${real}, which is outside the workspace${arg.write ? '' : ' and the added folders'}.`, path: real, write: arg.write };
        }
        const dir = arg.write ? scope.protectedDir(abs, real) : undefined;
        if (dir) return { behavior: 'ask', reason: `${arg.command} writes ${real}, inside ${dir}; Threadline always asks before writing there.`, path: real, write: true };
        const denied = [real, entry, spelledLocation(abs), lexicalJoin('/', abs)].reduce<PathFinding | undefined>((found, p) => found ?? deniedFinding(arg.command, p, arg.write, scope), undefined);
        if (denied) return denied;
        // A folder a copy lands in: `cp x e` writes e/x, which a clone may have committed as a link out (pass 47 C2).
        const into = arg.write && COPIES_INTO.has(arg.command) && isFolderSync(real);
        const walked = walkers.has(arg) || into ? walkFinding(arg.command, real, (r) => (arg.write ? realRoots.write : realRoots.read).some((root) => isWithin(root, r))) : undefined;
        if (walked) return walked;
      }
    }
  }
  // Every git the script may run, behind a wrapper too (`timeout 5 git -C …`), and a wrapper that
  // moves it (`env -C dir git`, pass 48 F4): the runs hold the commands' own git as well.
  const gits = a.runs.filter((r) => r.words[0] === 'git');
  if (gits.length && a.runs.some((r) => r.words[0] === 'env' && r.words.some((w) => w === undefined || w === '-C' || /^--chdir/.test(w) || /^-[a-zA-Z]*C/.test(w)))) {
    return { behavior: 'ask', reason: 'git runs in a folder env moves it to: only the workspace\'s repositories have their settings read.' };
  }
  for (const g of gits) {
    const ran = gitFolders(g, folders ?? [scope.cwd]);
    const away = ran === undefined ? 'a folder known only when it runs' : ran.map((f) => realLocation(f)).find((f) => !isWithin(realLocation(scope.cwd), f));
    if (away) return { behavior: 'ask', reason: `git runs in ${away}, outside the workspace: only the workspace's repositories have their settings read, so git there could run what its config names.` };
  }
  for (const c of commands) {
    const tree = treeFinding(c, folders ?? [scope.cwd], scope, false);
    if (tree) return tree;
  }
  return commands.map((c) => wordFinding(c, folders ?? [scope.cwd], scope, a.mentions)).find((f) => f !== undefined);
}



/**
 * What a command reads or writes of the folders it runs in without a word naming it: git over the
 * whole tree, and programs writing names of their own (unnamedWrites; `known`: only the programs
 * known to, under `Bash` as a whole). The same judgement under a rule naming the program and under
 * `Bash` with file deny rules.
 */
function treeFinding(c: SimpleCommand, folders: readonly string[], scope: PathScope, known: boolean): PathFinding | undefined {
  const userConfig = gitReadsUserConfig(c) ?? gitForeignRepository(c);
  if (userConfig) return { behavior: 'ask', reason: `${userConfig}.` };
  const tree = wholeTreeGit(c);
  for (const folder of tree ? folders : []) {
    const denied = deniedFinding(tree!, realLocation(folder), false, scope);
    if (denied) return denied;
  }
  for (const { writer, folder } of unnamedWrites(c, folders, known)) {
    const denied = deniedTreeWrite(writer, realLocation(folder), scope);
    if (denied) return denied;
  }
  return undefined;
}

/** find's actions that change or hand on the files it finds. */
const FIND_CHANGES = /^-(delete|exec|execdir|ok|okdir)$/;

/**
 * The folders a find whose actions change what it finds starts in, as pathArgs reads them ('.'
 * when none is named, undefined text where computed); undefined when it changes nothing.
 */
function findChanges(c: SimpleCommand): (string | undefined)[] | undefined {
  if (c.words[0] === undefined || commandBase(c.words[0]) !== 'find') return undefined;
  if (!c.words.some((w) => w === undefined || FIND_CHANGES.test(w))) return undefined;
  return pathArgs(c).filter((a) => !a.write).map((a) => a.text);
}

/**
 * A file the user's deny rules keep the file tools off is kept from an allowed command too: by
 * name, and inside a folder the command is given (`grep -r x ~` reads ~/.ssh).
 */
/** A git verb that rewrites files of the work tree no word names, in a folder holding files an Edit or Write deny rule covers. */
function deniedTreeWrite(command: string, real: string, scope: PathScope): PathFinding | undefined {
  const rule = scope.deniedInside?.(real, true);
  return rule ? { behavior: 'ask', reason: `${command} may write files of ${real} no word names, which holds files the rule ${rule} denies writing.`, path: real, write: true } : undefined;
}

/**
 * A deny rule by the path as the command spells it (`~/.aws/credentials`) or where it really is:
 * with `~/.aws` a link out of the home folder, a rule under `~` names only the spelling, which the
 * Read tool judges too (pass 37 B2). Reads, and writes when `write`.
 */
function deniedSpelledOrReal(command: string, abs: string, real: string, write: boolean, scope: PathScope): PathFinding | undefined {
  // Where it really is, the name where it lies, and the text folded (more names can only deny more).
  for (const p of new Set([real, entryLocation(abs), spelledLocation(abs), lexicalJoin('/', abs)])) {
    const denied = deniedFinding(command, p, false, scope) ?? (write ? deniedFinding(command, p, true, scope) : undefined);
    if (denied) return denied;
  }
  return undefined;
}

function deniedFinding(command: string, real: string, write: boolean, scope: PathScope): PathFinding | undefined {
  const rule = scope.deniedBy?.(real, write);
  if (rule) return { behavior: 'deny', reason: `${command} ${write ? 'writes' : 'reads'} ${real}, which the rule ${rule} denies.`, path: real, write };
  const asked = scope.askedBy?.(real, write);
  if (asked) return { behavior: 'ask', reason: `${command} ${write ? 'writes' : 'reads'} ${real}, which the rule ${asked} asks about first.`, path: real, write };
  const inside = isFolderSync(real) ? scope.deniedInside?.(real, write) : undefined;
  if (inside) return { behavior: 'ask', reason: `${command} is given the folder ${real}, which holds files the rule ${inside} denies.`, path: real, write };
  return undefined;
}

/** A folder given to a program that may follow links while it walks it, holding a link that leads out. */

/**
 * Any word of a rule-allowed command may be a file to the program (`date -f x`, `xargs -a x`,
 * `dd if=x`, `curl file://x`), whatever pathArgs knows of it: one that names a place outside the
 * workspace asks. By where it really is, and by its nearest existing part, so that whether a
 * file exists out there is not told by which words are allowed. Text whose nearest existing part
 * is the root (`/api/v1`, an awk `/regex/`) is not taken as a file; the root itself is. For a program whose writes are
 * not known, a word inside a protected folder (.git/…) asks as a write.
 */
function wordFinding(c: SimpleCommand, folders: readonly string[], scope: PathScope, mentions: ReadonlySet<string>): PathFinding | undefined {
  const name = c.words[0] === undefined ? 'the command' : commandBase(c.words[0]);
  const unknownWrites = !knowsWrites(name);
  const roots = scope.readRoots.map(realLocation);
  const writeRoots = scope.writeRoots.map(realLocation);
  // A grep pattern or a sed script (`grep -rn /usr src`) is no file.
  const notFiles = new Set<number>();
  pathArgs(c, notFiles);
  for (let i = 1; i < c.words.length; i++) {
    if (notFiles.has(i)) continue;
    const w = c.words[i];
    const shape = c.shapes?.[i];
    // A glued value the shell fills in (`date --file=$HOME/x`): the file is known only when it runs.
    if (w === undefined && shape?.kind === 'variable' && shape.before.startsWith('-')) return { behavior: 'ask', reason: `${name} is given the option ${shape.before}… with a value computed when it runs, which may name a file outside the workspace.` };
    const computed = w === undefined ? candidates(undefined, shape, scope, mentions, folders) : undefined;
    // A word known only when it runs (`$PWD/..`, `$OLDPWD`): it may be a file anywhere.
    if (w === undefined && computed === undefined) return { behavior: 'ask', reason: `${name} is given a word computed when it runs, which may name a file outside the workspace.` };
    const texts = w !== undefined ? embedded(w) : computed!.flatMap(embedded);
    for (const text of texts) {
      const spelled = tilde(text, scope.home);
      // `~+`, `~-`, `~user`: a folder bash looks up when it runs.
      if (spelled === undefined) return { behavior: 'ask', reason: `${name} is given ${text}, a folder bash looks up when it runs, which may be outside the workspace.` };
      for (const abs of isAbsolute(spelled) ? [spelled] : folders.map((f) => kernelJoin(f, spelled))) {
        const plain = entryLocation(abs);
        if (STREAMS.has(plain)) continue;
        const special = /^\/(proc|dev)(\/|$)/.test(plain);
        // `/missing/../x`: a program that makes the folder first (`install -D`, `curl --create-dirs`),
        // or reads the name as text (curl's URLs), reaches x, wherever that is.
        if (!special && upPastMissing(abs)) return { behavior: 'ask', reason: `${name} is given ${text}, whose \`..\` comes after a name that does not exist yet: where it leads depends on what is made there first.`, write: false };
        const real = special ? plain : realLocation(abs);
        if (!roots.some((r) => isWithin(r, real))) {
          // The root itself is a folder, not text under it: `tar -C / …`, `patch -d /`, `unzip -d /`
          // put the other words there. Glued to an option of a program whose files are known
          // (`cut -d/`), it is that option's value.
          if (!special && existingLocation(abs) === '/' && (real !== '/' || (text !== w && !unknownWrites))) continue;
          return { behavior: 'ask', reason: `${name} is given ${real}, which is outside the workspace and the added folders.`, path: real, write: false };
        }
        // A value glued to its option (`-o.git/config`, `--target-directory=.git`) may be where it writes.
        const dir = unknownWrites || text !== w ? scope.protectedDir(abs, real) : undefined;
        if (dir) return { behavior: 'ask', reason: `${name} is given ${real}, inside ${dir}, and may write there; Threadline always asks before writing there.`, path: real, write: true };
        if (!special && existingLocation(abs) === real) {
          // A program whose writes are not known may write any word it is given (`dd of=f`, `install a f`).
          const denied = deniedSpelledOrReal(name, abs, real, unknownWrites || text !== w, scope);
          if (denied) return denied;
          // A folder glued to a copy's option (`cp --target-directory=e x`, `cp -te x`) is where
          // it lands, as the same folder in a word of its own is (pass 50 C1).
          const into = text !== w && COPIES_INTO.has(name) && isFolderSync(real);
          const walked = mayFollowLinks(c) || into ? walkFinding(name, real, (r) => (into ? writeRoots : roots).some((root) => isWithin(root, r))) : undefined;
          if (walked) return walked;
        }
      }
    }
  }
  return undefined;
}

/**
 * The user's file deny rules for a command that `Bash` as a whole or an exact rule allows: no
 * file is judged for being outside, but a file a `Read` deny rule covers (an `Edit`/`Write` one,
 * for a write) is denied to every word that names it, as far as the words can be read
 * (`cat ~/.ssh/id_rsa` under `Bash`). A word computed when it runs is not judged here.
 */
export function deniedFilesFinding(a: BashAnalysis, scope: PathScope, script = ''): PathFinding | undefined {
  if (!scope.deniedBy) return undefined;
  const ask = (why: string): PathFinding => ({ behavior: 'ask', reason: `The command ${why}, so the files it reads are known only when it runs, and your deny rules name files they could be.` });
  // Values are judged as written: one appended to (`s=~/.ss; s+=h`) or reached by name (`${!p}`) is not (pass 77 M1).
  if (appendsTo(script) || ALTERS_VALUES.test(script)) return ask('builds a value by appending to it or by indirection');
  if (repeatsCd(a, script)) return ask('repeats a cd in a loop, a function, a sourced file or an inner shell');
  // Stored credentials are read wherever git runs (`git -C . credential fill`): judged before where it runs.
  const stored = a.commands.flatMap((c) => gitCredentialFiles(c, scope.home)).map((f) => deniedFinding('git credential', f, false, scope) ?? deniedFinding('git credential', f, true, scope));
  if (stored.some(Boolean)) return stored.find(Boolean);
  const known = workingFolders([...a.commands, ...a.runs], scope);
  // `cd -` goes to the OLDPWD bash inherited, `cd $X` anywhere: relative names are then anyone's.
  if (known === undefined) return ask('changes to a folder known only when it runs (`cd -`, `cd $X`, `popd`, `env -C`)');
  // Under Bash as a whole too: a part that makes a link, and a later part that reads through it
  // (`ln -s ~/.ssh q/k; cat q/k/id_rsa`), is judged before the link exists (pass 43 D1).
  const race = linkRace(a.commands, a.commands, a.readsFrom.length > 0);
  if (race) return { behavior: 'ask', reason: race };
  // A job left running changes links after the next command is judged (pass 46 F4).
  // So does one a program starts detached, or a shell given a script with `&` in it (pass 49 G2).
  const detached = a.runs.find((r) => r.words[0] !== undefined && DETACHES.has(r.words[0]));
  const innerJob = a.runs.some((r) => r.words[0] !== undefined && /^(ba|da|z|k|mk)?sh$/.test(r.words[0]) && r.words.some((w) => w === undefined || /(^|[^&>|])&($|[^&>])/.test(w)));
  if (a.hazards.some((h) => h.startsWith('a background job')) || detached || innerJob) return ask(`leaves a job running in the background${detached ? ` (${detached.words[0]})` : ''}, which may move or make links after later commands are judged`);
  const folders = known;
  // A folder walked by a program that may follow links: a link in it leading to a denied file or
  // a folder holding one counts as that file (`diff -r sub empty` with `sub/s -> ~/.ssh`).
  const deniedTarget = (real: string) => scope.deniedBy?.(real, false) !== undefined || (isFolderSync(real) && scope.deniedInside?.(real) !== undefined);
  const judge = (command: string, text: string, write: boolean, walks: boolean): PathFinding | undefined => {
    const spelled = tilde(text, scope.home);
    // `~-`, `~+`, `~user`: folders bash looks up when it runs (an inherited OLDPWD may be the home).
    if (spelled === undefined) return ask(`gives ${command} ${text}, a folder bash looks up when it runs`);
    for (const abs of isAbsolute(spelled) ? [spelled] : folders.map((f) => kernelJoin(f, spelled))) {
      const plain = entryLocation(abs);
      if (STREAMS.has(plain) || /^\/(proc|dev)(\/|$)/.test(plain)) continue;
      const real = realLocation(abs);
      const denied = deniedSpelledOrReal(command, abs, real, write, scope);
      if (denied) return denied;
      const walked = walks ? walkFinding(command, real, (r) => !deniedTarget(r)) : undefined;
      if (walked && !walked.reason.includes('too big')) return walked;
    }
    return undefined;
  };
  const moved = placesMoved(a);
  if (moved) return ask(moved);
  // `set -o history -H; : ~/.ssh/id_rsa` then `cat !$`: a word no check read becomes a file (pass 71 M1).
  const history = [...a.commands, ...a.runs].map((c) => historyRun(c.words)).find((h) => h !== undefined);
  if (history) return ask(`runs ${history}, by which bash builds words from text no check read`);
  const options = optionLikeMatch([...a.commands, ...a.runs], folders);
  if (options) return { behavior: 'ask', reason: `${options} Your deny rules name files such an option could reach.` };
  // A list of names kept in a file (`tar -T`, `zstd --filelist`, `curl -K`) names files no word shows.
  for (const c of [...a.commands, ...a.runs]) {
    const list = namesFromFile(c) ?? unspelledNames(c) ?? prefixedNames(c);
    if (list) return { behavior: 'ask', reason: `${list}, and your deny rules name files it could be one of.` };
    // So does a sed or awk script that reads or writes files itself (`sed -n 'w f'`, `getline < f`, pass 53 H1).
    const script = c.words[0] === undefined ? undefined : scriptDanger(commandBase(c.words[0]), c, 1);
    if (script) return { behavior: 'ask', reason: `In this command, ${script.replace(/, which a rule naming \S+ does not cover$/, '')}, and your deny rules name files it could be.` };
  }
  // The files each program is known to take (its path arguments), not every word: under Bash as
  // a whole, `echo rm` names no file. A program whose files are not known (tar, zip, dd, env -C)
  // may take any word as one.
  const walkers = new Set<PathArg>();
  // An inner script's words computed only as globs (`bash -c 'cat src/*.txt'`): the glob check below judges them.
  const globsOnly = new Set<PathArg>();
  // The script's own commands with their shapes; runs repeats them without (an inner script's stay).
  const args = [...a.commands, ...innerRuns(a)].flatMap((c): PathArg[] => {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    const found = name === undefined || knowsWrites(name) || OPENS_NO_FILES.has(name) ? pathArgs(c) : c.words.slice(1).map((text, i) => ({ command: name, write: true, text, shape: c.shapes?.[i + 1] }));
    // A program told to follow links (`grep -R`, `find -L`, `cp -rL`) is judged as one that may.
    for (const arg of found) if (('follows' in arg && arg.follows) || mayFollowLinks(c)) walkers.add(arg);
    if (unshapedGlobs(c)) for (const arg of found) globsOnly.add(arg);
    return found;
  });
  // A glob bash does not expand as the checks do: in an inner script (`bash -c 'cat ~/.ss*/id_rsa'`,
  // `sh -c`, whose words reach here without shapes) or after the command changes glob options
  // (`bash -O dotglob -c …`, pass 71 M4). The folder it starts from is judged as given whole.
  const unexpanded = [...a.runs.filter((r) => r.words.some((w, i) => w === undefined && r.shapes?.[i] === undefined)).map((r) => r.text), ...(a.globOptions ? [...a.commands, ...a.runs].map((c) => c.text) : [])];
  for (const piece of new Set(unexpanded.flatMap((t) => t.split(/[\s;&|<>'"`()=]+/)))) {
    if (!GLOB_CHARS.test(piece)) continue;
    // dash, and bash without globskipdots, match `..` by `.*`: that word is also read going up.
    const up = piece.split('/').map((seg) => (mayClimb(seg) ? '..' : seg)).join('/');
    for (const variant of new Set([piece, up])) {
      const base = GLOB_CHARS.test(variant) ? globBase(variant).base || (variant.startsWith('/') ? '/' : '.') : variant;
      const found = judge('a glob', base, false, false);
      if (found) return ask(`has a glob, ${piece.slice(0, 80)}, that bash expands in a way the checks do not follow, under ${base}, which holds files your rules deny`);
    }
  }
  for (const arg of args) {
    const expanded = arg.text !== undefined ? [arg.text] : (candidates(undefined, arg.shape, scope, a.mentions, folders) ?? assignedCandidates(arg.shape, a, scope, script, folders));
    // Known text the checks cannot name (bytes that are not UTF-8), or a glob too wide to expand:
    // not computed when it runs, so not left unjudged.
    if (expanded === undefined && arg.shape?.kind === 'glob') return ask(`gives ${arg.command} ${arg.shape.text}, a glob the checks cannot expand`);
    if (expanded === undefined && arg.shape?.kind === 'computed' && arg.shape.ansiC) return ask(`gives ${arg.command} a $'…' word whose bytes the checks cannot name`);
    // Any other file name computed when it runs (`$(ls | grep env)`, `"$@"`, a value glued to text
    // the script assigns by read or $(…)) may be a denied one: deny-by-default (pass 83 M1).
    if (expanded === undefined && !globsOnly.has(arg)) return ask(`gives ${arg.command} a file name computed when it runs${arg.shape?.kind === 'variable' ? ` ($${arg.shape.name})` : ''}`);
    for (const text of (expanded ?? []).flatMap(embedded)) {
      const found = judge(arg.command, text, arg.write, walkers.has(arg));
      if (found) return found;
    }
  }
  for (const c of [...a.commands, ...a.runs]) {
    // git prints files no word names (`git diff`, `git status -v`): a folder holding denied files
    // asks under `Bash` too, as it does under a rule naming git (pass 64 C1).
    const tree = treeFinding(c, folders, scope, true);
    if (tree) return tree;
    // An archive or patch writes the names inside it, anywhere (`../`, absolute with -P); find's
    // actions change the files it finds (`-delete`, `-exec truncate {}`): no word names them (pass 53 M2).
    const unpacks = writesNamedInside(c);
    const rule = unpacks ? scope.deniedInside?.('/', true) : undefined;
    if (unpacks && rule) return { behavior: 'ask', reason: `${unpacks}, and the rule ${rule} denies writing files it could be.`, write: true };
    for (const start of findChanges(c) ?? []) {
      // As bash gives it: `~` is the home folder (pass 56 M1: `find ~ … -exec cp x {} \;`).
      const spelled = start === undefined ? undefined : tilde(start, scope.home);
      if (spelled === undefined) return ask('runs find, which changes what it finds, from a folder known only when it runs');
      for (const f of isAbsolute(spelled) ? [spelled] : folders.map((d) => kernelJoin(d, spelled))) {
        const denied = deniedTreeWrite('find', realLocation(f), scope);
        if (denied) return denied;
      }
    }
  }
  for (const r of a.readsFrom) {
    for (const text of r.text !== undefined ? [r.text] : (candidates(undefined, r.shape, scope, a.mentions, folders) ?? [])) {
      const found = judge('<', text, false, false);
      if (found) return found;
    }
  }
  // A script written and run in one command (`echo 'cat ~/.ssh/id_rsa' > s.sh; bash s.sh`, pass 62
  // M2): bash reads its text with every expansion (`~/.ss""h`, `~/.s*`, `cd; cat .ssh/id_rsa`,
  // pass 65 M1), so the files it opens are known only when it runs.
  if ([...a.commands, ...a.runs].some(runsScriptFile) && a.opaque.some((o) => o.words[0]?.endsWith('(writing a file)'))) {
    return ask('runs a script it writes itself');
  }
  // A value assigned as written may be a file a program opens (`HISTFILE=~/.ssh/id_rsa history -r`,
  // `BASH_ENV=… bash -c :`, pass 53 L2); each part of a list (`A:B`) too. A value computed when it
  // runs is not judged here (the README says so).
  for (const { name, value } of a.assigned) {
    for (const text of new Set([value, ...value.split(':')].flatMap(embedded))) {
      if (!text) continue;
      const found = judge(`${name}=`, text, true, false);
      if (found) return found;
    }
  }
  // A redirection writes its file as a program's write argument does (`echo x >> ~/.bashrc` past
  // `Edit(~/.bashrc)`, pass 53 H1); a script inside the command included.
  for (const w of a.writesTo) {
    const texts = w.text !== undefined ? [w.text] : candidates(undefined, w.shape, scope, a.mentions, folders);
    if (texts === undefined) return ask('writes to a file named only when it runs');
    for (const text of texts) {
      const found = judge('>', text, true, false);
      if (found) return found;
    }
  }
  return undefined;
}
