// Why this file is long: it is the table of options by which common programs run other programs,
// read lists of file names or load code, per program, read through the one reader of option
// spellings (spellsOption); split by program, each part would need that reading again.

import { asOptionWord, commandBase, fromEnvironment, gitVerbIndex, spellsOption, type SimpleCommand } from './commands';
import type { BashPattern } from './rules';
import { roffFile, scriptDanger } from './scriptTools';
import { GIT_STRATEGIES } from '../../tools/gitStrategies';
import { unmodelledOption } from './optionModels';

// A prefix rule grants its words "and then anything". What follows must not change which program
// or which code runs: `npm test --node-options=--import=data:…`, `npm test --script-shell=./x`,
// `npm test -- --require ./x.js` (passed on to the test runner), `make test SHELL=./x`,
// `rg --pre ./x`, `find -exec`, `sort --compress-program=./x`. Two rules:
//   - after a rule that names a runtime, package manager, build tool or test runner and more
//     than the program (`npm test:*`, `cargo test:*`, `python -m pytest:*`), an option asks
//     unless it is one known only to select tests or tune output (a list that can be wrong
//     only by asking), and so does a NAME=value word, a word computed when it runs, and an
//     operand that names a file outside the workspace or a URL (`/tmp/x.test.js`, `data:…`);
//   - after any rule, the options by which common programs run another program ask.
// A rule that names the program alone (`npm:*`, `python:*`) allows whatever it runs.

/** Programs whose options (or whose test runner's, after `--`) can load or run code. */
const CODE_RUNNERS: ReadonlySet<string> = new Set([
  'node', 'nodejs', 'npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'yarnpkg', 'bun', 'bunx', 'deno', 'tsx', 'ts-node', 'corepack',
  'python', 'python3', 'python2', 'py', 'pip', 'pip3', 'pipx', 'uv', 'uvx', 'poetry', 'pdm', 'hatch', 'pytest', 'py.test', 'tox', 'nox',
  'ruby', 'bundle', 'bundler', 'rake', 'rspec', 'rails', 'cargo', 'rustc', 'go', 'make', 'gmake', 'cmake', 'ninja', 'gradle', 'gradlew',
  'mvn', 'mvnw', 'sbt', 'dotnet', 'php', 'composer', 'java', 'perl', 'swift', 'mix', 'elixir', 'lua', 'Rscript', 'julia', 'cabal',
  'stack', 'zig', 'dart', 'flutter', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'jasmine', 'karma', 'playwright', 'cypress', 'nx',
  'turbo', 'lerna', 'rush', 'eslint', 'prettier', 'tsc', 'webpack', 'vite', 'rollup', 'esbuild', 'babel',
  // Infrastructure tools run the providers and modules the project names.
  'terraform', 'tofu', 'terragrunt', 'pulumi', 'ansible-playbook',
  // JVM compilers run the annotation processors and plugins their class path holds, any `-cp` the
  // model names included (pass 40 T1); pydoc imports the module or file it documents (T2).
  'kotlinc', 'scalac', 'groovyc', 'javac', 'pydoc', 'pydoc3',
]);

/** Whether the program runs the project's code (scripts, tests, builds) once a rule lets it run. */
export function runsProjectCode(name: string): boolean {
  return CODE_RUNNERS.has(name);
}

/** Long options (without `--` and `=value`) that only pick tests or shape output, installs or builds. */
const QUIET_OPTIONS: ReadonlySet<string> = new Set([
  'verbose', 'quiet', 'silent', 'color', 'colors', 'no-color', 'no-colors', 'update', 'updateSnapshot', 'update-snapshots', 'ci',
  'watch', 'no-watch', 'watchAll', 'coverage', 'no-coverage', 'bail', 'grep', 'fgrep', 'invert', 'testNamePattern',
  'testPathPattern', 'testPathPatterns', 'runInBand', 'passWithNoTests', 'detectOpenHandles', 'forceExit', 'json', 'timeout',
  'testTimeout', 'retries', 'retry', 'parallel', 'jobs', 'maxWorkers', 'max-workers', 'workers', 'lf', 'last-failed', 'ff',
  'failed-first', 'maxfail', 'tb', 'no-header', 'release', 'all-features', 'features', 'no-default-features', 'workspace',
  'workspaces', 'all', 'lib', 'bins', 'tests', 'doc', 'nocapture', 'test-threads', 'exact', 'ignored', 'include-ignored', 'locked',
  'offline', 'frozen', 'all-targets', 'count', 'run', 'race', 'short', 'cover', 'bench', 'benchmem', 'failfast', 'tags',
  'if-present', 'loglevel', 'no-audit', 'no-fund', 'ignore-scripts', 'save-dev', 'save', 'save-exact', 'no-save', 'production',
  'omit', 'legacy-peer-deps', 'dry-run', 'no-print-directory', 'keep-going', 'only', 'shard', 'changed', 'onlyChanged', 'listTests',
  'clearCache', 'no-cache', 'randomize', 'seed', 'repeat-each', 'fix', 'max-warnings', 'noEmit', 'pretty', 'summary', 'frozen-lockfile',
  'prefer-offline', 'immutable', 'check',
]);

/** Short options, alone or bundled (`-xvs`), that only pick tests or shape output. A number may follow (`-j4`). */
const QUIET_LETTERS = /^-[vqsuxbktjil]+\d*$/;

/** Options by which a program runs another program or writes where it is told, whatever the rule names. */
const RUNS_PROGRAM: ReadonlyMap<string, readonly string[]> = new Map([
  ['rg', ['--pre', '--hostname-bin']],
  ['sort', ['--compress-program']],
  ['split', ['--filter']],
  // A multi-volume archive (`-M`, or `-L` alone) makes GNU tar prompt on its input for the next
  // volume, where `!` starts a shell reading the rest of that input and `n NAME` writes anywhere (pass 68 C1).
  ...['tar', 'gtar'].map((n): [string, string[]] => [n, ['--to-command', '-I', '--use-compress-program', '--checkpoint-action', '--info-script', '--new-volume-script', '-F', '--rsh-command', '--rmt-command', '-M', '--multi-volume', '-L', '--tape-length']]),
  ['zip', ['-TT', '--unzip-command']],
  ['rsync', ['-e', '--rsh', '--rsync-path']],
  ['git', ['--upload-pack', '--receive-pack', '--exec', '--extcmd', '--open-files-in-pager', '-O', '--output', '--ext-diff', '--template', '--config', '--separate-git-dir', '--stdin-paths']],
  ['find', ['-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls', '-delete']],
  ['man', ['-P', '--pager', '-H', '--html', '-C', '--config-file', '-M', '--manpath', '-p', '--preprocessor']],
  // find -exec under other names, pagers, diff programs, lexers loaded from a file, lesskey files that set LESSOPEN.
  ...['fd', 'fdfind'].map((n): [string, string[]] => [n, ['-x', '--exec', '-X', '--exec-batch']]),
  ...['bat', 'batcat'].map((n): [string, string[]] => [n, ['--pager', '--config-file']]),
  ['less', ['--lesskey-src', '--lesskey-file', '-k', '--lesskey-content']],
  ['sdiff', ['--diff-program']],
  ['diff3', ['--diff-program']],
  ['pygmentize', ['-x']],
  ...['ctags', 'etags', 'ctags-universal', 'exuberant-ctags'].map((n): [string, string[]] => [n, ['--options', '--options-maybe', '-L']]),
  // A shell told `-n` runs nothing until `+n` (or an option file) undoes it.
  ...['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh'].map((n): [string, string[]] => [n, ['+n', '+o', '-o', '+O', '-O', '--rcfile', '--init-file', '-c', '-i', '-l', '--login', '-s']]),
  // The JDK's tools hand `-J…` to the JVM they start (`-J-javaagent:evil.jar`).
  ...['javap', 'keytool', 'jar', 'javadoc', 'jdeps', 'jshell', 'jlink', 'jcmd', 'jps', 'jstat', 'jstack', 'jmap', 'jinfo', 'jarsigner', 'jdeprscan', 'jpackage', 'serialver', 'rmic', 'jconsole'].map((n): [string, string[]] => [n, ['-J']]),
  // cscope reads the files a name list holds; git hash-object the paths on its input.
  ['cscope', ['-i']],
  // binutils load a linker plugin (a shared library) by name.
  ...['nm', 'ar', 'ranlib', 'gcc-nm', 'gcc-ar', 'gcc-ranlib', 'llvm-nm', 'llvm-ar', 'llvm-ranlib', 'objdump', 'size', 'strings'].map((n): [string, string[]] => [n, ['--plugin']]),
  ['install', ['--strip-program']],
]);

/** Options by which a program reads the names of the files to open from a file: names no check sees. */
const NAMES_FROM_FILE: ReadonlyMap<string, readonly string[]> = new Map([
  ['file', ['-f', '--files-from']],
  // GNU find 4.9 walks the starting points a file lists.
  ['find', ['-files0-from']],
  ['xargs', ['-a', '--arg-file']],
  // A list of URLs (file:// too, for aria2c), and a startup file that sets any option (wget's output_document).
  ['wget', ['-i', '--input-file', '--config']],
  ['aria2c', ['-i', '--input-file', '--conf-path']],
  // The ignore files in each folder it walks (`.gitignore` a link to `/dev/zero` or to a key, pass 72 H1).
  ...['tar', 'gtar'].map((n): [string, string[]] => [n, ['-T', '--files-from', '--exclude-vcs-ignores', '--exclude-ignore', '--exclude-ignore-recursive']]),
  ['rsync', ['--files-from', '--include-from', '--exclude-from']],
  ['cpio', ['-E', '--pattern-file']],
  ['zip', ['-@', '--names-stdin']],
  ...['zstd', 'zstdcat', 'zstdmt', 'unzstd', 'pzstd'].map((n): [string, string[]] => [n, ['--filelist']]),
  // A config file holds any option (`url = file:///…`, `output = …`), the other programs' checks unseen.
  // --proto-default file makes every URL without a scheme a file's path.
  ['curl', ['-K', '--config', '--proto-default']],
  // A checksum list names the files it checks.
  ...['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'shasum'].map((n): [string, string[]] => [n, ['-c', '--check']]),
]);

/**
 * Programs that read more arguments from a file a word names with `@` (GCC's, binutils' and
 * rustc's response files, javac's argument files, 7-Zip's and rar's list files), cross-compiler
 * and versioned names too.
 */
const RESPONSE_FILES =
  /^(?:[\w.+]+-)?(?:gcc|g\+\+|c\+\+|cc|cpp|gfortran|gccgo|clang|clang\+\+|clang-cpp|ld|ld\.bfd|ld\.gold|ld\.lld|lld|as|objcopy|objdump|nm|ar|ranlib|strings|readelf|size|strip|addr2line|c\+\+filt|elfedit|gprof|windres|dlltool|javac|java|javadoc|jar|jlink|jpackage|rustc|7z|7za|7zr|rar)(?:-\d+(?:\.\d+)*)?$/;

/** curl's options whose value is data, a header or a format, never a URL: braces there are JSON, not a glob. */
const CURL_DATA = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '-F', '--form', '--form-string', '-H', '--header', '--proxy-header', '-w', '--write-out', '-X', '--request', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie', '-u', '--user', '--variable', '--url-query']);

/**
 * Why `c` reaches files no word of it shows because the program expands or reads its own
 * arguments: a `@file` response file, curl's `{a,b}` and `[1-9]` URL globs (and the `#1` output
 * names filled from them); undefined when it does not.
 */
export function ownExpansion(c: SimpleCommand): string | undefined {
  const program = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
  if (program === undefined) return undefined;
  if (RESPONSE_FILES.test(program)) {
    const at = c.words.slice(1).find((w) => w !== undefined && /^@./.test(w));
    if (at) return `${program} reads more arguments from the file ${at.slice(1)} (${at}), which may name any file`;
  }
  if (program !== 'curl') return undefined;
  // Whether globbing is off is not read from the options (`-Ag` is -A's value g): a glob asks either way.
  const words = c.words.slice(1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === undefined) continue;
    // A form field names files after `<` and `@`, also after `;` (`headers=<f`), `,` (a list of
    // files) and inside quotes; `-F` may close a bundle (`-sF`).
    const bundled = /^-[A-Za-z0-9#]*F/.exec(w);
    const form = w === '--form' ? words[i + 1] : w.startsWith('--form=') ? w.slice(7) : bundled ? w.slice(bundled[0].length) || words[i + 1] : undefined;
    if (form !== undefined && /[;"',]/.test(form)) return `curl's form field ${form} may name files after ; or , or inside quotes, which the checks do not read`;
    // A file: URL curl decodes byte by byte (`%ff` too), where a decoder of text gives up.
    const url = /file:(?:\/\/[^/]*)?(\/[^?#]*)/i.exec(w);
    if (url && !decodes(url[1]!)) return `curl reads the file: URL ${w}, whose name the checks cannot decode`;
    if (CURL_DATA.has(w)) {
      i++;
      continue;
    }
    if (w.startsWith('-') && CURL_DATA.has(w.split('=')[0]!)) continue;
    if (/^-[A-Za-z]/.test(w) && !w.startsWith('--') && CURL_DATA.has(w.slice(0, 2))) continue;
    if (/[{[]/.test(w)) return `curl expands {…} and […] in the URL ${w} itself (and fills #1 from them), so the files and places it reaches are not the words the checks read`;
  }
  return undefined;
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Why `c` opens files named inside another file (`tar -T list`, `zstd --filelist`, `curl -K cfg`), if it does. */
export function namesFromFile(c: SimpleCommand): string | undefined {
  const program = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
  if (program === undefined) return undefined;
  const own = ownExpansion(c);
  if (own) return own;
  // The words xargs hands on come from its input (a pipe, `< list`) or `-a list`: names no check sees.
  if (program === 'xargs') return 'xargs hands on words it reads from its input or a file, which may name any file';
  // cpio's copy-out and pass-through modes read the names of the files to copy from their input.
  if (program === 'cpio' && c.words.slice(1).some((w) => w === undefined || /^-[a-zA-Z]*[op]|^--(create|pass-through)/.test(w))) return 'cpio reads the names of the files it copies from its input, which may name any file';
  const roff = roffFile(program, c);
  if (roff) return roff;
  for (let i = 1; i < c.words.length; i++) {
    const given = c.words[i];
    const hit = given === undefined ? undefined : listOption(program, asOptionWord(program, i, given));
    if (hit) return `${program} ${hit} opens files named inside another file`;
  }
  return undefined;
}

/** The option `w` spells by which `program` reads the names of files from another file, if any. */
function listOption(program: string, w: string): string | undefined {
  // An exact long name is never read as the start of a longer one (`--exclude-vcs` itself reads no file).
  if (w === '--exclude-vcs') return undefined;
  return [...(NAMES_FROM_FILE.get(program) ?? []), '--files0-from'].find((o) => spellsOption(w, o));
}

/** The words a pattern spells itself (its own options are the user's choice) and how many lead it. */
function ruleWords(p: BashPattern): { own: ReadonlySet<string>; lead: number; program: string | undefined } {
  if (p.kind === 'wildcard') return { own: new Set(p.literals), lead: 1, program: p.first === undefined ? undefined : commandBase(p.first) };
  return { own: new Set(p.words), lead: p.words.length, program: p.words[0] === undefined ? undefined : commandBase(p.words[0]) };
}

/** git verbs that run a command they are given, or a program of their own choosing, whatever follows. */
const GIT_RUNNING_VERBS: ReadonlySet<string> = new Set(['send-email', 'instaweb', 'web--browse', 'daemon', 'cvsimport', 'cvsserver', 'cvsexportcommit', 'svn', 'p4', 'archimport', 'quiltimport', 'imap-send']);

/** Per git verb, the options and words after which git runs a command given on the command line. */
const GIT_RUNNING_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['clone', ['-u', '--upload-pack']],
  ['rebase', ['-x', '--exec']],
  ['difftool', ['-x', '--extcmd']],
  ['bisect', ['run']],
  // grep -O opens the files it finds in the program it is given (pass 40 W3).
  ['grep', ['-O', '--open-files-in-pager']],
  ['submodule', ['foreach']],
  ['filter-branch', ['--tree-filter', '--index-filter', '--msg-filter', '--env-filter', '--commit-filter', '--parent-filter', '--tag-name-filter', '--setup']],
]);

/**
 * Why a git command's words make it run a command of their own (`git rebase -x CMD`, `git clone -u
 * CMD`, `git submodule foreach CMD`, `git bisect run CMD`, `git filter-branch --tree-filter CMD`):
 * a rule naming the verb does not name what those run. A word the rule itself spells is the
 * user's choice.
 */
function gitRunsCommand(c: SimpleCommand, own: ReadonlySet<string>): string | undefined {
  const at = gitVerbIndex(c.words);
  const verb = at < 0 ? undefined : c.words[at];
  if (verb === undefined) return undefined;
  if (GIT_RUNNING_VERBS.has(verb) && !own.has(verb)) return `git ${verb} runs programs or commands of its own`;
  const options = GIT_RUNNING_OPTIONS.get(verb) ?? [];
  const rest = c.words.slice(at + 1);
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w === undefined || own.has(w)) continue;
    const hit = options.find((o) => (o.startsWith('-') ? spellsOption(w, o) : w === o));
    if (hit) return `git ${verb} ${hit} runs a command it is given`;
    // A merge strategy is the program `git-merge-NAME`; cherry-pick, rebase and revert run one
    // named with a slash from the work tree (pass 60 H1). Only git's own strategies pass.
    const long = w.startsWith('--') && spellsOption(w, '--strategy');
    // `-s` is the strategy for rebase, merge and pull; for cherry-pick and revert it is --signoff.
    const short = ['rebase', 'merge', 'pull'].includes(verb);
    const strategy = (short && w === '-s') || (long && !w.includes('=')) ? rest[++i] : long ? w.slice(w.indexOf('=') + 1) : short && /^-s./.test(w) ? w.slice(2) : null;
    if (strategy !== null && (strategy === undefined || !GIT_STRATEGIES.has(strategy))) return `git ${verb} is given the merge strategy ${strategy ?? '(computed when it runs)'}, which is a program git runs, and not one of git's own`;
  }
  return undefined;
}

/** `git config` words that only read settings (the old flags, and the newer `get` and `list` verbs). */
const CONFIG_READS: ReadonlySet<string> = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '--list', '-l']);

/**
 * Git commands that write git's own settings: a setting can name a program git runs later, for
 * the user's next `git status` or the editor's git (`git config core.fsmonitor ./x`, `git
 * maintenance register` writing the user's config, `git clone -c`). They land in `.git/` or in the
 * user's own config, where writes always ask, so even a rule naming the verb (`Bash(git
 * config:*)`) asks; only an exact rule spells the setting itself.
 */
function gitSettingsWrite(c: SimpleCommand): string | undefined {
  // git's own options take values (`-C .`, `-c k=v`): the verb is after them (pass 41 G1).
  const at = gitVerbIndex(c.words);
  const verb = at < 0 ? undefined : c.words[at];
  if (verb === undefined) return undefined;
  const rest = c.words.slice(at + 1);
  if (verb === 'config' && !rest.some((w) => w !== undefined && CONFIG_READS.has(w)) && !['get', 'list'].includes(rest.find((w) => w !== undefined && !w.startsWith('-')) ?? '')) {
    return 'git config writes git settings, and a setting can name a program git runs later';
  }
  if (verb === 'maintenance' && rest.some((w) => w === 'register' || w === 'start' || w === 'unregister' || w === 'stop')) return `git maintenance ${rest.find((w) => w && !w.startsWith('-'))} writes your own git settings`;
  if ((verb === 'clone' || verb === 'init' || verb === 'submodule') && rest.some((w) => w === '-c' || (w?.startsWith('-c') && w.includes('=')))) return `git ${verb} -c writes a git setting, which can name a program git runs later`;
  return undefined;
}

/**
 * tar takes an archive named `host:file` as one on another machine, and runs rsh (on Debian, ssh)
 * to reach it, unless told `--force-local` (pass 44 M1).
 */
function tarRemoteArchive(c: SimpleCommand): string | undefined {
  if (c.words.includes('--force-local')) return undefined;
  const named = c.words.slice(1).map((w) => w?.replace(/^(--file=|-[A-Za-z]*f(?=.))/, '')).find((w) => w !== undefined && !w.startsWith('-') && /^[^/]+:/.test(w));
  return named === undefined ? undefined : `tar reads ${named} as an archive on another machine, through rsh`;
}

/** Programs with options by which they run another program: a word the shell computes may be one. */
function mayRunPrograms(program: string): boolean {
  return program === 'git' || (RUNS_PROGRAM.get(program)?.length ?? 0) > 0 || NAMES_FROM_FILE.has(program);
}

/**
 * Why the words of `c` after what rule `p` spells may change what program or code runs; undefined
 * when they cannot. `mentions`: the names the script spells (see fromEnvironment).
 */
export function optionInjection(p: BashPattern, c: SimpleCommand, mentions: ReadonlySet<string>): string | undefined {
  const { own, lead, program: named } = ruleWords(p);
  // A wildcard rule that names no program (`Bash(* --help)`) still lets the command's own program run.
  const program = named ?? (c.words[0] === undefined ? undefined : commandBase(c.words[0]));
  if (program === undefined) return undefined;
  // An exact rule spells the whole script itself: the user's choice.
  const script = p.kind === 'exact' ? undefined : scriptDanger(program, c, p.kind === 'prefix' ? lead : 1);
  if (script) return script;
  const settings = program === 'git' && p.kind !== 'exact' ? (gitSettingsWrite(c) ?? gitRunsCommand(c, own)) : undefined;
  if (settings) return settings;
  const unknown = p.kind === 'exact' ? undefined : unmodelledOption(program, c.words, lead, own);
  if (unknown) return `${unknown} is not an option of ${program} known to be harmless, and its options can run programs, load code or reach files no word shows`;
  const remote = program === 'tar' ? tarRemoteArchive(c) : undefined;
  if (remote) return remote;
  const narrowRunner = CODE_RUNNERS.has(program) && (p.kind === 'wildcard' ? own.size > 1 : lead > 1);
  const runsProgram = RUNS_PROGRAM.get(program) ?? [];
  for (let i = lead; i < c.words.length; i++) {
    const given = c.words[i];
    const w = given === undefined ? undefined : asOptionWord(program, i, given);
    if (w === undefined) {
      const shape = c.shapes?.[i];
      if (narrowRunner && !(shape?.kind === 'variable' && fromEnvironment(shape.name, mentions) && !shape.before.startsWith('-'))) {
        return `${program} is given a word computed when it runs, which may be an option that changes what code runs`;
      }
      // An option whose name or value the shell fills in (`--exec=$PWD/x`, `-x$X`, `--exec$IFS…`)
      // is checked by no list; nor is a word that may turn into one (`$X-exec` with X unset).
      if (shape?.kind === 'variable' && shape.before.startsWith('-')) return `${shape.before}… is an option of ${program} whose value is computed when it runs`;
      if (mayRunPrograms(program) && !(shape?.kind === 'glob' && !shape.text.startsWith('-'))) {
        return `${program} is given a word computed when it runs, which may be an option by which it runs another program`;
      }
      continue;
    }
    if (own.has(w)) continue;
    const hit = runsProgram.find((o) => spellsOption(w, o));
    if (hit) return `${hit} lets ${program} run another program or write where it is told`;
    const list = listOption(program, w);
    if (list) return `${list} makes ${program} open files named inside another file, which may be outside the workspace`;
    if (!narrowRunner || w === '--' || w === '-') continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) return `${w.split('=')[0]}=… may set what ${program} runs (make SHELL=…, a config key)`;
    // A test file, script or module outside the workspace would run as code too.
    if (!w.startsWith('-') && (w.startsWith('/') || w.startsWith('~') || w.split('/').includes('..') || /^(data|file|https?|ftp|node|javascript|blob):/i.test(w))) {
      return `${w} names code outside the workspace, which ${program} may run`;
    }
    if (!w.startsWith('-')) continue;
    // Go and others spell long options with one dash (-run, -count=1).
    if (QUIET_OPTIONS.has(w.replace(/^--?/, '').split('=')[0]!) || QUIET_LETTERS.test(w)) continue;
    return `${w.split('=')[0]} is not an option known only to select tests or shape output, and options of ${program} (or of what it runs) can load code`;
  }
  return undefined;
}
