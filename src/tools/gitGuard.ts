// What keeps git from running programs a repository names, for every git the agent starts: the
// snapshot's own calls (context/gitProcess.ts) and any git inside a Bash command. A repository's
// config (`core.fsmonitor`, hooks, a pager, filter and diff drivers, a credential helper) and a
// bare repository committed as plain files can each name a program that git runs while it answers
// `git status` or `git diff`; the user allowed the command, not those programs. Git reads config
// from the environment (GIT_CONFIG_COUNT/KEY/VALUE) after the repository's, so the neutral values
// given there win; driver names are arbitrary, so they are read from the repository's config files.
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFile } from '../fs/read';
import { listTree } from '../fs/scan';
import { inspect } from '../fs/stat';

export type GitSetting = readonly [key: string, value: string];

const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null';

/** Settings that name a program git may run on a local command, with a value that launches none. */
export const GIT_PROGRAM_SETTINGS: readonly GitSetting[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', NULL_DEVICE],
  ['core.pager', 'cat'],
  ['core.alternateRefsCommand', ''],
  ['core.askPass', ''],
  ['core.sshCommand', ''],
  ['core.gitProxy', ''],
  ['credential.helper', ''],
  ['log.showSignature', 'false'],
  ['gpg.program', ''],
  ['gpg.openpgp.program', ''],
  ['gpg.x509.program', ''],
  ['gpg.ssh.program', ''],
  ['gpg.ssh.defaultKeyCommand', ''],
];

/**
 * Of those, the ones whose neutral value would also switch off what the user set up for
 * themselves (their ssh command, credential helper, signing program): a Bash command gets these
 * only when the repository's own config names the key, so `git push` keeps the user's setup.
 */
const USER_SETUP_KEYS = new Set(['core.askpass', 'core.sshcommand', 'core.gitproxy', 'credential.helper', 'log.showsignature', 'gpg.program', 'gpg.openpgp.program', 'gpg.x509.program', 'gpg.ssh.program', 'gpg.ssh.defaultkeycommand']);

/** Per-driver keys that name a program; the drivers are whatever the config defines. */
const DRIVER_PROGRAMS: Record<string, readonly GitSetting[]> = {
  filter: [
    ['clean', ''],
    ['smudge', ''],
    ['process', ''],
  ],
  // Git runs an empty textconv or command as a program (and fails): the file as it is instead,
  // and a diff command that says why it did not run.
  diff: [
    ['command', 'echo >&2 "The diff program the repository names was not run: use git diff --no-ext-diff."; false'],
    ['textconv', 'cat'],
  ],
  merge: [['driver', '']],
  difftool: [['cmd', '']],
  mergetool: [['cmd', '']],
};

/**
 * The program-naming keys the config names for its drivers (filter.NAME.clean, …), switched off.
 * Only the keys named: a neutral `command` or `textconv` given to a driver that had none would
 * itself change what git runs. Every filter named is also made optional, so a filter that now
 * runs nothing does not fail the command.
 */
export function driverOverrides(names: readonly string[]): GitSetting[] {
  const out: GitSetting[] = [];
  const seen = new Set<string>();
  const add = (k: string, v: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    out.push([k, v]);
  };
  for (const name of names) {
    const first = name.indexOf('.');
    const last = name.lastIndexOf('.');
    if (first < 0 || last <= first) continue;
    const section = name.slice(0, first).toLowerCase();
    const driver = name.slice(first + 1, last);
    const key = name.slice(last + 1).toLowerCase();
    const neutral = DRIVER_PROGRAMS[section]?.find(([k]) => k.toLowerCase() === key);
    if (neutral) add(`${section}.${driver}.${neutral[0]}`, neutral[1]);
    if (section === 'filter') add(`filter.${driver}.required`, 'false');
  }
  return out;
}

/**
 * Settings as git's environment config, numbered after `from` entries already there. Keys and
 * values apart, so a driver named `a=b` cannot be misread as `-c a=b…` would be.
 */
export function gitConfigEnv(settings: readonly GitSetting[], from = 0): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(from + settings.length) };
  settings.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${from + i}`] = k;
    env[`GIT_CONFIG_VALUE_${from + i}`] = v;
  });
  return env;
}

// ---- Reading the names a repository's config files define (no git runs: the folder may be untrusted).

const CONFIG_MAX_BYTES = 1024 * 1024;
/** Git's own limit on nested includes. */
const INCLUDE_DEPTH = 10;
/** How much of the workspace is looked through for nested repositories, and for how long. */
const NESTED_MAX_ENTRIES = 50_000;
const NESTED_TIME_MS = 1_000;

function unquote(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** A value as git reads it: quotes removed, a comment outside quotes cut. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) out += raw[++i];
    else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/**
 * The full names (`section.subsection.key`, section and key lowercased) a config text sets, and
 * the files it includes. Every line is looked at, so a line inside a continued value may add a
 * name that is not one: neutralising a setting too many costs nothing, one too few runs a program.
 */
export function configNames(text: string): { names: string[]; includes: string[] } {
  const names: string[] = [];
  const includes: string[] = [];
  let section = '';
  for (let line of text.split(/\r?\n/)) {
    line = line.trimStart();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:[ \t]+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const dotted = header[1]!.indexOf('.');
      // `[section.sub]` is the old spelling of `[section "sub"]`, its subsection lowercased.
      section = header[2] !== undefined ? `${header[1]!.toLowerCase()}.${unquote(header[2])}` : dotted > 0 ? `${header[1]!.slice(0, dotted).toLowerCase()}.${header[1]!.slice(dotted + 1).toLowerCase()}` : header[1]!.toLowerCase();
      line = line.slice(header[0].length).trimStart();
    } else if (line.startsWith('[')) {
      section = '';
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!entry || !section) continue;
    const key = entry[1]!.toLowerCase();
    names.push(`${section}.${key}`);
    if (key === 'path' && /^include(?:if\.|$)/.test(section) && entry[2] !== undefined) includes.push(configValue(entry[2]));
  }
  return { names, includes };
}

/** The config names in a file and everything it includes (as git resolves include paths). */
async function namesInFile(file: string, depth: number, seen: Set<string>, into: string[]): Promise<void> {
  if (depth > INCLUDE_DEPTH || seen.has(file)) return;
  seen.add(file);
  const read = await readRegularFile(file, CONFIG_MAX_BYTES);
  if (!read.ok) return;
  const { names, includes } = configNames(read.bytes.toString('utf8'));
  into.push(...names);
  for (const inc of includes) {
    if (!inc) continue;
    const path = inc.startsWith('~/') ? join(homedir(), inc.slice(2)) : isAbsolute(inc) ? inc : resolve(dirname(file), inc);
    await namesInFile(path, depth + 1, seen, into);
  }
}

/** The git folder a `.git` entry stands for: the folder itself, or the one a `gitdir:` file names. */
async function gitDirOf(dotGit: string): Promise<string | undefined> {
  const kind = (await inspect(dotGit)).kind;
  if (kind === 'folder') return dotGit;
  if (kind !== 'file') return undefined;
  const read = await readRegularFile(dotGit, 4096);
  const m = read.ok ? /^gitdir:\s*(.+)$/m.exec(read.bytes.toString('utf8')) : null;
  return m ? resolve(dirname(dotGit), m[1]!.trim()) : undefined;
}

/** The config files git reads for a git folder: its own, a worktree's, and the shared folder's. */
async function configFilesOf(gitDir: string): Promise<string[]> {
  const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  const common = await readRegularFile(join(gitDir, 'commondir'), 4096);
  if (common.ok) {
    const dir = resolve(gitDir, common.bytes.toString('utf8').split('\n')[0]!.trim());
    files.push(join(dir, 'config'), join(dir, 'config.worktree'));
  }
  return files;
}

/** `.git` entries a command run in `cwd` may reach: those of the folders above it, and nested ones below. */
async function dotGitsAround(cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    out.push(join(dir, '.git'));
    if (dirname(dir) === dir) break;
  }
  // A repository nested in the workspace (a vendored checkout, a submodule) is git's repository
  // once a command changes into it. Bounded: a huge tree is looked through only in part.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), NESTED_TIME_MS);
  let met = 0;
  const found = (rel: string) => {
    if (++met > NESTED_MAX_ENTRIES) stop.abort();
    if (basename(rel) !== '.git') return false;
    out.push(join(cwd, rel));
    return true;
  };
  try {
    await listTree(cwd, { maxFiles: 0, signal: stop.signal, skipDir: (rel) => found(rel), skipFile: (rel) => (found(rel), true) });
  } catch {
    // an unreadable folder: what was found so far stands
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** Every config name the repositories reachable from `cwd` set in their own config files. */
export async function repositoryConfigNames(cwd: string): Promise<string[]> {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const dotGit of await dotGitsAround(cwd)) {
    const gitDir = await gitDirOf(dotGit);
    if (!gitDir) continue;
    for (const file of await configFilesOf(gitDir)) await namesInFile(file, 0, seen, names);
  }
  return names;
}

/** Whether a name sets `setting` (same section and key, any subsection: `credential.<url>.helper`). */
function names(setting: string, name: string): boolean {
  const s = setting.toLowerCase();
  if (name === s) return true;
  const section = s.slice(0, s.indexOf('.'));
  const key = s.slice(s.lastIndexOf('.'));
  return name.startsWith(`${section}.`) && name.endsWith(key);
}

/** Runs nothing of the repository's and says why `git diff` stopped; `--no-ext-diff` gets the diff. */
const EXTERNAL_DIFF_REFUSED: GitSetting = ['diff.external', 'echo >&2 "The external diff program the repository names was not run: use git diff --no-ext-diff."; false'];

/**
 * The settings for git inside a Bash command run in `cwd`: every program-naming setting
 * neutral (the user's own ssh, credential and signing setup kept unless the repository names
 * its own), drivers the repositories define switched off, no bare repository found by walking
 * into it, and no attributes file outside the repository.
 */
export async function bashGitSettings(cwd: string): Promise<GitSetting[]> {
  const repoNames = await repositoryConfigNames(cwd).catch(() => [] as string[]);
  const fixed = GIT_PROGRAM_SETTINGS.filter(([k]) => !USER_SETUP_KEYS.has(k.toLowerCase()) || repoNames.some((n) => names(k, n)));
  return [
    ...fixed,
    ['safe.bareRepository', 'explicit'],
    ['core.attributesFile', NULL_DEVICE],
    // An empty diff.external is itself run (and fails), so it is replaced only when the repository names one.
    ...(repoNames.some((n) => n === 'diff.external') ? [EXTERNAL_DIFF_REFUSED] : []),
    ['protocol.ext.allow', 'never'],
    ...driverOverrides(repoNames),
  ];
}

/**
 * The environment additions for a Bash command (and what to remove: GIT_EXTERNAL_DIFF), given
 * the environment it inherits: its own GIT_CONFIG_* entries are kept and ours come after them.
 */
export async function bashGitEnv(cwd: string, inherited: NodeJS.ProcessEnv): Promise<{ set: Record<string, string>; unset: string[] }> {
  const count = Number(inherited.GIT_CONFIG_COUNT);
  const from = Number.isInteger(count) && count > 0 && count < 10_000 ? count : 0;
  return {
    set: {
      ...gitConfigEnv(await bashGitSettings(cwd), from),
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ATTR_NOSYSTEM: '1',
      // core.editor and sequence.editor are the repository's to name; there is no terminal anyway.
      GIT_EDITOR: ':',
      GIT_SEQUENCE_EDITOR: ':',
    },
    unset: ['GIT_EXTERNAL_DIFF'],
  };
}
