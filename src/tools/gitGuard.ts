// What keeps git from running programs a repository names, for every git the agent starts: the
// snapshot's own calls (context/gitProcess.ts) and any git inside a Bash command. A repository's
// config (`core.fsmonitor`, hooks, a pager, filter and diff drivers, a credential helper) and a
// bare repository committed as plain files can each name a program that git runs while it answers
// `git status` or `git diff`; the user allowed the command, not those programs. Git reads config
// from the environment (GIT_CONFIG_COUNT/KEY/VALUE) after the repository's, so the neutral values
// given there win; driver names are arbitrary, so they are read from the repository's config files.
import { driverOverrides, GIT_PROGRAM_SETTINGS, NULL_DEVICE, USER_SETUP_KEYS, type GitSetting } from './gitPrograms';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { newConfigRead, readConfigFile } from './gitConfigFile';
import { reachableRepositories, type Reach } from './gitReach';

export { driverOverrides, GIT_PROGRAM_SETTINGS, type GitSetting } from './gitPrograms';
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
 * The settings for git inside a Bash command, given the config names of the repositories it may
 * reach: every program-naming setting neutral (the user's own ssh, credential and signing setup
 * kept unless the repository names its own), drivers and tools the repositories define switched
 * off, no bare repository found by walking into it, and no attributes file outside the repository.
 */
/** What keeps git from entering submodules by itself (status, diff, and commands that recurse). */
const SUBMODULES_OFF: readonly GitSetting[] = [
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
];

export function bashGitSettings(repoNames: readonly string[], noLocalTransport = false, unwalked = false): GitSetting[] {
  const fixed = GIT_PROGRAM_SETTINGS.filter(([k]) => !USER_SETUP_KEYS.has(k.toLowerCase()) || repoNames.some((n) => names(k, n)));
  return [
    ...fixed,
    ['safe.bareRepository', 'explicit'],
    ['core.attributesFile', NULL_DEVICE],
    // An empty diff.external is itself run (and fails), so it is replaced only when the repository names one.
    ...(repoNames.some((n) => n === 'diff.external') ? [EXTERNAL_DIFF_REFUSED] : []),
    ['protocol.ext.allow', 'never'],
    // A remote the repository names on this machine, outside the workspace, is not fetched from.
    ...(noLocalTransport ? [['protocol.file.allow', 'never'] as const] : []),
    ...driverOverrides(repoNames),
    ...(unwalked ? SUBMODULES_OFF : []),
    ...(repoNames.some((n) => SIGNING.test(n)) ? SIGNING_OFF : []),
  ];
}

/**
 * A repository that picks how and with which key git signs (`gpg.format=ssh`, `user.signingkey=~/.ssh/id_ed25519`,
 * `commit.gpgsign=true`) had your key sign whatever the model committed (pass 48 F5): signing by
 * its settings goes off, and the key and format are your own again.
 */
const SIGNING = /^(user\.signingkey|gpg\.format|gpg\.ssh\.|(commit|tag|push|rebase)\.gpgsign|tag\.forcesignannotated)/;
const SIGNING_OFF: readonly GitSetting[] = [
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['tag.forceSignAnnotated', 'false'],
  ['push.gpgSign', 'false'],
  ['rebase.gpgSign', 'false'],
  ['gpg.format', 'openpgp'],
  ['user.signingKey', ''],
];

export type BashGitEnv = { set: Record<string, string>; unset: string[] } | { refused: string };

/**
 * The environment additions for a Bash command run in `cwd` (the workspace folder), and what to
 * remove (GIT_EXTERNAL_DIFF), given the environment it inherits: its own GIT_CONFIG_* entries are
 * kept and ours come after them. Refused when a reachable repository points git outside the
 * workspace (gitReach.ts).
 */
export async function bashGitEnv(cwd: string, inherited: NodeJS.ProcessEnv): Promise<BashGitEnv> {
  const reach: Reach = await reachableRepositories(cwd).catch((e: unknown) => ({ names: [] as string[], refusal: `Not run: the repositories around ${cwd} could not be read (${e instanceof Error ? e.message : String(e)}), so git could not be kept from running what they name.` }));
  if (reach.refusal) return { refused: reach.refusal };
  const count = Number(inherited.GIT_CONFIG_COUNT);
  const from = Number.isInteger(count) && count > 0 && count < 10_000 ? count : 0;
  const userDrivers = await userDiffDrivers(inherited);
  return {
    set: {
      ...gitConfigEnv([...bashGitSettings(reach.names, reach.noLocalTransport, reach.unwalked), ...driverOverrides(userDrivers)], from),
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ATTR_NOSYSTEM: '1',
      // Transports other than the known network ones (http, https, ssh, git) are refused: a local
      // path (a push into a repository here runs its hooks, without any of these settings, which
      // git does not pass on), and remote helpers a URL or `remote.*.vcs` names by a relative path.
      GIT_PROTOCOL_FROM_USER: '0',
      // core.editor and sequence.editor are the repository's to name; there is no terminal anyway.
      GIT_EDITOR: ':',
      GIT_SEQUENCE_EDITOR: ':',
    },
    unset: ['GIT_EXTERNAL_DIFF'],
  };
}

/**
 * The diff and merge drivers your own git config defines (`diff.gpg.textconv = gpg -d`): any file's
 * attributes pick them, and the model may write a `.gitattributes` (`*.x diff=gpg`) to have your
 * program run on text it chose, a decryption oracle (pass 69 H2). Filters stay yours: a clean filter
 * switched off (git-lfs) would commit whole files where pointers belong.
 */
async function userDiffDrivers(env: NodeJS.ProcessEnv): Promise<string[]> {
  const home = env.HOME || homedir();
  const globals = env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig')];
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM || '/etc/gitconfig'];
  const read = newConfigRead(undefined, { bytes: 1024 * 1024 });
  for (const file of [...system, ...globals]) await readConfigFile(file, read).catch(() => read);
  return read.entries.map((e) => e.name).filter((n) => /^(diff|merge)\..+\.(textconv|command|driver)$/i.test(n));
}
