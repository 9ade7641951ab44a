import { hostname } from 'node:os';
import { isAbsolute } from 'node:path';
import { mayMatchName } from '../tools/glob';
import type { BashAnalysis } from './bash/analyze';
import { commandBase, OPENS_NO_FILES } from './bash/commands';
import { GLOB_CHARS, mayClimb } from './bash/glob';
import { pathArgs } from './bash/pathArgs';
import { tilde, workingFolders, type PathScope } from './bashPaths';
import { folderChanges, innerRuns, unshapedGlobs, valuesOf } from './bash/builtValues';

// How far a word the /proc guard (bashProc.ts) cannot read as a plain path may reach: a glob an
// inner shell expands its own way, a value the script assigns, a cd it computes.

/**
 * Whether a glob (absolute) may match `target` or something inside it, segment by segment, in
 * either case (nocaseglob, set inside an inner shell where the checks do not see it), and with a
 * segment that may match `..` taken as going up (`/tmp/.*\/pro[c]` in dash, or bash told
 * `+O globskipdots`, pass 71 H1, H2).
 */
export function globReaches(pattern: string, target: string): boolean {
  return upVariants(pattern.split('/').filter(Boolean)).some((ps) => segmentsReach(ps, target.split('/').filter(Boolean)));
}

/** At most this many segments that may match `..` are tried both ways; past it, any may. */
const MAX_UP_SEGMENTS = 4;

function upVariants(ps: readonly string[]): string[][] {
  let variants: string[][] = [[]];
  let ups = 0;
  for (const seg of ps) {
    const up = mayClimb(seg);
    if (up && ++ups > MAX_UP_SEGMENTS) return [['*', '*', '*', '*', '*', '*', '*', '*']];
    variants = variants.flatMap((v) => (up ? [[...v, seg], v.slice(0, -1)] : [[...v, seg]]));
  }
  return variants;
}

function segmentsReach(ps: readonly string[], ts: readonly string[]): boolean {
  for (let i = 0; i < Math.min(ps.length, ts.length); i++) {
    const seg = ps[i]!;
    const t = ts[i]!;
    // An extglob group (`@(p)roc`) is taken as matching, as a deny rule's pattern check takes it.
    const ok = /[?*+@!]\(/.test(seg) || (GLOB_CHARS.test(seg) ? mayMatchName(seg, t) || mayMatchName(seg.toLowerCase(), t.toLowerCase()) || mayMatchName(seg.toUpperCase(), t.toUpperCase()) : seg.toLowerCase() === t.toLowerCase());
    if (!ok) return false;
  }
  return ps.length >= ts.length;
}


/**
 * A cd, pushd or popd whose folder the script computes (`cd $(dirname /tmp)`, `cd $X`, `cd -`),
 * with a program after it that may open a relative name, or walk where it runs (`grep -r x`).
 */
export function cdsUnknown(a: BashAnalysis, scope: Pick<PathScope, 'cwd' | 'home'>): boolean {
  const all = [...a.commands, ...a.runs];
  const moves = new Set(folderChanges(a));
  // A computed command name may be a cd to anywhere; workingFolders knows only cd and pushd words.
  const at = all.findIndex((c) => moves.has(c) && (c.words[0] === undefined || workingFolders([c], scope) === undefined));
  if (at < 0) return false;
  return all.slice(at + 1).some((c) => {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    if (name === undefined) return true;
    if (OPENS_NO_FILES.has(name) || ['cd', 'pushd', 'popd'].includes(name)) return false;
    const args = pathArgs(c);
    return args.length === 0 || args.some((p) => p.text === undefined || !isAbsolute(tilde(p.text, scope.home) ?? p.text));
  });
}

/**
 * Why the script may walk or keep the root by a value it computes (pass 77 H3): a kept path with
 * `..` built from another value (`r=$s/..`), or a folder walked whole (`find $r`, `grep -r x $d`)
 * whose value is not known as written. Undefined when neither.
 */
export function computedFolder(a: BashAnalysis, script: string, scope: Pick<PathScope, 'home'>): string | undefined {
  if (/(^|[\s;&|(])[A-Za-z_]\w*\+?=\S*(\$\S*\.\.|\.\.\S*\$)/.test(script)) return 'keeps a path with .. built from a value computed when it runs, which may be the root';
  for (const c of [...a.commands, ...innerRuns(a)]) {
    const walks = c.words[0] === 'find' || c.words[0] === 'du' || c.words[0] === 'tree' || c.words.slice(1).some((w) => w !== undefined && /^-[A-Za-z]*[rR]/.test(w));
    if (!walks) continue;
    const notFiles = new Set<number>();
    pathArgs(c, notFiles);
    // find walks the folders before its expression; the words after it (`-exec cat {} ;`) are not folders.
    const end = c.words[0] === 'find' ? findExpressionStart(c.words) : c.words.length;
    for (let i = 1; i < end; i++) {
      const shape = c.shapes?.[i];
      if (c.words[i] !== undefined || notFiles.has(i) || unshapedGlobs(c)) continue;
      // Any other computed word it may take as a folder (`${x:-/}`, `"$@"`, `$(…)`) may be the root too (pass 83 H1, H2).
      if (shape?.kind !== 'variable') return `gives ${c.words[0]} a folder computed when it runs, which may be the root`;
      if (shape.before !== '' || shape.after.startsWith('/')) continue;
      if (valuesOf(shape.name, a, scope, script) === undefined) return `gives ${c.words[0]} $${shape.name}, a folder computed when it runs, which may be the root`;
    }
  }
  return undefined;
}

/** Programs that build text from other text: their output, as a file name, is any name at all. */
const TEXT_BUILDERS: ReadonlySet<string> = new Set(['echo', 'printf', 'tr', 'rev', 'base64', 'base32', 'basenc', 'xxd', 'od', 'sed', 'awk', 'gawk', 'mawk', 'perl', 'python', 'python3', 'node', 'ruby', 'iconv', 'cut', 'paste', 'jq', 'dd', 'fold', 'envsubst']);

/**
 * Why the script may hand a program a file name another command built from text
 * (`grep x $(echo /cebp/… | tr a-z n-za-m)`, pass 80 H1), or a folder it walks through links it
 * made itself (`ln -s .. a; ln -s a/.. b; grep -r x b/p?oc`): neither is a word the checks read.
 */
export function builtNames(a: BashAnalysis): string | undefined {
  const all = [...a.commands, ...a.runs];
  const linking = all.findIndex((c) => c.words[0] !== undefined && ['ln', 'cp'].includes(commandBase(c.words[0])) && c.words.slice(1).some((w) => w === undefined || /^-[A-Za-z]*s|^--symbolic/.test(w)));
  // A link alone reads nothing; one followed by more of the command may be read through.
  if (linking >= 0 && a.commands.length > 1) {
    return 'makes a symbolic link, through which a later part may reach /proc';
  }
  const builds = all.find((c) => c.words[0] !== undefined && TEXT_BUILDERS.has(commandBase(c.words[0])));
  if (!builds) return undefined;
  const given = all.find((c) => c.words[0] !== undefined && !OPENS_NO_FILES.has(commandBase(c.words[0])) && c.words.slice(1).some((w, i) => w === undefined && c.shapes?.[i + 1]?.kind === 'computed'));
  return given ? `gives ${given.words[0]} a word another command computes when it runs (${builds.words[0]} builds text), which may name /proc` : undefined;
}

/** Where find's expression starts: after its leading options (-H, -L, -P, -D x, -O3) and its start folders. */
function findExpressionStart(words: readonly (string | undefined)[]): number {
  let i = 1;
  while (i < words.length && /^-([HLP]|O\d*|D)$/.test(words[i] ?? '')) i += words[i] === '-D' ? 2 : 1;
  // A computed word among the folders is one of them: it counts (the caller asks on it).
  while (i < words.length && (words[i] === undefined || !/^[-(!]/.test(words[i]!))) i++;
  return i;
}

/**
 * Programs that hand a command to a process outside the command's own user namespace (a terminal
 * multiplexer's server, systemd, cron, at, D-Bus, an editor's server, a login over ssh, root's
 * container daemon): what it runs there may read the agent's /proc (pass 86 H3).
 */
const DELEGATES: ReadonlySet<string> = new Set([
  'tmux', 'tmate', 'screen', 'zellij', 'byobu', 'systemd-run', 'systemctl', 'at', 'batch', 'crontab', 'dbus-send', 'gdbus', 'busctl', 'qdbus',
  'emacsclient', 'kitty', 'wezterm', 'machinectl', 'nsenter', 'flatpak-spawn', 'pkexec', 'sudo', 'doas', 'su', 'runuser',
]);
const CONTAINERS: ReadonlySet<string> = new Set(['docker', 'podman', 'nerdctl']);

/** Why the script may run a command outside its namespace, or undefined. */
export function delegatedRun(a: BashAnalysis): string | undefined {
  for (const c of [...a.commands, ...a.runs]) {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    // `t=tm; ${t}ux run-shell …`, `$(echo tmux)`, `/usr/bin/tm?x` (pass 89 H1): any program at all.
    if (name === undefined) return 'runs a program whose name is computed when it runs, which may hand a command to a process outside its namespace';
    // SIGUSR1 opens a Node process's debugger, SIGQUIT a JVM's attach listener, outside the namespace
    // (pass 89 C1, 92 H2, H3): a signal other than the ones that only end a process asks, however spelled.
    // `xargs kill`, `parallel kill`: the signal may come from the input (pass 98 H2).
    if (['xargs', 'parallel'].includes(name) && c.words.slice(1).some((w) => w === undefined || SIGNALLERS.has(commandBase(w)))) return `hands ${name}'s input to a program that sends signals, whose signal the input may choose`;
    if (SIGNALLERS.has(name)) {
      if (!signalsEnd(name, c.words)) return `runs ${name} with a signal other than one that ends a process (a Node process opens its debugger on SIGUSR1, a JVM its attach listener on SIGQUIT), through which code runs outside its namespace`;
    }
    // A raw connection to a local socket (`curl --unix-socket /tmp/.java_pid…`, tmux's, D-Bus's) hands over what it sends.
    if (name === 'curl' && c.words.some((w) => w === undefined || /^--(abstract-)?unix-socket/.test(w))) return 'sends to a local socket with curl, through which a server outside its namespace may run what it is sent';
    if (['socat', 'nc', 'ncat', 'netcat'].includes(name) && c.words.some((w) => w === undefined || /^-[A-Za-z]*U$|unix-(connect|client|sendto)|^abstract/i.test(w))) return `connects ${name} to a local socket, through which a server outside its namespace may run what it is sent`;
    // git runs an alias that starts with `!` in a shell: `git -c alias.x='!tmux …' x`.
    if (name === 'git' && c.words.some((w) => w === undefined || /^alias\.[^=]*=\s*!/i.test(w))) return 'runs a git alias that is a shell command the checks do not read';
    if (DELEGATES.has(name) || (name === 'nvim' && c.words.some((w) => w === undefined || /^--(server|remote)/.test(w))) || ((name === 'ssh' || name === 'mosh') && sshesHere(c.words))) return `hands a command to ${name}, which runs it outside this command's own namespace, where the agent's process may be read`;
    // The daemon is root: a container given the host's folders, processes or privileges reaches /proc (`-v /:/h`, `--pid=host`); exec and compose use what a container was given earlier.
    if (CONTAINERS.has(name) && c.words.slice(1).some((w) => w === undefined || /^(exec|compose|-v|--volume|--mount|--pid|--privileged|--cap-add|--device|--userns|--security-opt)/.test(w))) {
      return `runs ${name} with the host's folders, processes or privileges, which its root daemon may hand to a container`;
    }
  }
  return undefined;
}

/** ssh's options that take the next word as their value. */
const SSH_VALUED = /^-[BbcDEeFIiJLlmOoPpQRSWw]$/;

/**
 * Whether ssh (or mosh) may log in to this machine: a host that is this one by name or address, or
 * one the command computes. sshd runs the login outside the command's namespace; a remote host
 * cannot reach this machine's /proc. A host in ~/.ssh/config that names this machine is not seen.
 */
function sshesHere(words: readonly (string | undefined)[]): boolean {
  let i = 1;
  while (i < words.length && words[i] !== undefined && words[i]!.startsWith('-')) i += SSH_VALUED.test(words[i]!) ? 2 : 1;
  const target = words[i];
  if (target === undefined) return i < words.length;
  const host = target.replace(/^ssh:\/\//, '').replace(/^[^@]*@/, '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || host === '0.0.0.0' || host === '0' || host === hostname().toLowerCase() || /^localhost\./.test(host);
}

/** Programs that send signals by pid, by name or by the files a process holds. */
const SIGNALLERS: ReadonlySet<string> = new Set(['kill', 'pkill', 'killall', 'killall5', 'skill', 'snice', 'pgrep', 'fuser']);
/** Signals that only end (or hang up) a process, as a signalling program's word may spell them: anything else may make one do something. */
const ENDING = /^(SIG)?(TERM|KILL|INT|HUP)$|^(15|9|2|1)$/i;
/** Each program's options that take no signal, and those that take a value that is not one: the letters mean different things in each (killall's -g is a flag, pkill's a value, pass 98 H1). */
const OPTIONS: Record<string, { plain: RegExp; valued: RegExp }> = {
  kill: { plain: /^-[lL]$/, valued: /^$/ },
  pkill: { plain: /^-[fxnoecilav]+$|^--(full|exact|newest|oldest|echo|count|ignore-case|list-name|list-full|inverse)$/, valued: /^-[uUPGgtF]$|^--(euid|uid|parent|group|pgroup|terminal|session|pidfile)$/ },
  killall: { plain: /^-[eIgiqrvw]+$|^--(exact|ignore-case|process-group|interactive|quiet|regexp|verbose|wait)$/, valued: /^-[uoynZ]$|^--(user|older-than|younger-than|ns|context)$/ },
  fuser: { plain: /^-[kmMuvsaw4-6]+$/, valued: /^$/ },
};
OPTIONS.pgrep = OPTIONS.pkill!;

/**
 * Whether a signalling command sends only signals that end a process (TERM when none is given).
 * Deny-by-default: an option it does not know, a signal spelled any other way (`-010`, `-qs USR1`,
 * `-0x0a`), or a computed word, is not (pass 92 H2, 95 H1, H2).
 */
function signalsEnd(name: string, words: readonly (string | undefined)[]): boolean {
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === undefined) return false;
    if (w === '--') break;
    if (!w.startsWith('-')) continue;
    if (w === '-s' || w === '--signal' || (name === 'kill' && w === '-n')) {
      const v = words[++i];
      if (v === undefined || !ENDING.test(v)) return false;
    } else if (/^--signal=/.test(w)) {
      if (!ENDING.test(w.slice(9))) return false;
    } else if (ENDING.test(w.slice(1))) continue;
    else if (OPTIONS[name]?.valued.test(w)) i++;
    else if (!OPTIONS[name]?.plain.test(w)) return false;
  }
  return true;
}
