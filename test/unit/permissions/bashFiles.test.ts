// A Bash command an allow rule names (`Bash(cat:*)`) runs unasked only while the files it names
// are inside the workspace (reads: also the added folders). These pin which words are files,
// where they really are (globs, ~, cd, variables from the environment, links) and what is asked.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sharedBashChecker } from '../../../src/permissions/bash/checker';
import { Permissions } from '../../../src/permissions/permissions';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

before(() => sharedBashChecker().ready());

const bashTool = createTools().find((t) => t.name === 'Bash') as Tool;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-bashfiles-')));
const ws = join(root, 'ws');
const outside = join(root, 'outside');
const home = join(root, 'home');
for (const d of [join(ws, 'src'), join(ws, '.git'), outside, home]) mkdirSync(d, { recursive: true });
writeFileSync(join(ws, 'src', 'a.ts'), '');
writeFileSync(join(ws, 'src', 'b.ts'), '');
writeFileSync(join(outside, 'secret.txt'), '');
symlinkSync(outside, join(ws, 'src', 'zlink'));

const COMMANDS = ['cat', 'tee', 'touch', 'grep', 'rg', 'sort', 'chmod', 'xxd', 'find', 'cd', 'pushd', 'popd', 'git', 'sed', 'cp', 'du', 'ls', 'tree', 'echo'];

/** A permission engine for the workspace `cwd` with these rules, as command → decision. */
function engineWith(allow: string[], deny: string[] = [], opts: { cwd?: string; home?: string; additional?: string[] } = {}) {
  const p = new Permissions({
    cwd: opts.cwd ?? ws,
    home: opts.home ?? home,
    rules: () => ({ allow, ask: [], deny }),
    ...(opts.additional ? { sources: () => [{ label: 'user settings', allow: [], ask: [], deny: [], additionalDirectories: opts.additional! }] } : {}),
    trusted: () => true,
  });
  return (command: string) => p.decide({ tool: bashTool, input: { command } });
}

function engine() {
  return engineWith(COMMANDS.map((c) => `Bash(${c}:*)`));
}
const decide = engine();
const behavior = (command: string) => decide(command).behavior;

describe('which words a command reads or writes', () => {
  it('reads and writes outside ask, naming the file; inside they run', () => {
    assert.deepEqual(decide(`cat ${outside}/secret.txt`), { behavior: 'ask', reason: `cat reads ${outside}/secret.txt, which is outside the workspace and the added folders.` });
    assert.deepEqual(decide(`touch ${outside}/new`), { behavior: 'ask', reason: `touch writes ${outside}/new, which is outside the workspace.` });
    assert.equal(behavior('cat src/a.ts src/b.ts'), 'allow');
    assert.equal(behavior('cat src/a.ts ../outside/secret.txt'), 'ask', 'every file counts, not only the first');
    assert.equal(behavior(`cat < ${outside}/secret.txt`), 'ask', 'an input redirection is a read');
    assert.equal(behavior('cat < src/a.ts'), 'allow');
    assert.equal(behavior('cat - /dev/null /dev/stdin'), 'allow', 'the streams and - are no one’s files');
    assert.equal(behavior('echo x | tee /dev/stderr'), 'allow');
    assert.equal(behavior('cat /proc/cpuinfo'), 'ask', '/proc is outside, judged as written');
  });

  it('a write into a protected folder asks, naming it', () => {
    assert.deepEqual(decide('touch .git/hooks-x'), { behavior: 'ask', reason: `touch writes ${join(ws, '.git', 'hooks-x')}, inside .git/; Threadline always asks before writing there.` });
    assert.equal(behavior('cat .git/config'), 'allow', 'reading is not writing');
  });

  it('options: a value that is not a file is skipped, one that writes is a write, a glued path is a file', () => {
    assert.equal(behavior('grep -m 5 x src/a.ts'), 'allow');
    assert.equal(behavior(`grep /etc/passwd src/a.ts`), 'allow', "grep's first operand is its pattern");
    assert.equal(behavior(`grep -e x ${outside}/secret.txt`), 'ask', 'after -e every operand is a file');
    assert.equal(behavior(`grep --regexp=x ${outside}/secret.txt`), 'ask');
    assert.equal(behavior(`grep -ex ${outside}/secret.txt`), 'ask', 'a glued -e too');
    assert.equal(behavior(`grep --file=${outside}/p src/a.ts`), 'ask');
    assert.equal(behavior(`grep -f${outside}/p src/a.ts`), 'ask');
    assert.equal(behavior('grep --label=x y src/a.ts'), 'allow');
    assert.equal(behavior(`sort -o ${outside}/out src/a.ts`), 'ask');
    assert.equal(decide(`sort -o ${outside}/out src/a.ts`).reason, `sort writes ${outside}/out, which is outside the workspace.`);
    assert.equal(behavior('sort -o out src/a.ts'), 'allow');
    assert.equal(behavior(`sort -t / src/a.ts`), 'allow', "-t's value is not a file");
    assert.equal(behavior(`cat -- ${outside}/secret.txt`), 'ask');
    assert.equal(behavior(`ls -- -x`), 'allow');
  });

  it('operands that are not files: chmod’s mode, find’s expression; a second operand that is written', () => {
    assert.equal(behavior('chmod 755 src/a.ts'), 'allow');
    assert.equal(behavior(`chmod 755 ${outside}/secret.txt`), 'ask');
    // find's name tests take a pattern, never a file; its other tests' values may be files.
    assert.equal(behavior(`find src -name '/etc/*'`), 'allow');
    assert.equal(behavior(`find src -type f -o -ipath '${outside}/*' -print`), 'allow');
    assert.equal(behavior(`find src -newer ${outside}/secret.txt`), 'ask');
    assert.equal(behavior(`find src -name x -newer ${outside}/secret.txt`), 'ask');
    assert.equal(behavior(`find src -name '*.ts'`), 'allow');
    assert.equal(behavior(`find ${outside} -name x`), 'ask');
    assert.equal(behavior('xxd src/a.ts out.hex'), 'allow');
    assert.equal(decide(`xxd src/a.ts ${outside}/out.hex`).reason, `xxd writes ${outside}/out.hex, which is outside the workspace.`);
    assert.equal(decide(`xxd ${outside}/secret.txt out.hex`).reason, `xxd reads ${outside}/secret.txt, which is outside the workspace and the added folders.`);
    assert.equal(decide(`sed -i s/a/b/ ${outside}/secret.txt`).reason, `sed writes ${outside}/secret.txt, which is outside the workspace.`);
    assert.equal(decide(`sed s/a/b/ ${outside}/secret.txt`).reason, `sed reads ${outside}/secret.txt, which is outside the workspace and the added folders.`);
    assert.equal(behavior('sed -n p src/a.ts'), 'allow');
  });

  it('git names files only by paths that leave the folder', () => {
    assert.equal(behavior('git log src'), 'allow');
    assert.equal(behavior('git diff HEAD~1'), 'allow');
    assert.equal(behavior(`git log -- ${outside}`), 'ask');
    assert.equal(behavior('git log ../outside'), 'ask');
    assert.equal(behavior('git log ~/x'), 'ask');
    assert.equal(behavior('git log "$HOME"'), 'ask', 'a variable may leave it');
  });

  it('an option that follows links while walking a folder asks, wherever it points', () => {
    const reason = (c: string, opt: string, cmd = c.split(' ')[0]) => assert.equal(decide(c).reason, `${cmd} ${opt} follows symlinks while it walks a folder, wherever they lead, which may be outside the workspace.`, c);
    reason('grep -R x src', '-R');
    reason('grep -nR x src', '-nR');
    reason('grep --dereference-recursive x src', '--dereference-recursive');
    reason('rg -L x src', '-L');
    reason('du -L src', '-L');
    reason('find -L src -name x', '-L');
    reason('cp --dereference src/a.ts b', '--dereference');
    assert.equal(behavior('grep -rn x src'), 'allow', '-r does not follow links');
  });
});

describe('where a word really is', () => {
  it('~ is the home folder; ~user cannot be known', () => {
    assert.equal(decide('cat ~/notes').reason, `cat reads ${join(home, 'notes')}, which is outside the workspace and the added folders.`);
    assert.equal(decide('cat ~').reason, `cat reads ${home}, which is outside the workspace and the added folders.`);
    assert.equal(decide('cat ~root/x').reason, 'cat is given a file name computed when it runs, which may be outside the workspace.');
  });

  it('globs are expanded as bash would, links followed; a glob that matches nothing is taken as written', () => {
    assert.equal(behavior('cat src/*.ts'), 'allow');
    assert.equal(decide('cat src/*').reason, `cat reads ${outside}, which is outside the workspace and the added folders.`, 'src/zlink leads out');
    assert.equal(behavior(`cat ${outside}/*.txt`), 'ask');
    assert.equal(behavior('cat ../outside/*'), 'ask');
    assert.equal(behavior('cat src/*.none'), 'allow');
    assert.equal(decide(`cat ${outside}/*.none`).reason, `cat reads ${outside}/*.none, which is outside the workspace and the added folders.`);
    assert.equal(behavior('cat src/{a,b}.ts'), 'allow');
    assert.equal(behavior('cat {src/a.ts,../outside/secret.txt}'), 'ask', 'each brace alternative counts');
    assert.equal(behavior('cat src/[ab].ts'), 'allow');
    assert.equal(behavior('cat sr?/a.ts'), 'allow');
  });

  it('a variable the environment set is read from it; one the script sets or bash computes asks', () => {
    const realHome = homedir();
    const inside = realHome === ws || realHome.startsWith(`${ws}/`);
    if (!inside) assert.equal(behavior('cat "$HOME/.bashrc"'), 'ask');
    assert.match(decide('cat $SOMEDIR/passwd').reason, /computed when it runs/);
    assert.equal(behavior('cat "$THREADLINE_UNSET_VARIABLE_FOR_TEST/x"'), 'ask');
    assert.equal(behavior('cat $(echo src/a.ts)'), 'ask');
  });

  it('cd changes where the files are; a cd known only when it runs asks', () => {
    assert.equal(behavior('cd src && cat a.ts'), 'allow');
    assert.equal(decide(`cd ${outside} && cat secret.txt`).reason, `cd reads ${outside}, which is outside the workspace and the added folders.`);
    // A relative file is judged from every folder the command may be in by then.
    assert.equal(decide('cd src && cat ../src/a.ts').reason, `cat reads ${join(root, 'src', 'a.ts')}, which is outside the workspace and the added folders.`);
    assert.equal(behavior('cd src && cat ../src/a.ts ../../ws/src/b.ts'), 'ask');
    assert.equal(decide('cd && cat x').reason, `cd reads ${home}, which is outside the workspace and the added folders.`, 'cd alone goes home');
    assert.match(decide('cd - && cat x').reason, /computed when it runs|known only when it runs/);
    assert.match(decide('popd && cat a.ts').reason, /(after a cd to|changes to) a folder known only when it runs/);
    assert.equal(behavior(`popd && cat ${join(ws, 'src', 'a.ts')}`), 'allow', 'an absolute path does not depend on the folder');
    assert.equal(decide('cd "$(pwd)" && cat a.ts').behavior, 'ask');
  });
});

describe('the file tools’ deny rules hold for a command an allow rule lets run', () => {
  const secretHome = join(root, 'dhome');
  mkdirSync(join(secretHome, '.ssh'), { recursive: true });
  writeFileSync(join(secretHome, '.ssh', 'id_rsa'), 'KEY');
  writeFileSync(join(secretHome, 'notes.txt'), '');
  writeFileSync(join(ws, '.env'), 'TOKEN');
  writeFileSync(join(ws, 'secret.txt'), '');
  const d = engineWith(COMMANDS.map((c) => `Bash(${c}:*)`), ['Read(~/.ssh/**)', 'Read(.env)', 'Read(./secret.txt)', 'Edit(src/b.ts)'], { home: secretHome, additional: [secretHome] });

  it('a file a deny rule names is denied by name, by glob, by quoting, under an added folder', () => {
    assert.deepEqual(d('cat ~/.ssh/id_rsa'), { behavior: 'deny', reason: `cat reads ${secretHome}/.ssh/id_rsa, which the rule Read(~/.ssh/**) denies.` });
    assert.equal(d('cat .env').behavior, 'deny', d('cat .env').reason);
    assert.equal(d('cat .e*').behavior, 'deny', d('cat .e*').reason);
    assert.equal(d('cat sec""ret.txt').behavior, 'deny', d('cat sec""ret.txt').reason);
    assert.equal(d('cat -n src/a.ts ~/.ssh/id_rsa').behavior, 'deny', d('cat -n src/a.ts ~/.ssh/id_rsa').reason);
    assert.equal(d('touch src/b.ts').behavior, 'deny', d('touch src/b.ts').reason);
    assert.equal(d('cat src/b.ts').behavior, 'allow', 'an Edit deny rule does not stop a read');
    assert.equal(d('cat ~/notes.txt').behavior, 'allow');
    assert.equal(d('cat src/a.ts').behavior, 'allow');
  });

  it('a folder holding denied files asks: a recursive search would read them', () => {
    assert.equal(d('grep -r KEY ~').behavior, 'ask');
    assert.match(d('grep -r KEY ~').reason, /holds files the rule Read\(~\/\.ssh\/\*\*\) denies/);
    assert.equal(d('grep -r TOKEN .').behavior, 'ask');
    assert.equal(d('grep -r x src').behavior, 'allow', 'a folder the rules do not reach into runs');
  });
});

describe('git commands that write git’s own settings or plant hooks ask under a prefix rule', () => {
  const decideIn = engineWith(['Bash(git:*)', 'Bash(git config:*)', 'Bash(git init:*)', 'Bash(git clone:*)', 'Bash(git maintenance:*)', 'Bash(git fetch:*)', 'Bash(git config user.name Ada)']);
  const b = (command: string) => decideIn(command).behavior;

  it('git config writes, --template, clone -c, maintenance register and upload-pack programs ask; reads of the repository\'s own settings run', () => {
    assert.equal(b('git config core.fsmonitor tools/x.sh'), 'ask');
    assert.equal(b('git config --global core.hooksPath tools'), 'ask');
    assert.equal(b('git config --add alias.x "!sh"'), 'ask');
    assert.equal(b('git init --template=tools'), 'ask');
    assert.equal(b('git clone --template=tools . sub'), 'ask');
    assert.equal(b('git clone -c core.fsmonitor=./x . sub'), 'ask');
    assert.equal(b('git clone --config=core.pager=./x . sub'), 'ask');
    assert.equal(b('git maintenance register'), 'ask');
    assert.equal(b("git fetch --upload-pack='touch x' ."), 'ask');
    // Reads beyond the repository's own settings print ~/.gitconfig and its includes (pass 70 H1).
    assert.equal(b('git config --get user.name'), 'ask');
    assert.equal(b('git config -l'), 'ask');
    assert.equal(b('git config get user.name'), 'ask');
    assert.equal(b('git config --local --get user.name'), 'allow');
    assert.equal(b('git config --local -l'), 'allow');
    assert.equal(b('git config user.name Ada'), 'allow', 'an exact rule spells the setting itself');
    assert.equal(b('git log -c'), 'allow');
    assert.equal(b('git init'), 'allow');
  });
});

describe('git commands that read the whole tree are held to the deny rules of files in it', () => {
  const wsDeny = realpathSync(mkdtempSync(join(tmpdir(), 'tl-gitdeny-')));
  writeFileSync(join(wsDeny, '.env'), 'SECRET');
  mkdirSync(join(wsDeny, 'src'));
  const decideIn = engineWith(['Bash(git grep:*)', 'Bash(git add:*)', 'Bash(git diff:*)', 'Bash(git status:*)', 'Bash(git log:*)'], ['Read(**/.env)'], { cwd: wsDeny });
  const b = (command: string) => decideIn(command).behavior;

  it('git grep, add and diff without a path ask where a Read deny rule covers a file in the tree; names-only verbs run', () => {
    assert.equal(b('git grep --no-index -e SECRET'), 'ask');
    assert.equal(b('git grep --untracked SECRET'), 'ask');
    assert.equal(b('git add -A && git diff --cached'), 'ask');
    assert.equal(b('git status --short'), 'allow');
    assert.equal(engineWith(['Bash(git grep:*)'], [], { cwd: wsDeny })('git grep SECRET').behavior, 'allow', 'without a deny rule the tree is the workspace');
  });
});

describe('git verbs and options that run a command they are given ask under a rule naming the verb', () => {
  const decideIn = engineWith(['Bash(git clone:*)', 'Bash(git rebase:*)', 'Bash(git difftool:*)', 'Bash(git submodule:*)', 'Bash(git bisect:*)', 'Bash(git filter-branch:*)', 'Bash(git submodule foreach:*)']);
  const b = (command: string) => decideIn(command).behavior;

  it('clone -u, rebase -x, difftool -x, bisect run and filter-branch ask; the verbs alone run', () => {
    assert.equal(b("git clone -u 'touch x' . c"), 'ask');
    assert.equal(b("git clone --upload-pack='touch x' . c"), 'ask');
    assert.equal(b("git rebase -x 'cat ~/.ssh/id_rsa' HEAD~1"), 'ask');
    assert.equal(b("git rebase --exec='make' HEAD~1"), 'ask');
    assert.equal(b("git difftool -y -x 'sh -c x' HEAD~1"), 'ask');
    assert.equal(b("git bisect run sh -c 'x'"), 'ask');
    assert.equal(b("git filter-branch --tree-filter 'x'"), 'ask');
    // git takes any unambiguous start of a long option.
    assert.equal(b("git rebase --ex 'cat ~/.ssh/id_rsa' HEAD~1"), 'ask');
    assert.equal(b("git rebase --exe='x' HEAD~1"), 'ask');
    assert.equal(b("git clone --upload 'touch PWN; false' . c"), 'ask');
    assert.equal(b("git clone --upl='x' . c"), 'ask');
    assert.equal(b("git clone --templ=tools . c"), 'ask');
    assert.equal(b("git clone --conf=core.hooksPath=x . c"), 'ask');
    assert.equal(b("git difftool --extc='x' HEAD~1"), 'ask');
    assert.equal(b("git submodule foreach 'x'"), 'allow', 'a rule that names foreach allows what it runs');
    assert.equal(b('git clone . c'), 'allow');
    assert.equal(b('git rebase HEAD~1'), 'allow');
    assert.equal(b('git bisect good'), 'allow');
  });
});

describe('words the shell computes cannot carry an option or a file past the checks', () => {
  const decideIn = engineWith(['Bash(find:*)', 'Bash(git rebase:*)', 'Bash(git grep:*)', 'Bash(git log:*)', 'Bash(tar:*)', 'Bash(diff:*)', 'Bash(date:*)', 'Bash(grep:*)', 'Bash(sort:*)']);
  const b = (command: string) => decideIn(command).behavior;

  it('an option computed when it runs, or a word that may become one, asks', () => {
    assert.equal(b("find . -name a.txt $X-exec sh -c 'cat ~/.ssh/id_rsa' \\;"), 'ask');
    assert.equal(b("git rebase $X--exec='x' HEAD~1"), 'ask');
    assert.equal(b('git rebase --exec=$PWD/evil.sh HEAD~1'), 'ask');
    assert.equal(b('git rebase -x$PWD/evil.sh HEAD~1'), 'ask');
    assert.equal(b('git rebase "--exec=${PWD}/evil.sh" HEAD~1'), 'ask');
    assert.equal(b('git rebase --exec$IFS./evil.sh HEAD~1'), 'ask');
    assert.equal(b("git grep $X--open-files-in-pager='x' a"), 'ask');
    assert.equal(b('tar -c --use-compress-program=$PWD/evil.sh -f x.tgz src'), 'ask');
    assert.equal(b('git log $X--output=$HOME/PWN'), 'ask');
  });

  it('a file named in a glued option value through a variable asks', () => {
    assert.equal(b('diff --from-file=$HOME/.ssh/id_rsa src/a.ts'), 'ask');
    assert.equal(b('date --file=${HOME}/.git-credentials'), 'ask');
    assert.equal(b('date --fi=$HOME/.ssh/id_rsa'), 'ask');
    assert.equal(b('grep --file=$HOME/.ssh/id_rsa pat src'), 'ask');
    assert.equal(b('grep -f$HOME/x pat src'), 'ask');
    assert.equal(b('sort -o$HOME/.bashrc src/a.ts'), 'ask');
    assert.equal(b('sort --output=$HOME/PWN src/a.ts'), 'ask');
    assert.equal(b('grep -rn TODO src'), 'allow');
    assert.equal(b('find src -name "*.ts"'), 'allow');
    assert.equal(b('git log --oneline -5'), 'allow');
  });
});

describe('a path is judged where the kernel takes it: `..` after a link, and a dangling link', () => {
  const k = realpathSync(mkdtempSync(join(tmpdir(), 'tl-kernelpath-')));
  const kws = join(k, 'home', 'src', 'repo');
  const khome = join(k, 'home');
  const away = join(k, 'etc');
  for (const d of [join(kws, '.git', 'info'), join(kws, '.git', 'hooks'), join(kws, '.claude', 'rules'), join(kws, '.vscode', 'sub'), away, join(khome, '.ssh')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(khome, '.ssh', 'id_rsa'), 'CANARY');
  writeFileSync(join(kws, 'evil.sh'), '');
  symlinkSync(away, join(kws, 't'));
  symlinkSync(join(khome, '.ssh'), join(kws, 'sl'));
  symlinkSync('.git/info', join(kws, 'm'));
  symlinkSync('.claude/rules', join(kws, 'n'));
  symlinkSync('.vscode/sub', join(kws, 'v'));
  // Dangling: nothing there yet; a write through them creates the target.
  symlinkSync('../../.profile', join(kws, 'p'));
  symlinkSync('../../.ssh/authorized_keys', join(kws, 'ak'));
  symlinkSync('.git/hooks/pre-commit', join(kws, 'h'));
  const allow = ['cat', 'head', 'sort', 'cp', 'tee', 'rm', 'grep', 'dd', 'shuf', 'truncate', 'git diff', 'git commit', 'git format-patch'].map((c) => `Bash(${c}:*)`);
  const b = (command: string) => engineWith(allow, [], { cwd: kws, home: khome })(command).behavior;

  it('reads and writes through `link/..` ask (cat, sort -o, cp, rm, grep -r, git)', () => {
    for (const command of [
      'cat sl/../.ssh/id_rsa',
      'cat t/../home/.ssh/id_rsa',
      'head -c 100 ./sl//../.ssh/id_rsa',
      'cat sl/./../.ssh/id_rsa',
      'cat < sl/../.ssh/id_rsa',
      'grep -r CANARY sl/..',
      'sort -o sl/../.bashrc evil.sh',
      'cp evil.sh sl/../.bashrc',
      'rm sl/../.git-credentials',
      'git diff --no-index evil.sh sl/../.ssh/id_rsa',
      'git commit -F sl/../.ssh/id_rsa',
      'git format-patch -o sl/../out HEAD~1',
    ]) assert.equal(b(command), 'ask', command);
  });

  it('writes through `link/..` into .git/, .claude/ and .vscode/ ask', () => {
    for (const command of ['cp evil.sh m/../hooks/pre-commit', 'cp evil.sh m/../config', 'cp evil.sh n/../settings.local.json', 'cp evil.sh v/../tasks.json', 'tee m/../hooks/post-checkout < evil.sh']) {
      assert.equal(b(command), 'ask', command);
    }
  });

  it('a dangling link is where a write through it lands', () => {
    for (const command of ['sort -o p evil.sh', 'sort -o ak evil.sh', 'tee p < evil.sh', 'dd if=evil.sh of=p', 'shuf -o ak evil.sh', 'truncate -s 0 p', 'sort -o h evil.sh']) {
      assert.equal(b(command), 'ask', command);
    }
  });

  it('a glob before `..` is walked the same way, and a write glued to its option is checked as one', () => {
    for (const command of ['cat s*/../.ssh/id_rsa', 'cat [s]l/../.ssh/id_rsa', 'grep -r CANARY s?/..', 'sort -o.git/config evil.sh', 'sort --output=.git/config evil.sh', 'cp --target-directory=.git evil.sh', 'cp -rt.git evil.sh', 'sort -o.claude/settings.json evil.sh']) {
      assert.equal(b(command), 'ask', command);
    }
  });

  it('a glob is what bash expands it to: brackets other matchers read differently, quoted parts, each folder a cd leads to', () => {
    mkdirSync(join(kws, 'd'), { recursive: true });
    symlinkSync(away, join(kws, 'd', 'u'));
    symlinkSync(away, join(kws, '[a]t'));
    for (const command of [
      'cat [!a]/../home/.ssh/id_rsa',
      'cat ./[!a]/../home/.ssh/id_rsa',
      'cat [[=t=]]/../home/.ssh/id_rsa',
      'cat [[.t.]]/../home/.ssh/id_rsa',
      'cat [\\t]/../home/.ssh/id_rsa',
      'cat "[a]"*/../home/.ssh/id_rsa',
      'grep -r CANARY [[=s=]]l/..',
      'cp evil.sh [!a]/../config',
      'cp evil.sh [[=m=]]/../hooks/pre-commit',
      'sort -o [[=a=]]k evil.sh',
      'cat {[!a],x}/../home/.ssh/id_rsa',
    ]) assert.equal(b(command), 'ask', command);
    // Options that change what a glob expands to, set before it in the same command.
    const withShopt = (command: string) => engineWith([...allow, 'Bash(shopt:*)', 'Bash(export:*)'], [], { cwd: kws, home: khome })(command).behavior;
    mkdirSync(join(kws, 'd2'));
    writeFileSync(join(kws, 'd2', 'ok.txt'), '');
    symlinkSync(join(khome, '.ssh', 'id_rsa'), join(kws, 'd2', '.hid'));
    symlinkSync(join(khome, '.ssh', 'id_rsa'), join(kws, 'd2', 'Sec'));
    for (const command of ['shopt -s dotglob; cat d2/[.o]*', 'GLOBIGNORE=x; cat d2/[.o]*', 'shopt -s nocaseglob; cat d2/s*', 'shopt -s extglob\ncat d2/!(ok.txt)']) {
      assert.equal(withShopt(command), 'ask', command);
    }
    assert.equal(withShopt('cat d2/[.o]*'), 'allow', 'by default a glob does not match a leading dot');
    // A locale the script sets: `??` is the two bytes of `é` under C, `?` the one character under UTF-8.
    mkdirSync(join(kws, 'loc'));
    symlinkSync(join(khome, '.ssh'), join(kws, 'loc', 'é'));
    const utf8 = /utf-?8/i.test(process.env.LC_ALL || process.env.LC_CTYPE || process.env.LANG || '');
    const locale = utf8 ? 'LC_ALL=C; cat loc/??/id_rsa' : 'LC_ALL=C.UTF-8; cat loc/?/id_rsa';
    assert.equal(withShopt(locale), 'ask', locale);
    assert.equal(withShopt(locale.replace('=', '+=')), 'ask', 'appended');
    // shopt spelled with quotes is shopt; set's f, B and k change the words too.
    const withSet = (command: string) => engineWith([...allow, 'Bash(shopt:*)', 'Bash(set:*)'], [], { cwd: kws, home: khome })(command).behavior;
    for (const command of ["sho''pt -s dotglob; cat d2/[.o]*", 'sho\\pt -s dotglob; cat d2/[.o]*', 'set +B; cat {a,b}/x*', 'set -f; cat [x]*', 'set -o noglob; cat [x]*', 'set -k; sort -o x=1 .git/config evil.sh']) {
      assert.equal(withSet(command), 'ask', command);
    }
    // $'\xHH' is a byte: $'\xc3\xa9' is é, the link's name, not the two characters Ã©.
    for (const command of ["cat loc/$'\\xc3\\xa9'/id_rsa", "cat loc/$'\\303\\251'/id_rsa", "cat loc/$'\\xe9'/id_rsa", "cat loc/$'\\u00e9'/id_rsa"]) {
      assert.equal(b(command), 'ask', command);
    }
    assert.equal(b("cat $'evil\\x2esh'"), 'allow', 'an ASCII escape is the character');
    // bash splits `{a}}…},x}` into `a}}…}` and `x` however long it is; brace-expansion gives up.
    const closers = '}'.repeat(1001);
    for (const command of [`cat {a}${closers},../../.ssh/id_rsa}`, `tee {a}${closers},.git/config} < evil.sh`]) assert.equal(b(command), 'ask', command.slice(0, 40));
    assert.equal(b('cat {evil,other}.sh'), 'allow');
    // Forms brace-expansion and bash read differently; bash now expands them: `{+1..1}` is `1`,
    // `{a..c..99999999999999999999}` stays as written (a link of that very name).
    symlinkSync(away, join(kws, '1'));
    symlinkSync(away, join(kws, '{a..c..99999999999999999999}'));
    for (const command of ['cat {+1..1}/../home/.ssh/id_rsa', 'cat {1..1..+1}/../home/.ssh/id_rsa', 'cat {a..c..99999999999999999999}/../home/.ssh/id_rsa']) assert.equal(b(command), 'ask', command);
    // `\c` control escapes follow rules of their own in bash: unknown.
    for (const command of ["cat $'\\c?'/x", "cat $'\\c\\\\'/x"]) assert.equal(b(command), 'ask', command);
    const withCd = (command: string) => engineWith([...allow, 'Bash(cd:*)'], [], { cwd: kws, home: khome })(command).behavior;
    assert.equal(withCd('cd d && cat [!a]/../home/.ssh/id_rsa'), 'ask');
    assert.equal(withCd('cd d && cat [!a]'), 'ask', 'u is a link out');
  });

  it('`~+`, `~-`, `~user`, `$PWD` and `$OLDPWD` are folders bash looks up when it runs: every command given one asks', () => {
    const more = (command: string) => engineWith([...allow, 'Bash(date:*)', 'Bash(unzip:*)', 'Bash(tar:*)', 'Bash(zcat:*)'], [], { cwd: kws, home: khome })(command).behavior;
    for (const command of [
      'git diff --no-index ~+/../../../home/.ssh/id_rsa evil.sh',
      'git diff --no-index ~root/../etc/hostname evil.sh',
      'git diff --no-index ~-/x evil.sh',
      'date -f ~+/../../../home/.ssh/id_rsa',
      'unzip -o x.zip -d ~+/.git/hooks',
      'tar -xf x.tar -C ~+/.git/hooks',
      'zcat -f "$PWD"/../..',
      'date -f $PWD/..',
      'git diff --no-index $OLDPWD/x evil.sh',
    ]) assert.equal(more(command), 'ask', command);
    assert.equal(more('date -f evil.sh'), 'allow');
  });

  it('file deny rules hold under Bash as a whole and under an exact rule too, by any spelling the checks can read', () => {
    for (const rules of [['Bash'], ['Bash(cat ~/.ssh/id_rsa)'], ['Bash(cat sl/id_rsa)']]) {
      const d = (command: string) => engineWith(rules, ['Read(~/.ssh/**)'], { cwd: kws, home: khome })(command).behavior;
      for (const command of ['cat ~/.ssh/id_rsa', 'cat sl/id_rsa']) if (rules[0] === 'Bash' || rules[0]!.includes(command.slice(4))) assert.equal(d(command), 'deny', `${rules[0]}: ${command}`);
    }
    const all = (command: string) => engineWith(['Bash'], ['Read(~/.ssh/**)'], { cwd: kws, home: khome })(command).behavior;
    for (const command of ['cat < ~/.ssh/id_rsa', 'sudo cat ~/.ssh/id_rsa', 'grep -r x ~/.ssh', 'cp ~/.ssh/id_rsa evil.sh', 'cat s?/id_rsa']) assert.notEqual(all(command), 'allow', command);
    // A program whose files are not known may take any word as one: archivers, dd, env -C.
    for (const command of ['tar cf - ~/.ssh | tar xOf -', 'dd if=sl/id_rsa', 'dd if=~/.ssh/id_rsa', 'tar -C ~ -cf - .ssh', 'env -C ~/.ssh cat id_rsa', 'zip -q - ~/.ssh/id_rsa | funzip', 'xz -c sl/id_rsa']) {
      assert.notEqual(all(command), 'allow', command);
    }
    for (const command of ['cat evil.sh', 'echo ~/.ssh/id_rsa', 'tar -cf out.tar evil.sh']) assert.equal(all(command), 'allow', command);
  });

  it('a `..` after a name that does not exist yet asks: what it leads to depends on what is made there', () => {
    for (const command of ['cat nothing/../evil.sh', 'cat [z]/../evil.sh']) assert.equal(b(command), 'ask', command);
    assert.equal(b('cat nothing/evil.sh'), 'allow');
  });

  it('a `~/` word is walked the same way (the workspace under the home folder)', () => {
    for (const command of ['cat ~/src/repo/t/../home/.ssh/id_rsa', 'cat ~/src/repo/s*/../.ssh/id_rsa', 'cat ~/src/repo/sl/../.ssh/id_rsa', 'sort -o ~/src/repo/sl/../.bashrc evil.sh', 'cp evil.sh ~/src/repo/m/../config']) {
      assert.equal(b(command), 'ask', command);
    }
    assert.equal(b('cat ~/src/repo/evil.sh'), 'allow');
  });

  it('a glob also stands for its own text: a part that removes what it matches makes bash hand that text over', () => {
    // A real folder `ex/…` matches now; once `rm -r ex` has run, `[e]x/…` matches nothing and bash
    // passes the word itself, which names the committed link `[e]x`.
    mkdirSync(join(kws, 'ex', 'home', '.ssh'), { recursive: true });
    writeFileSync(join(kws, 'ex', 'home', '.ssh', 'id_rsa'), '');
    symlinkSync(k, join(kws, '[e]x'));
    mkdirSync(join(kws, 'gx'), { recursive: true });
    writeFileSync(join(kws, 'gx', 'config'), '');
    symlinkSync('.git', join(kws, '[g]x'));
    for (const command of [
      'rm -r ex; cat [e]x/home/.ssh/id_rsa',
      'rm -r ex && grep -r CANARY [e]x/home/',
      'cat [e]x/home/.ssh/id_rsa',
      'rm -r gx; sort -o [g]x/config evil.sh',
      'git commit -qm x; cat [e]x/home/.ssh/id_rsa',
    ]) assert.equal(b(command), 'ask', command);
  });

  it('the root folder itself is a folder, not text under it: a program given it as a place asks', () => {
    const wide = engineWith(['tar', 'patch', 'unzip', 'bsdtar', '7z', 'cpio', 'wget', 'curl', 'rsync', 'install', 'cut', 'awk', 'sort'].map((c) => `Bash(${c}:*)`), [], { cwd: kws, home: khome });
    for (const command of [
      'tar -C / -cf - home/.ssh/id_rsa',
      'tar --directory=/ -cf - x',
      'tar -C/ -cf - x',
      'tar -C // -cf - x',
      'tar -C /tmp/.. -cf - x',
      'patch -d / -p0',
      'unzip -o x.zip -d /',
      'bsdtar -C / -xf x.tar',
      '7z x a.7z -o/',
      'cpio -D / -i',
      'wget -P / x',
      'curl --output-dir / -O x',
      'rsync a /',
      'install -t / x',
    ]) assert.equal(wide(command).behavior, 'ask', command);
    // A `/` glued to an option of a program whose files are known is that option's value.
    for (const command of ['cut -d/ -f2 evil.sh', "awk -F/ '{print $1}' evil.sh", 'sort -t/ -k2 evil.sh']) assert.equal(wide(command).behavior, 'allow', command);
  });

  it('paths that stay inside still run', () => {
    for (const command of ['cat evil.sh', 'cat e*.sh', 'sort -oout.txt evil.sh', 'sort -o out.txt evil.sh', 'cat ./evil.sh', 'head evil.sh']) {
      assert.equal(b(command), 'allow', command);
    }
  });
});

describe('a part that may make links first: the files the other parts name are not judged as they are now', () => {
  const allow = ['git checkout', 'git switch', 'git restore', 'git status', 'git add', 'git commit', 'git -C', 'tar', 'unzip', 'cp', 'mv', 'ln', 'cat', 'sort', 'grep', 'cd', 'npm test'].map((c) => `Bash(${c}:*)`);
  const b = (command: string) => engineWith(allow)(command).behavior;

  it('checkout, switch, restore, unpacking, cp, mv and ln before or beside a part that names files ask', () => {
    for (const command of [
      'git checkout -q origin/evil -- src/a.ts && cat src/a.ts',
      'git switch -q evil; cat src/a.ts',
      'git restore -s evil src/a.ts && cat src/a.ts',
      'git -C . checkout evil && cat src/a.ts',
      'tar -xf x.tar && cat src/l',
      'unzip -q x.zip && cat src/l',
      'cp -a src/d src/e && cat src/e/x',
      'mv src/a.ts src/c && cat src/c/x',
      'ln -s /etc src/e && cat src/e/passwd',
      'git checkout evil -- src/a.ts | cat src/a.ts',
      'git checkout evil -- src/a.ts; sort < src/a.ts',
      'for i in 1 2; do cat src/a.ts; git checkout evil -- src/a.ts; done',
      'npm test && cat src/out.txt',
      'npm test && npm test -- -u && cat src/out.txt',
    ]) assert.equal(b(command), 'ask', command);
  });

  it('parts that leave the files as they are still run together', () => {
    for (const command of ['git status && cat src/a.ts', 'git add -A && git commit -qm x', 'cd src && cat a.ts', 'cat src/a.ts | grep x', 'git checkout -q main && git status', 'npm test', 'npm test && npm test -- -u']) {
      assert.equal(b(command), 'allow', command);
    }
  });
});
