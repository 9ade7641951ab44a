// What keeps git from running programs a repository names, for every git the agent starts: the
// snapshot's own calls (context/gitProcess.ts) and any git inside a Bash command. A repository's
// config (`core.fsmonitor`, hooks, a pager, filter and diff drivers, a credential helper) and a
// bare repository committed as plain files can each name a program that git runs while it answers
// `git status` or `git diff`; the user allowed the command, not those programs. Git reads config
// from the environment (GIT_CONFIG_COUNT/KEY/VALUE) after the repository's, so the neutral values
// given there win; driver names are arbitrary, so they are read from the repository's config files.
import { reachableRepositories, type Reach } from './gitReach';

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
  ['interactive.diffFilter', ''],
  ['sendemail.smtpServer', ''],
  ['sendemail.toCmd', ''],
  ['sendemail.ccCmd', ''],
  ['sendemail.headerCmd', ''],
  ['imap.tunnel', ''],
  ['web.browser', ''],
  ['instaweb.httpd', ''],
];

/**
 * Of those, the ones whose neutral value would also switch off what the user set up for
 * themselves (their ssh command, credential helper, signing program): a Bash command gets these
 * only when the repository's own config names the key, so `git push` keeps the user's setup.
 */
const USER_SETUP_KEYS = new Set([
  ...['core.askpass', 'core.sshcommand', 'core.gitproxy', 'credential.helper', 'log.showsignature', 'gpg.program', 'gpg.openpgp.program', 'gpg.x509.program', 'gpg.ssh.program', 'gpg.ssh.defaultkeycommand'],
  ...['interactive.difffilter', 'sendemail.smtpserver', 'sendemail.tocmd', 'sendemail.cccmd', 'sendemail.headercmd', 'imap.tunnel', 'web.browser', 'instaweb.httpd'],
]);

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
  // A tool's path is the program run for a tool git knows by name (vimdiff): `false` runs nothing.
  difftool: [
    ['cmd', ''],
    ['path', 'false'],
  ],
  mergetool: [
    ['cmd', ''],
    ['path', 'false'],
  ],
  // `git commit --trailer` runs a trailer's command to compute its value.
  trailer: [
    ['cmd', 'true'],
    ['command', 'true'],
  ],
  guitool: [['cmd', '']],
  browser: [
    ['cmd', ''],
    ['path', 'false'],
  ],
  man: [
    ['cmd', ''],
    ['path', 'false'],
  ],
  // For a remote on this machine git starts these programs itself.
  remote: [
    ['uploadpack', 'git-upload-pack'],
    ['receivepack', 'git-receive-pack'],
  ],
  sendemail: [
    ['smtpserver', ''],
    ['tocmd', ''],
    ['cccmd', ''],
    ['headercmd', ''],
  ],
  credential: [['helper', '']],
};

/** An alias the repository defines runs in place of what the user allowed by its name. */
const ALIAS_REFUSED = '!echo >&2 "The alias the repository defines was not run."; false';

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
    if (first > 0 && name.slice(0, first).toLowerCase() === 'alias') add(name, ALIAS_REFUSED);
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
export function bashGitSettings(repoNames: readonly string[], noLocalTransport = false): GitSetting[] {
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
  ];
}

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
  return {
    set: {
      ...gitConfigEnv(bashGitSettings(reach.names, reach.noLocalTransport), from),
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
