// Which settings in a repository's own config git may obey inside a Bash command. Git has
// hundreds of settings and adds more; a list of the dangerous ones misses the next one (a tar
// format's command, a submodule's `update = !cmd`, a blame file read from the home folder). So
// this is the other way round: a setting passes when it is known to start nothing and read
// nothing outside the repository, or when the guard switches it off (gitGuard.ts); a setting that
// names a file passes when the file is inside the workspace; anything else stops the command and
// names the setting. A repository's config is its own to write only through a clone's defaults
// and the user's own commands, so a stop here is rare outside a downloaded `.git` folder.
import { join } from 'node:path';
import { isInside } from '../fs/paths';
import { existsSync } from '../fs/stat';
import type { ConfigEntry } from './gitConfigFile';
import { gitPathTargets } from './gitPath';
import { switchedOff } from './gitPrograms';

/** Sections whose every key starts nothing and reads no file outside (or is switched off by the guard). */
const PLAIN_SECTIONS = new Set([
  'user', 'color', 'advice', 'pull', 'push', 'fetch', 'gc', 'pack', 'repack', 'index', 'feature', 'rerere', 'status',
  'log', 'rebase', 'merge', 'diff', 'difftool', 'mergetool', 'filter', 'trailer', 'alias', 'credential', 'branch',
  'lfs', 'extensions', 'tag', 'commit', 'sequence', 'interactive', 'gpg', 'receive', 'uploadpack',
  'transfer', 'maintenance', 'column', 'i18n', 'grep', 'am', 'apply', 'checkout', 'clean', 'clone', 'stash', 'notes',
  'versionsort', 'worktree', 'splitindex', 'ssh', 'mailmap', 'web', 'man', 'browser', 'guitool', 'instaweb',
  'sendemail', 'imap', 'pager', 'include', 'includeif', 'format', 'blame', 'http', 'init', 'safe', 'submodule',
  'remote', 'url', 'core', 'gui', 'gitflow', 'help', 'bundle', 'fsmonitor', 'reset', 'showbranch', 'add',
  'bitmappseudomerge', 'repo', 'tar',
]);

/**
 * Keys that name a file git reads but are not named like one: the rest (`*file`, `*dir`, `*path`)
 * the suffix rule below judges the same way.
 */
const FILE_KEYS = new Set(['commit.template', 'http.sslcert', 'http.sslkey']);

/** Settings that run a program the guard cannot switch off by a value of its own. */
const PROGRAM_KEYS: readonly RegExp[] = [/^remote\..+\.vcs$/, /^tar\..+\.command$/, /^help\.browser$/, /^gui\.editor$/, /^lfs\.customtransfer\./, /^lfs\.extension\./];

/** core's keys that are plain; the rest of core (editor, pager and the like) the guard sets itself, or stop the command. */
const PLAIN_CORE = new Set([
  'repositoryformatversion', 'filemode', 'bare', 'logallrefupdates', 'ignorecase', 'precomposeunicode', 'symlinks', 'autocrlf', 'eol',
  'safecrlf', 'quotepath', 'compression', 'loosecompression', 'bigfilethreshold', 'abbrev', 'commentchar', 'commentstring',
  'whitespace', 'checkstat', 'trustctime', 'splitindex', 'untrackedcache', 'preloadindex', 'fscache', 'longpaths',
  'sparsecheckout', 'sparsecheckoutcone', 'multipackindex', 'commitgraph', 'fsync', 'fsyncmethod', 'fsyncobjectfiles',
  'packedgitlimit', 'packedgitwindowsize', 'deltabasecachelimit', 'warnambiguousrefs', 'notesref', 'protecthfs', 'protectntfs',
  'checkroundtripencoding', 'filesrefslockTimeout', 'packedrefstimeout', 'createobject', 'restrictinheritedhandles', 'unsetenvvars',
  'sharedrepository', 'hidedotfiles', 'usereplacerefs', 'maxtreedepth',
  // Files and the work tree: judged by where they are (below, and gitReach.ts).
  'excludesfile', 'worktree',
  // Set by the guard to values that launch nothing, whatever the repository says.
  'fsmonitor', 'hookspath', 'pager', 'alternaterefscommand', 'askpass', 'sshcommand', 'gitproxy', 'editor', 'attributesfile',
].map((k) => k.toLowerCase()));

/**
 * http's keys (also per URL, `http.<url>.<key>`) that only tune how git talks to the host its
 * remote names. The rest choose who is on the other end — a proxy, a certificate authority, no
 * certificate check, a name-to-address map, ciphers — and your credential helper's answer goes there.
 */
const PLAIN_HTTP = new Set([
  'postbuffer', 'lowspeedlimit', 'lowspeedtime', 'maxrequests', 'minsessions', 'version', 'useragent', 'noepsv', 'delegation',
  'extraheader', 'followredirects', 'emptyauth', 'proactiveauth', 'keepaliveidle', 'keepaliveinterval', 'keepalivecount',
  'savecookies', 'cookiefile', 'sslcert', 'sslkey', 'sslcerttype', 'sslkeytype', 'sslcertpasswordprotected', 'sslversion', 'ssltry',
  'sslbackend', 'pinnedpubkey', 'schannelcheckrevoke', 'schannelusesslcainfo', 'maxretries', 'maxretrytime', 'retryafter',
]);

/** remote's keys that name what to fetch and push, not how to reach it (url and pushurl are judged below). */
const PLAIN_REMOTE = new Set([
  'url', 'pushurl', 'fetch', 'push', 'mirror', 'skipdefaultupdate', 'skipfetchall', 'tagopt', 'prune', 'prunetags', 'promisor',
  'partialclonefilter', 'followremotehead', 'serveroption',
]);

const TRUE = /^(true|yes|on|1)$/i;

/** Program settings git reads first-come: the guard's neutral value cannot replace the repository's. */
const FIRST_WINS: readonly RegExp[] = [/^core\.gitproxy$/, /^remote\..+\.(uploadpack|receivepack)$/];

/** Settings the guard's environment overrides (GIT_EDITOR, GIT_SEQUENCE_EDITOR). */
const ENV_SET = new Set(['core.editor', 'sequence.editor']);

/** A URL or remote location that is a path on this machine (not `host:path`, not `scheme://` other than file). */
function localPath(url: string): string | undefined {
  if (/^file:\/\//i.test(url)) return url.replace(/^file:\/\/[^/]*/i, '') || '/';
  if (/^[a-z][a-z0-9+.-]*::/i.test(url) || /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  // scp-like `host:path` has a colon before any slash.
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash)) return undefined;
  return url;
}

/** The longest value, and the most parts, placed as a path (git's own PATH_MAX is 4,096). */
const MAX_PATH_VALUE = 4096;
const MAX_PATH_PARTS = 256;

export interface SettingContext {
  /** The workspace folder: files and local remotes must lie inside it. */
  workspace: string;
  /** The folder holding `.git`: what a relative path in the config is read against. */
  top: string;
  home: string;
}

/**
 * Why a path value of the repository's leads outside the workspace as git reads it, or undefined
 * when every file it may name is inside. A target git finds by a rule Threadline does not follow
 * exactly (`%(prefix)/`, `~user/`, `/proc/self`) counts as outside.
 */
function outside(path: string, ctx: SettingContext): string | undefined {
  for (const target of gitPathTargets(path, ctx.top, ctx.home)) {
    if ('unknown' in target) return `a file Threadline cannot place exactly as git does (${target.unknown})`;
    if (!isInside(ctx.workspace, target.path)) return 'outside the workspace';
  }
  return undefined;
}

/**
 * A remote (or URL rewrite, or submodule) that is another repository on this machine, outside the
 * workspace: fetching from it would copy that repository's history in. Not a reason to stop every
 * command (local clones are common); the guard turns off git's local transport instead.
 */
export const LOCAL_REMOTE = 'local-remote';

/** Why git must not obey this setting inside a Bash command, LOCAL_REMOTE, or undefined when it may. */
export function settingRefusal(e: ConfigEntry, ctx: SettingContext): string | undefined {
  const first = e.name.indexOf('.');
  const last = e.name.lastIndexOf('.');
  const section = first < 0 ? '' : e.name.slice(0, first);
  const key = e.name.slice(last + 1);
  const sub = first < last ? e.name.slice(first + 1, last) : undefined;
  const bare = `${section}.${key}`;
  if (!PLAIN_SECTIONS.has(section)) return `sets ${e.name}, a setting Threadline does not know to be safe for git to obey`;
  // Git keeps the first value it reads for these, so an override given after the repository's is never read.
  if (FIRST_WINS.some((r) => r.test(e.name))) return `sets ${e.name}, which names a program git runs; git keeps the repository's value over any given later`;
  if (PROGRAM_KEYS.some((r) => r.test(e.name))) return `sets ${e.name}, which names a program git runs`;
  // A repository asking for the certificate check is asking for the default.
  const checked = key === 'sslverify' && (e.value === undefined || TRUE.test(e.value.trim()));
  if ((section === 'http' && !PLAIN_HTTP.has(key) && !checked) || (section === 'remote' && sub !== undefined && !PLAIN_REMOTE.has(key))) {
    return `sets ${e.name}, which chooses where git's connections go or whom they trust, and so who receives your credentials`;
  }
  if (section === 'core' && sub === undefined && !PLAIN_CORE.has(key)) return `sets ${e.name}, a setting Threadline does not know to be safe for git to obey`;
  if (section === 'submodule' && key === 'update' && e.value?.trimStart().startsWith('!')) return `sets ${e.name} to a command, which git runs on submodule update`;
  if ((section === 'remote' && (key === 'url' || key === 'pushurl')) || (section === 'submodule' && key === 'url') || (section === 'url' && (key === 'insteadof' || key === 'pushinsteadof'))) {
    const where = section === 'url' ? sub : e.value;
    const local = where === undefined ? undefined : localPath(where);
    if (local !== undefined && outside(local, ctx)) return LOCAL_REMOTE;
  }
  const away = (): string | undefined => (e.value ? outside(e.value, ctx) : undefined);
  const file = FILE_KEYS.has(bare) ? away() : undefined;
  if (file) return `sets ${e.name} to ${e.value}, ${file}, which git would read`;
  // Beyond the lists: a setting named like a program is one, and one named like a file or folder
  // is judged by where it leads (format.outputDirectory writes there), unless the guard sets it.
  if (section === 'include' || section === 'includeif' || ENV_SET.has(e.name) || switchedOff(e.name)) return undefined;
  if (/(cmd|command|program|helper|editor|pager|exec|hook|script)$/.test(key)) return `sets ${e.name}, which names a program git runs`;
  const named = /(file|dir|directory|path|prefix)$/.test(key) && key !== 'worktree' ? away() : undefined;
  if (named) return `sets ${e.name} to ${e.value}, ${named}, where git would read or write`;
  // Git reads paths under names no suffix gives away (fetch.fsck.skipList printed the first line of
  // ~/.git-credentials, pass 51 N1; fetch.bundleURI), and a path need not look like one: a name in
  // the work tree that is a committed link (`skipList = ci/k3`), `%(prefix)//abs` (pass 54 P1). So
  // every value is judged as the path git would open, whatever its key: one that leads outside
  // the workspace, or that git would place by a rule not followed here, stops the command.
  if (key === 'worktree' || !e.value) return undefined;
  // Git keeps a quoted tab or a no-break space that JavaScript's trim() drops (pass 57 C1): the value
  // is judged as written and as trimmed.
  for (const value of new Set([e.value, e.value.trim()])) {
    const spelled = /^file:/i.test(value) ? localPath(value) : value;
    if (!spelled) continue;
    // A plain relative value (`0`, `refs/heads/main`) is a path only where something is there: with
    // the repository above the workspace, its top is outside, and every word would be.
    const pathLike = /^(\/|~|\\|%\()|(^|[/\\])\.\.([/\\]|$)/.test(spelled) || (spelled.length <= MAX_PATH_VALUE && existsSync(join(ctx.top, spelled)));
    if (!pathLike) continue;
    // Placing a path walks it a name at a time: a value of a thousand parts cost minutes (pass 57 M1).
    if (spelled.length > MAX_PATH_VALUE || spelled.split(/[/\\]/).length > MAX_PATH_PARTS) return `sets ${e.name} to a path too long to place`;
    const where = outside(spelled, ctx);
    if (where) return `sets ${e.name} to ${JSON.stringify(e.value)}, which as a path is ${where}, and git may read or write it`;
  }
  return undefined;
}
