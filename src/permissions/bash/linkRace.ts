// A compound command is judged before any part of it runs, so a file a later part names is
// judged as it is now. A part that checks out, unpacks, copies or moves files can first turn that
// name into a link to anywhere (`git checkout evil -- l && cat l`, `tar -xf x.tar && cat l`), and
// the later part then reads or writes through it. Which programs never make or move a link is a
// short list; anything else, given alongside a part that names files, asks.
import { commandBase, gitVerbIndex, OPENS_NO_FILES, type SimpleCommand } from './commands';
import { runsProjectCode } from './options';

/** Programs that make, move and replace no link (they may write regular files and folders). */
const MAKES_NO_LINKS: ReadonlySet<string> = new Set([
  'echo', 'printf', 'cat', 'tac', 'head', 'tail', 'wc', 'nl', 'cut', 'paste', 'column', 'tr', 'fold', 'fmt', 'expand',
  'unexpand', 'rev', 'comm', 'cmp', 'diff', 'uniq', 'strings', 'hexdump', 'od', 'xxd', 'base64', 'base32', 'basenc',
  'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'file', 'stat', 'ls',
  'du', 'df', 'tree', 'pwd', 'basename', 'dirname', 'realpath', 'readlink', 'true', 'false', 'test', '[', ':', 'touch', 'mkdir',
  'rmdir', 'rm', 'chmod', 'grep', 'egrep', 'fgrep', 'rg', 'jq', 'date', 'whoami', 'id', 'groups', 'uname', 'hostname', 'tty',
  'nproc', 'arch', 'printenv', 'which', 'seq', 'yes', 'sleep', 'truncate', 'mktemp', 'csplit', 'join', 'shuf', 'factor',
  'expr', 'numfmt', 'tsort', 'pr', 'cd', 'pushd', 'popd', 'dirs', 'umask', 'wait', 'read', 'exit', 'return', 'shift',
  'break', 'continue', 'set', 'unset', 'shopt', 'sort', 'sed', 'awk', 'gawk', 'mawk', 'nawk', 'tee', 'less', 'more',
]);

/** git verbs that leave the work tree's files as they are (they read it, or write only git's own data). */
const GIT_TREE_KEPT: ReadonlySet<string> = new Set([
  'status', 'log', 'diff', 'show', 'add', 'commit', 'branch', 'tag', 'fetch', 'push', 'remote', 'config', 'rev-parse', 'ls-files',
  'grep', 'blame', 'describe', 'shortlog', 'rm', 'init', 'notes', 'reflog', 'version', 'help', 'count-objects', 'for-each-ref',
  'symbolic-ref', 'merge-base', 'cat-file', 'hash-object', 'ls-tree', 'ls-remote', 'diff-tree', 'diff-files', 'diff-index',
  'whatchanged', 'range-diff', 'rev-list', 'name-rev', 'check-ignore', 'check-attr', 'fsck', 'gc', 'var', 'verify-commit', 'verify-tag',
]);


function gitVerbOf(c: SimpleCommand): string | undefined {
  const at = gitVerbIndex(c.words);
  return at < 0 ? undefined : c.words[at];
}

/** The name of a part that may make, move or replace a link, or undefined when it cannot. */
function linkMaker(c: SimpleCommand): string | undefined {
  const head = c.words[0];
  if (head === undefined) return 'a command whose name is computed';
  const name = commandBase(head);
  if (name === 'git') {
    const verb = gitVerbOf(c);
    return verb !== undefined && GIT_TREE_KEPT.has(verb) ? undefined : `git ${verb ?? ''}`.trim();
  }
  return MAKES_NO_LINKS.has(name) ? undefined : name;
}

/** Whether a part names anything that may be a file: a word other than an option, or a computed one. */
function namesFiles(c: SimpleCommand): boolean {
  const head = c.words[0];
  if (head !== undefined && OPENS_NO_FILES.has(commandBase(head))) return false;
  // A test runner or build tool runs the project's code, which reaches any file by itself once
  // the rule lets it run: a link made before it gives it nothing more.
  if (head !== undefined && runsProjectCode(commandBase(head))) return false;
  // git's verb is no file; what follows it may be.
  const verb = head !== undefined && commandBase(head) === 'git' ? gitVerbOf(c) : undefined;
  const from = verb === undefined ? 1 : c.words.indexOf(verb) + 1;
  return c.words.slice(from).some((w) => w === undefined || !w.startsWith('-') || w.includes('='));
}

/**
 * Why the files the checked parts name cannot be judged before the command runs: another part
 * may first make them links. `all` is every part of the script; `checked` those whose files are
 * judged (the parts a rule naming a prefix let through); `redirects` whether it reads `< file`.
 */
export function linkRace(all: readonly SimpleCommand[], checked: readonly SimpleCommand[], redirects: boolean): string | undefined {
  if (all.length < 2) return undefined;
  for (const maker of all) {
    const what = linkMaker(maker);
    if (what === undefined) continue;
    const named = checked.find((c) => c !== maker && namesFiles(c));
    if (named || redirects) {
      const other = named?.words[0] !== undefined ? commandBase(named.words[0]) : 'a redirection';
      return `${what} runs in the same command as ${other}, and may first turn a file ${other} is given into a link leading outside the workspace; the files cannot be judged before it runs.`;
    }
  }
  return undefined;
}
