import { isAbsolute } from 'node:path';
import type { BashAnalysis } from './bash/analyze';
import { commandBase, OPENS_NO_FILES } from './bash/commands';
import { pathArgs } from './bash/pathArgs';
import { braceWords } from './bash/braces';
import { GLOB_CHARS, unescapePattern } from './bash/glob';
import type { Shape } from './bash/words';
import { expandGlob, homePattern, tilde, workingFolders, type PathFinding, type PathScope } from './bashPaths';
import { isOwnProcessPath, ownProcessEntries, ownProcessRefusal, ownProcessTree } from '../fs/ownProcess';
import { builtNames, cdsUnknown, computedFolder, delegatedRun, globReaches } from './procReach';
import { flattenExpansions, folderChanges, innerRuns, repeatsCd, valuesOf } from './bash/builtValues';
import { placesMoved } from './bash/shellPlaces';
import { kernelJoin, lexicalJoin, procLocation } from '../fs/paths';

// No Bash command, whatever rule allowed it (Bash as a whole included), reaches the /proc entries
// of the agent or a process above it: their environ holds the API key. The ways there are many (a
// thread id, which has a /proc directory of its own; a loop or find over /proc; a cd into it; a
// glob such as /pro?; /proc/self/root, which leads back to /proc; a link; a here-string handed to
// xargs), so the check is deny-by-default: a command naming one of the agent's entries is denied,
// and any other command that refers to /proc at all (spelled, globbed, reached through a link or a
// cd, or an environ file) asks, and is refused in a headless run.

/** Debuggers and tracers: attached to the agent (same user), they read its memory, the key in it. */
const ATTACHERS: ReadonlySet<string> = new Set(['gdb', 'gcore', 'lldb', 'strace', 'ltrace', 'perf', 'py-spy', 'rr', 'pstack', 'eu-stack', 'jcmd', 'jattach', 'jmap', 'jstack', 'jinfo', 'jhsdb', 'jdb', 'jconsole', 'dotnet-dump', 'dotnet-trace']);

/** How a script spells /proc as a folder, a path inside a `proc` folder, or an environ file. */
const MENTIONS_PROC = /\/proc(?![\w.-])|(?:^|[^\w.-])proc\/|environ/i;

/** $PPID is the agent's pid (or its shell's), which `ps e` and /proc both turn into its environment. */
const NAMES_PARENT = /\bPPID\b/;

/** Where a word is split into the paths it may hold (`--file=/proc/1/environ`, `a:b`). */
const PIECES = /[\s=:,;'"`()<>|&]+/;

/** `/proc/<pid>/root` is the root folder again (same mount namespace): read past it. */
const STREAMS = /^\/dev\/(stdin|stdout|stderr|fd(\/\d+)?)$/;

function reentered(abs: string): string {
  let p = lexicalJoin('/', abs);
  for (let m = /^\/proc\/[^/]+\/root(?:\/|$)/.exec(p); m; m = /^\/proc\/[^/]+\/root(?:\/|$)/.exec(p)) p = lexicalJoin('/', p.slice(m[0].length));
  return p;
}

const inProc = (abs: string) => /^\/proc(\/|$)/.test(abs);
/** Where a link leads into /proc, other than the opening process's own entries (`/etc/mtab -> /proc/self/mounts`). */
const linkedInProc = (real: string) => inProc(real) && !/^\/proc\/(self|thread-self)(\/|$)/.test(real);


interface Word {
  text: string | undefined;
  shape?: Shape | undefined;
}

/** Every literal word and computed-word shape of the script, here-docs and here-strings included. */
function everyWord(a: BashAnalysis): Word[] {
  const words: Word[] = [];
  for (const c of [...a.commands, ...a.runs, ...a.opaque]) c.words.forEach((w, i) => words.push({ text: w, shape: c.shapes?.[i] }));
  for (const o of a.opaque) for (const input of o.inputs) if (input !== undefined) words.push({ text: input });
  words.push(...a.readsFrom);
  return words;
}

/** Where the text is cut into the pieces a shell could make words of (quotes, operators, `=`). */
const TEXT_PIECES = /[\s;&|()<>'"`=]+/;
/** A parameter expansion, which may hold anything, including a glob bash then expands. */
const EXPANSION = /\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]/g;
/** Pieces looked at per command; past this the command asks. */
const MAX_PIECES = 64;

/**
 * Globs the words above do not show: kept in a variable (`X=/[p]roc/*\/[e]nviron; cat $X`), a
 * `for` list, an array, a function's argument, or built around an expansion (`/${X}oc/…`). Every
 * piece of the text with a glob or an expansion and a `/` is expanded by bash (an expansion as
 * `*`) in each folder the command may run in; one that reaches /proc makes the command ask.
 */
function reachesThroughText(a: BashAnalysis, script: string, scope: Pick<PathScope, 'cwd' | 'home'>, folders: readonly string[], note: (why: string) => void, folderUnknown: boolean, ownEntries: () => string[]): PathFinding | undefined {
  // Cut again keeping parentheses, so that an extglob group (`/@(p)roc/…`) stays one word.
  const text = flattenExpansions(script);
  const all = [...new Set([...text.split(TEXT_PIECES), ...text.split(/[\s;&|<>'"`=]+/).filter((t) => /[?*+@!]\(/.test(t))])];
  // Where a cd went is known only when it runs: any relative glob there may be in /proc.
  const relativeGlob = folderUnknown ? all.find((t) => GLOB_CHARS.test(t) && !t.startsWith('/') && !t.startsWith('~')) : undefined;
  if (relativeGlob) return void note(`has a glob, ${relativeGlob.slice(0, 80)}, in a folder a cd chooses when it runs`);
  const pieces = all.filter((t) => t.includes('/') && (GLOB_CHARS.test(t) || t.includes('$') || /^~[^/]/.test(t)));
  if (pieces.length > MAX_PIECES) return void note(`has more globs and expansions than the checks look through (${pieces.length})`);
  for (const piece of pieces) {
    // `~user/..`, `~+/..`: a folder bash looks up.
    if (/^~[^/]/.test(piece)) {
      if (GLOB_CHARS.test(piece) || piece.includes('..') || piece.includes('$')) return void note(`has a word, ${piece.slice(0, 80)}, under a folder bash looks up when it runs`);
      continue;
    }
    // A piece that starts with an expansion may start anywhere, / included (`${s}c/$p/${e}on`, pass 74 H1).
    const lead = /^["']?(\$([A-Za-z_]\w*)|\$\{([A-Za-z_]\w*)\}|\$|`)/.exec(piece);
    if (lead && lead[2] === undefined && lead[3] !== undefined) lead[2] = lead[3];
    if (lead && !(lead[2] !== undefined && valuesOf(lead[2], a, scope, script) !== undefined)) return void note(`has a word, ${piece.slice(0, 80)}, that starts with a value computed when it runs, which may lead to /proc`);
    if (lead?.[2] !== undefined) {
      for (const v of valuesOf(lead[2], a, scope, script)!) {
        const whole = reentered(lexicalJoin(scope.cwd, (tilde(v, scope.home) ?? v) + piece.replace(/^["']?\$\{?[A-Za-z_]\w*\}?/, '').replace(EXPANSION, '*')));
        if (globReaches(whole, '/proc')) return void note(`has a word, ${piece.slice(0, 80)}, that may lead to /proc`);
      }
    }
    const pattern = piece.replace(EXPANSION, '*');
    const spelled = homePattern(pattern, scope.home);
    for (const folder of isAbsolute(spelled) ? [scope.cwd] : folders) {
      // By the pattern, in any case and with `..` (an inner shell's own glob options; its words have no shapes here).
      const whole = reentered(lexicalJoin(folder, unescapePattern(spelled)));
      const hit = GLOB_CHARS.test(spelled) ? ownEntries().find((e) => globReaches(whole, e)) : undefined;
      if (hit) return own(`${piece.slice(0, 80)} (which may match ${hit})`);
      if (GLOB_CHARS.test(spelled) && globReaches(whole, '/proc')) return void note(`has a word, ${piece.slice(0, 80)}, that may match /proc`);
      const matched = expandGlob(spelled, folder);
      if (matched === undefined) {
        if (isAbsolute(spelled)) return void note(`has a word, ${piece.slice(0, 80)}, too wide to look through, which may reach /proc`);
        continue;
      }
      if (matched.some((m) => inProc(reentered(m)) || reentered(m) === '/' || linkedInProc(reentered(procLocation(m))))) return void note(`has a word, ${piece.slice(0, 80)}, that bash may expand into /proc`);
    }
  }
  return undefined;
}

/** The root spelled as a variable's value or a `for` item (`x=/; find $x`), where no word shows it. */
const ROOT_KEPT = /(?:^|[\s;&|(])(?:[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=|for\s+\w+\s+in\s+(?:[^;\n]*\s)?)(['"]?)\/[/.]*\1(?=[\s;&|)]|$)/;

/**
 * The root holds /proc: a walk from it (`find / -name environ`, `grep -r x /`, `cd / && find .`)
 * reaches the agent's entries. A word a program may take as a file (not a pattern or an option's
 * value, such as `sort -t /`) that leads to the root asks, in any folder the command may run in.
 */
function rootWalks(a: BashAnalysis, script: string, scope: Pick<PathScope, 'cwd' | 'home'>, folders: readonly string[], where: (path: string) => string, note: (why: string) => void): void {
  if (ROOT_KEPT.test(script)) return note('keeps the root folder, which holds /proc, in a variable or a loop');
  for (const c of [...a.commands, ...a.runs]) {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    if (name === undefined || OPENS_NO_FILES.has(name)) continue;
    const notFiles = new Set<number>();
    pathArgs(c, notFiles);
    for (let i = 1; i < c.words.length; i++) {
      const w = c.words[i];
      if (w === undefined || notFiles.has(i)) continue;
      for (const piece of w.split(PIECES)) {
        const spelled = piece && tilde(piece, scope.home);
        if (!spelled) continue;
        for (const folder of isAbsolute(spelled) ? [scope.cwd] : folders) {
          if (where(kernelJoin(folder, spelled)) === '/') return note(`gives ${name} ${piece.slice(0, 80)}, the root folder, which holds /proc`);
        }
      }
    }
  }
}

const own = (path: string): PathFinding => ({ behavior: 'deny', reason: ownProcessRefusal(path), path });

/**
 * The agent's own /proc entries, or /proc at all, in a Bash command: deny for the first, ask for
 * the second; undefined when the command does not refer to /proc.
 */
export function ownProcessFinding(a: BashAnalysis, script: string, scope: Pick<PathScope, 'cwd' | 'home'> & { env?: NodeJS.ProcessEnv }): PathFinding | undefined {
  const tree = ownProcessTree();
  // Inner shells' cds too (`bash -c 'cd /tmp; cd ..; cd proc'`, pass 83 H3), as the file checks count them.
  const known = workingFolders([...a.commands, ...innerRuns(a)], scope);
  const folders = known ?? [scope.cwd];
  let reaches: string | undefined;
  const note = (why: string) => (reaches ??= why);
  if (MENTIONS_PROC.test(script)) note('names /proc or an environ file');
  // A path built from a command's output (`/$(echo proc)/1/status`, pass 74 H1) is known only when it runs.
  else if (/\/\$\(|\/`|\$\([^()]*\)\/|`[^`]*`\//.test(script)) note('builds a path from the output of a command, known only when it runs');
  // The words below are the grammar's; where bash may read the text otherwise, they prove nothing.
  else if (a.misread.length > 0) note(`is read differently by bash and by the checks (${a.misread[0]})`);
  else if (NAMES_PARENT.test(script)) note("names $PPID, the agent's process");
  let entries: string[] | undefined;
  // A debugger reads the memory of the process it attaches to; `ps e` prints every listed process's environment (it reads /proc/<pid>/environ itself).
  for (const c of [...a.commands, ...a.runs]) {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    if (name && ATTACHERS.has(name)) note(`runs ${name}, which can attach to the agent's process and read its memory`);
    const delegated = delegatedRun(a);
    if (delegated) note(delegated);
    if (name !== 'ps') continue;
    if (c.words.slice(1).some((w) => w === undefined || /^[A-Za-z]*e[A-Za-z]*$/.test(w))) note('runs ps with the e option, which prints the environments of processes');
  }
  // The same word is walked by rootWalks and by the loop below: the kernel walk is done once.
  const located = new Map<string, string>();
  const where = (path: string): string => {
    let real = located.get(path);
    if (real === undefined) located.set(path, (real = procLocation(path)));
    return real;
  };
  rootWalks(a, script, scope, folders, where, note);
  // A value the script keeps (`r=/tmp/..`, `s=/pro`) that is the root or in /proc, by where the kernel's walk puts it (pass 74 H2).
  const judgeSpelled = (text: string) => {
    const spelled = tilde(text, scope.home) ?? text;
    const pattern = GLOB_CHARS.test(spelled) ? spelled : undefined;
    for (const folder of isAbsolute(spelled) ? [scope.cwd] : folders) {
      const abs = reentered(lexicalJoin(folder, spelled));
      if (abs === '/') note(`keeps ${text.slice(0, 80)}, the root folder, which holds /proc`);
      else if (pattern ? globReaches(abs, '/proc') : inProc(abs) || inProc(reentered(where(kernelJoin(folder, spelled))))) note(`keeps ${text.slice(0, 80)}, which may lead into /proc`);
      else if (!pattern && where(kernelJoin(folder, spelled)) === '/') note(`keeps ${text.slice(0, 80)}, the root folder, which holds /proc`);
    }
  };
  for (const { value } of a.assigned) if (value.startsWith('/') || value.startsWith('~') || value.includes('..')) judgeSpelled(value);
  // After a cd to a folder known only when it runs (`cd $(dirname /tmp)`), every relative name may be in /proc.
  if (cdsUnknown(a, scope)) note('changes to a folder known only when it runs, which may be the root or /proc');
  if (repeatsCd(a, script)) note('repeats a cd in a loop, a function, a sourced file or an inner shell, which may climb to the root');
  const computed = computedFolder(a, script, scope) ?? builtNames(a);
  if (computed) note(computed);
  // `CDPATH=x:../../.. cd proc` (pass 77 H2): where a cd goes, by the script's own settings.
  const moved = folderChanges(a).length > 0 ? placesMoved(a) : undefined;
  if (moved) note(`${moved}, so where its cd goes is known only when it runs`);
  // A kept value built from others (`r=$s/..`): each expansion by its values as written, else unknown.
  for (const { value } of a.assigned) {
    if (!/[$`]/.test(value)) continue;
    const names = [...value.matchAll(/\$\{?([A-Za-z_]\w*)\}?/g)].map((m) => m[1]!);
    const known = !/`|\$\(|\$\{[^A-Za-z_]|\$\{[A-Za-z_]\w*[^}\w]/.test(value) && names.every((n) => valuesOf(n, a, scope, script) !== undefined);
    if (!known) {
      if (value.includes('..') || /^["']?[$`]/.test(value)) note(`keeps ${value.slice(0, 80)}, a path computed when it runs`);
      continue;
    }
    judgeSpelled(value.replace(/\$\{?([A-Za-z_]\w*)\}?/g, (_m, n: string) => valuesOf(n, a, scope, script)![0]!));
  }
  for (const { text, shape } of everyWord(a)) {
    if (text !== undefined) {
      if (MENTIONS_PROC.test(text)) note(`names ${text.slice(0, 80)}`);
      for (const piece of text.split(PIECES)) {
        if (!piece) continue;
        const spelled = tilde(piece, scope.home) ?? piece;
        for (const folder of isAbsolute(spelled) ? [scope.cwd] : folders) {
          const abs = reentered(lexicalJoin(folder, spelled));
          // Judged as written first: /proc/self is the command's own, not this process's.
          if (isOwnProcessPath(abs, 'command', tree)) return own(abs);
          if (inProc(abs)) {
            note(`names ${abs}`);
            continue;
          }
          // The standard streams lead through /proc/self, which is the command's own when it
          // opens them, not this process's: resolving them here would name the agent.
          if (STREAMS.test(abs)) continue;
          // A link (in the workspace, say) into /proc, walked as the kernel walks it (`t/..` leaves t's target).
          const real = reentered(where(kernelJoin(folder, spelled)));
          if (!linkedInProc(real)) continue;
          if (isOwnProcessPath(real, 'command', tree)) return own(real);
          note(`names ${abs}, which leads to ${real}`);
        }
      }
      continue;
    }
    if (shape?.kind === 'glob') {
      if (a.globOptions) note(`has a glob, ${shape.text}, whose expansion the command changes (${a.globOptions})`);
      // After a cd to a folder known only when it runs (`cd pro?`), a relative glob may be in /proc.
      if (known === undefined && !shape.pattern.startsWith('/')) note(`has a glob, ${shape.text}, in a folder a cd chooses when it runs`);
      const words = braceWords(shape.pattern);
      if (words === undefined) note(`has a word, ${shape.text.slice(0, 80)}, with more braces than the checks expand`);
      for (const word of words ?? []) {
        const spelled = homePattern(word, scope.home);
        for (const folder of isAbsolute(spelled) ? [scope.cwd] : folders) {
          // Where the pattern may lead, segment by segment (also entries made after this check) …
          const pattern = reentered(lexicalJoin(folder, unescapePattern(spelled)));
          entries ??= ownProcessEntries(tree);
          const hit = entries.find((e) => globReaches(pattern, e));
          if (hit) return own(`${shape.text} (which matches ${hit})`);
          if (globReaches(pattern, '/proc')) note(`has a glob, ${shape.text}, that may match /proc`);
          // … and what bash itself expands it to now, each match as written, then where the
          // kernel takes it (a link into /proc). picomatch alone read `/[!x]roc` as not /proc.
          const matched = expandGlob(spelled, folder);
          if (matched === undefined) {
            note(`has a glob, ${shape.text}, too wide to look through, which may match /proc`);
            continue;
          }
          for (const m of matched) {
            const written = reentered(m);
            // `/tm?/..` is the root again, which holds /proc (pass 74 H2).
            if (written === '/' || where(m) === '/') note(`has a glob, ${shape.text}, that matches the root folder, which holds /proc`);
            if (inProc(written)) {
              if (isOwnProcessPath(written, 'command', tree)) return own(`${shape.text} (which matches ${written})`);
              note(`has a glob, ${shape.text}, that matches ${written}`);
              continue;
            }
            const real = reentered(procLocation(m));
            if (!linkedInProc(real)) continue;
            if (isOwnProcessPath(real, 'command', tree)) return own(`${shape.text} (which matches ${m}, leading to ${real})`);
            note(`has a glob, ${shape.text}, that matches a link into /proc`);
          }
        }
      }
      continue;
    }
    if (shape?.kind === 'variable' && (MENTIONS_PROC.test(`${shape.before}/${shape.after}`) || /(^|\/)proc$/.test(shape.before) || shape.name === 'PPID')) {
      note(`computes a path when it runs (${shape.before}$${shape.name}${shape.after})`);
    }
    // A path that starts with a value the script computes (`${s}c/$p/environ` after `s=/pro`, pass 74 H1):
    // by the values it assigns as written, else known only when it runs.
    if (shape?.kind === 'variable' && shape.before === '' && shape.after.includes('/')) {
      const values = valuesOf(shape.name, a, scope, script);
      if (values === undefined) note(`has a path that starts with $${shape.name}, a value computed when it runs, which may lead to /proc`);
      for (const v of values ?? []) judgeSpelled(`${v}${shape.after}`);
    }
  }
  if (reaches === undefined) {
    const ownHit = reachesThroughText(a, script, scope, folders, note, known === undefined, () => (entries ??= ownProcessEntries(tree)));
    if (ownHit) return ownHit;
  }
  if (reaches === undefined) return undefined;
  return { behavior: 'ask', reason: `The command ${reaches}: the /proc entries of the agent's own process, whose environment holds its API key, may be reached this way.` };
}
