// What file a git setting's path value names. Git rewrites such a value before it opens it
// (interpolate_path and git_config_pathname): `~` and `~/` are $HOME, `~user/` is that user's home
// from the password database, `%(prefix)/` is the folder git was installed in, and newer git drops
// a leading `:(optional)`. Read as a plain path, `%(prefix)/../proc/self/cwd/../.ssh/id_rsa` looks
// like a file in the work tree while git opens the home folder's key. So every module that judges
// a git path value (an include, a file-valued setting, a remote on this machine) asks here, and
// nowhere else spells out git's rules. A target that cannot be worked out exactly as git's own
// process will (another user's home, git's install folder, `/proc/self`, which is git's process
// and not this one) is unknown, and an unknown target is never taken to be inside.
import { kernelJoin, procLocation } from '../fs/paths';

export type GitPathTarget = { path: string } | { unknown: string };

const OPTIONAL = ':(optional)';
const PREFIX = '%(prefix)/';

/** `/proc/self/…` and `/proc/thread-self/…` name the process that opens them: git, not Threadline. */
const OWN_PROCESS = /^\/proc\/(self|thread-self)(\/|$)/;

function readOne(value: string, base: string, home: string): GitPathTarget {
  if (value.startsWith(PREFIX)) return { unknown: `${PREFIX} is git's install folder` };
  let abs: string;
  if (value.startsWith('~')) {
    const slash = value.indexOf('/');
    const user = value.slice(1, slash < 0 ? undefined : slash);
    // The password database may not be /etc/passwd (LDAP, NIS), so another user's home is not guessed.
    if (user) return { unknown: `~${user} is a user's home folder Threadline does not look up` };
    // Git appends the rest to $HOME as text: `~//etc/x` is `$HOME//etc/x`, not `/etc/x`.
    abs = home + value.slice(1);
  } else abs = kernelJoin(base, value);
  // Walked as the kernel walks it, with /proc/self kept as written: a link on the way to it counts too.
  if (OWN_PROCESS.test(procLocation(abs))) return { unknown: '/proc/self there is git\'s own process' };
  return { path: abs };
}

/**
 * Every file a git path value may name, joined as git opens it (a relative value against `base`:
 * the including file's folder for an include, the work tree's top for a setting), each either
 * the path or why it cannot be known. Two when the value starts with `:(optional)`: older git
 * opens that name as written, newer git the name after the mark; both count.
 */
export function gitPathTargets(value: string, base: string, home: string): GitPathTarget[] {
  const spellings = value.startsWith(OPTIONAL) ? [value, value.slice(OPTIONAL.length)] : [value];
  return spellings.map((v) => readOne(v, base, home));
}
