import { commandBase, gitVerbIndex, spellsOption, type SimpleCommand } from './commands';

/** git verbs that print names and states, never a file's content. */
const GIT_NAMES_ONLY: ReadonlySet<string> = new Set([
  'status', 'branch', 'tag', 'remote', 'rev-parse', 'ls-remote', 'fetch', 'switch', 'checkout', 'init', 'config', 'worktree', 'describe',
  'merge-base', 'symbolic-ref', 'for-each-ref', 'count-objects', 'version', 'help', 'add', 'commit', 'push', 'log',
]);

/**
 * git works on the whole tree without being given it: `git grep --untracked x`, `git add -A && git
 * diff --cached` print files no word of the command names. Such a command counts as given the
 * folder it runs in (its verb, for messages), unless its verb prints no file's content.
 */
export function wholeTreeGit(c: SimpleCommand): string | undefined {
  if (c.words[0] === undefined || commandBase(c.words[0]) !== 'git') return undefined;
  // git's own options take values (`-C .`): the verb is after them (pass 41 G1).
  const at = gitVerbIndex(c.words);
  const verb = c.words[at];
  // git expands a pathspec itself (`git add -f '*'`, `':(glob)**'`): such a word names the tree, denied files too.
  const takesIn = verb === 'add' || verb === 'commit';
  const printsContent = c.words.slice(at + 1).some((w) => w === undefined || (verb !== undefined && contentOption(verb, w)) || (takesIn && !w.startsWith('-') && /^:|[*?[\\]/.test(w)));
  return verb !== undefined && GIT_NAMES_ONLY.has(verb) && !printsContent ? undefined : `git ${verb ?? ''}`.trim();
}

/**
 * Options by which a verb that prints names prints a file's text instead (pass 64 C1-M3): `status
 * -v` shows the diff, `config --blob HEAD:f`/`-f f` reads a file as config, a `--format` with
 * `%(raw)` or `%(contents)` and `tag -n` show what a ref points at (a tag of a blob is the file),
 * `checkout -p` shows hunks, `tag -F f` takes its message from a file.
 */
/** The options of add, commit and log that keep them to names and messages (a value glued with `=` or given next). */
const NAMES_ONLY_OPTIONS: Readonly<Record<string, RegExp>> = {
  // Not -A, -u or commit's -a: they take in every file of the tree, denied ones too, which a push
  // then sends (pass 73 C1); `git add .` is judged by its word, these by the folder.
  add: /^(--|-[Nfvn]+|--(intent-to-add|force|verbose|dry-run|no-all|ignore-removal|sparse|ignore-errors|refresh)|--chmod=[+-]x)$/,
  commit: /^(-[qsn]+|-[qsn]*m.*|--(message|author|date|fixup|squash|reuse-message|reedit-message|cleanup|trailer)(=.*)?|--(quiet|allow-empty|allow-empty-message|amend|no-edit|signoff|no-signoff|no-verify|no-gpg-sign|reset-author|only|include|no-post-rewrite|status|no-status))$/,
  log: /^(-\d+|-n\d*|--(oneline|graph|all|branches|tags|remotes|reverse|abbrev-commit|no-merges|merges|first-parent|decorate|no-decorate|name-only|name-status|no-walk|left-right|source|relative-date|no-color|date-order|topo-order|author-date-order|full-history|simplify-merges|ancestry-path|boundary|walk-reflogs)|--(max-count|skip|author|committer|since|until|after|before|date|format|pretty|grep|decorate|color|abbrev|branches|tags|remotes|glob|exclude)=.*|-[ig])$/,
};

function contentOption(verb: string, w: string): boolean {
  const long = (o: string) => w.startsWith('--') && spellsOption(w, o);
  const short = (letters: string) => new RegExp(`^-[a-zA-Z0-9]*[${letters}]`).test(w) && !w.startsWith('--');
  switch (verb) {
    case 'status':
      return long('--verbose') || short('v');
    case 'config':
      return long('--blob') || long('--file') || short('f');
    case 'tag':
    case 'branch':
    case 'for-each-ref':
      return long('--format') || long('--file') || (verb === 'tag' && short('nF')) || /%\((raw|contents|body|subject|trailers)/.test(w);
    case 'checkout':
    case 'switch':
      return long('--patch') || short('p');
    // add, commit and log print names only with the options listed: any other prints, or may
    // print, a file's text (`log -U3`, `commit --long` with commit.verbose, pass 67 C1, H1).
    case 'add':
    case 'commit':
    case 'log':
      return w.startsWith('-') && !NAMES_ONLY_OPTIONS[verb]!.test(w);
    default:
      return false;
  }
}

/** `git config` options that keep a read to the repository's own files, with no include followed. */
const CONFIG_OWN_SCOPE = /^--(local|worktree)$/;

/**
 * Why `c` prints settings from your own git config files, outside the workspace (`git config -l`,
 * `git config --global --get github.token`, `git var -l`), and every file they include (pass 70 H1);
 * undefined when it does not. A read kept to the repository (`--local`, `--worktree`, no
 * `--includes`) and a write are judged elsewhere.
 */
export function gitReadsUserConfig(c: SimpleCommand): string | undefined {
  if (c.words[0] === undefined || commandBase(c.words[0]) !== 'git') return undefined;
  const at = gitVerbIndex(c.words);
  const verb = c.words[at];
  const args = c.words.slice(at + 1);
  if (verb === 'var') return args.some((w) => w === undefined || w === '-l') ? 'git var -l prints the settings of your own git config files, outside the workspace' : undefined;
  // A remote's URL as your own `url.<base>.insteadOf` rewrites it, a token in it too (pass 73 H1).
  const urls = verb === 'remote' ? args.some((w) => w === undefined || /^(-v|--verbose|get-url|show)$/.test(w)) : verb === 'ls-remote' && args.some((w) => w === undefined || spellsOption(w, '--get-url'));
  if (urls) return `git ${verb} prints remote URLs as your own git config rewrites them (url.*.insteadOf), which may hold a token`;
  // Your aliases, by `help -a` or by name (pass 73 L1).
  if (verb === 'help' && args.length > 0) return 'git help prints your own aliases from your git config files';
  if (verb !== 'config') return undefined;
  if (args.some((w) => w === undefined)) return 'git config is given a word computed when it runs, and may print the settings of your own git config files';
  const own = args.some((w) => CONFIG_OWN_SCOPE.test(w!)) && !args.some((w) => spellsOption(w!, '--includes'));
  if (own) return undefined;
  // A write names a key and a value, or says what it changes; every other form prints.
  const options = args.filter((w) => w!.startsWith('-'));
  const operands = args.filter((w) => !w!.startsWith('-'));
  const writes = options.some((w) => /^--(add|unset|unset-all|replace-all|rename-section|remove-section)$/.test(w!)) || ['set', 'unset', 'rename-section', 'remove-section'].includes(operands[0] ?? '') || (operands.length >= 2 && !options.some((w) => /^--(get|get-all|get-regexp|get-urlmatch|list|get-color|get-colorbool)$|^-[a-zA-Z]*l/.test(w!)) && !['get', 'list'].includes(operands[0] ?? ''));
  return writes ? undefined : 'git config prints the settings of your own git config files (~/.gitconfig and the files it includes), outside the workspace';
}

/** A word that names a repository rather than a remote: a URL, `user@host:path`, or a path. */
// scp's `host:path` needs a dotted host to be told from a refspec (`main:feature/x`, `HEAD:refs/…`).
const REPOSITORY_WORD = /^[A-Za-z][\w+.-]*:\/\/|^[^\s/:@]+@[^\s/:]+:|^[^\s/:]+\.[^\s/:]+:(?!refs\/)[^\s]*\/|^(\/|\.|~)/;

/**
 * Why `c` fetches from or pushes to a repository it names by URL or path, not a remote your config
 * names: a pull or a fetch then checkout brings the model's chosen commit into the tree (a
 * `.claude/settings.json` included, pass 75 C1), and a push sends every committed file, denied
 * ones too, where the model chose (pass 75 H1). Any word of the command that reads as one counts,
 * wherever options put it (`-X theirs URL`, `--jo 2 URL`, `--rep=URL`, pass 78 C1, H1); a clone or
 * a submodule added by URL is judged by where it is put (pass 78 C2). Undefined for a remote's name.
 */
export function gitForeignRepository(c: SimpleCommand): string | undefined {
  if (c.words[0] === undefined || commandBase(c.words[0]) !== 'git') return undefined;
  const at = gitVerbIndex(c.words);
  const verb = c.words[at];
  const args = c.words.slice(at + 1);
  if (verb === 'clone' || (verb === 'submodule' && args.includes('add'))) {
    // Without a folder named, git names it after the URL (`git://h/.claude.git` makes `.claude`).
    const operands = args.filter((w) => w === undefined || (!w.startsWith('-') && w !== 'add'));
    const url = operands[0];
    const dir = operands[1] ?? url?.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/:]/).pop();
    if (dir === undefined || dir.startsWith('.')) return `git ${verb} puts the repository in ${dir ?? 'a folder known only when it runs'}, named after the URL, which may be a folder Threadline always asks before writing (.claude, .vscode)`;
    return undefined;
  }
  // A remote the command adds or points elsewhere is one a later `git pull NAME` takes as yours (pass 78 C1).
  if (verb === 'remote' && args.some((w) => w === undefined || w === 'add' || w === 'set-url')) return 'git remote sets where a remote fetches from and pushes to, a repository the command names, which later fetches, pulls and pushes take as one your config names';
  if (verb !== 'fetch' && verb !== 'pull' && verb !== 'push') return undefined;
  for (const w of args) {
    if (w === undefined) return `git ${verb} is given a word computed when it runs, which may be a repository's URL`;
    const value = w.startsWith('-') ? (w.includes('=') ? w.slice(w.indexOf('=') + 1) : '') : w;
    if (REPOSITORY_WORD.test(value) || (w.startsWith('--rep') && !w.includes('='))) return foreign(verb, value || 'a repository the next word names');
    // `--refmap=+refs/pull/*/head:…` maps what a fetch brings as a refspec does.
    const refspec = w.startsWith('-') ? (/^--refm/.test(w) ? (w.includes('=') ? value : '*') : undefined) : w;
    if (verb !== 'push' && refspec !== undefined && strangersRef(refspec)) return `git ${verb} brings ${refspec}, a ref or commit of your remote that is none of its branches or tags (anyone may open a pull request), whose files a merge writes: an approved MCP server's script, .claude/ settings`;
  }
  return undefined;
}

/**
 * Where a remote keeps commits anyone may offer (GitHub's and Gitea's `refs/pull/`, GitLab's
 * `refs/merge-requests/`, Gerrit's `refs/changes/`, Bitbucket's `refs/pull-requests/`), or any
 * other ref but a branch or a tag, or an object id: a rule for `git pull` means your branches.
 * git looks a short name up under `refs/` first, so `pull/5/head` is `refs/pull/5/head` (pass 84 H1).
 */
function strangersRef(word: string): boolean {
  const source = word.replace(/^[+^]/, '').split(':')[0]!;
  if (/^[0-9a-f]{7,64}$/i.test(source)) return true;
  // A pattern (`*/pull/5/head`, `re*/pull/…`, `*`) matches any namespace: only your branches' and tags' own patterns pass (pass 87 H1).
  if (/[*?[\\]/.test(source)) return !/^refs\/(heads|tags)\/[^*?[\\]*\*?$/.test(source);
  if (source.startsWith('refs/')) return !/^refs\/(heads|tags)\//.test(source);
  return /^(pull|merge-requests|changes|pull-requests|remotes|notes|prefetch)\//.test(source);
}

const foreign = (verb: string, where: string) =>
  verb === 'push'
    ? `git push sends the repository's history, every committed file in it, to ${where}, a repository the command names rather than a remote your config names`
    : `git ${verb} brings commits from ${where}, a repository the command names rather than a remote your config names, whose files (.claude/ settings too) a checkout or merge writes`;

/** git verbs that rewrite files of the work tree their words need not name (`git checkout .`, `git reset --hard`, `git stash`). */
const GIT_TREE_WRITERS: ReadonlySet<string> = new Set([
  'checkout', 'switch', 'restore', 'reset', 'stash', 'clean', 'rm', 'mv', 'merge', 'rebase', 'pull', 'cherry-pick', 'revert', 'am', 'apply',
  'read-tree', 'checkout-index', 'sparse-checkout', 'submodule', 'worktree', 'bisect',
]);

/** `git <verb>` when `c` is git with a verb that may rewrite work-tree files no word names. */
export function gitWritesTree(c: SimpleCommand): string | undefined {
  if (c.words[0] === undefined || commandBase(c.words[0]) !== 'git') return undefined;
  const verb = c.words[gitVerbIndex(c.words)];
  if (c.words.slice(1).some((w) => w === undefined)) return 'git';
  return verb !== undefined && GIT_TREE_WRITERS.has(verb) ? `git ${verb}` : undefined;
}

/**
 * `git credential fill`, `git credential-store get|store|erase`: they read and rewrite your stored
 * credentials, files no word names (pass 41 D1, 44 L1). The files, for the deny rules to judge.
 */
export function gitCredentialFiles(c: SimpleCommand, home: string): string[] {
  return isGitCredential(c) ? [`${home}/.git-credentials`, `${home}/.config/git/credentials`] : [];
}

/** `git credential…`: a verb that reads and rewrites your stored credentials. */
export function isGitCredential(c: SimpleCommand): boolean {
  return c.words[0] !== undefined && commandBase(c.words[0]) === 'git' && c.words[gitVerbIndex(c.words)]?.startsWith('credential') === true;
}

/**
 * The folders git (the command `c`) runs in, given the folders the command starts in: each, moved by every
 * `-C dir` (relative to the last). The guard reads only the workspace's repositories, so git in
 * another (an added folder: `git -C ../lib diff`) would obey config no one read (pass 45 E2).
 */
export function gitFolders(c: SimpleCommand, folders: readonly string[]): string[] | undefined {
  let out = [...folders];
  const verb = gitVerbIndex(c.words);
  for (let i = 1; i < (verb < 0 ? c.words.length : verb); i++) {
    if (c.words[i] !== '-C') continue;
    const dir = c.words[i + 1];
    // `~/…` is bash's to expand, to wherever the home is: known only when it runs (pass 48 F3).
    if (dir === undefined || dir.startsWith('~')) return undefined;
    out = out.map((f) => (dir.startsWith('/') ? dir : `${f}/${dir}`));
  }
  return out;
}
