// The settings by which a repository's git config names a program, and the values that switch
// each off: the fixed ones, and those under a driver or tool the config names (filter.NAME.clean).
// The guard (gitGuard.ts) passes these to every git it starts; the settings check (gitSettings.ts)
// lets a repository's setting through when it is one of these.
export type GitSetting = readonly [key: string, value: string];

export const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null';

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
  // Not a program: git then reads the index in order, as tools/gitIndex.ts judges it, not at the
  // offsets the index's IEOT extension gives, which a downloaded index forges (pass 60 C3).
  ['index.threads', '1'],
  // Nor this: a repository's commit.verbose makes `git commit --dry-run`/`--long` print the diff
  // of the files it would commit, denied ones too (pass 67 H1).
  ['commit.verbose', 'false'],
  // Nor this: rerere copies whatever file a MERGE_RR names into the git folder at `git commit` or
  // `git rerere`, so a downloaded git folder, or one the model wrote as plain files (`GIT_DIR=g`),
  // copied ~/.ssh/id_rsa where `cat` reads it (passes 66 C1, 69 H1, L1).
  ['rerere.enabled', 'false'],
];

/**
 * Of those, the ones whose neutral value would also switch off what the user set up for
 * themselves (their ssh command, credential helper, signing program): a Bash command gets these
 * only when the repository's own config names the key, so `git push` keeps the user's setup.
 */
export const USER_SETUP_KEYS = new Set([
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


/** Whether the guard switches this setting off (a program it names never runs). */
export function switchedOff(name: string): boolean {
  const lower = name.toLowerCase();
  if (GIT_PROGRAM_SETTINGS.some(([k]) => k.toLowerCase() === lower)) return true;
  return driverOverrides([name]).some(([k]) => k.toLowerCase() === lower && !k.endsWith('.required'));
}
