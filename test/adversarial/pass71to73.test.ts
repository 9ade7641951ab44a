// Passes 71-73 on 6017441. 71 H1, H2: under `Bash` itself, globs an inner shell expands its own way
// (`bash -O nocaseglob -c '… /[P]ROC/[0-9]*/ENVIRO[N]'`, `sh -c '… /tmp/.*/pro[c]/…'`) read the
// agent's environment. 71 M4: the same globs past Read deny rules. 71 M3: text nested 1,500 deep
// overflowed the checker's stack. 71 M1: `set -o history -H` then `cat !$` under file deny rules alone. 71 M2:
// find's `-execdir`, git's own `-C` and build tools' `-C` move where the names after them lead. 72 H1: `tar --exclude-vcs-ignores` opened every `.gitignore` in the tree,
// a committed link to /dev/zero or to a key too. 73 C1 (critical): `git add -A`, `git commit -a` and a
// pathspec git expands itself (`git add -f '*'`) took Read-denied files into history for a push.
// 73 H1: `git remote -v` printed URLs as the user's own insteadOf rewrites them, a token too. 73 L1:
// `git help -a` printed the user's aliases.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashEngine, loadedChecker, workspaceWithHome } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('pass 71', () => {
  it('M1, M2: history expansion and commands that move the folder ask under file deny rules alone', async () => {
    const { ws, home } = workspaceWithHome('tl-71-');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)', 'Edit(~/.bashrc)'] }, await loadedChecker(), { home });
    for (const command of ['set -o history -H\n: ~/.ssh/id_rsa\ncat !$', 'set -H\n: ~/.bashrc\ntee -a !$ < src/x', 'find src/a.txt -execdir cat ../../home/.ssh/id_rsa {} \\;', 'git -C src --no-pager diff --no-index ../../home/.ssh/id_rsa a.txt', 'make -C src -f ../../home/.ssh/id_rsa']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['find src -name x -exec cat {} \\;', 'git status', 'make test']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 71: globs an inner shell expands its own way, and deep nesting', () => {
  it('H1, H2: the agent\'s /proc entries by any case, extglob or `..` glob ask or are denied under Bash', async () => {
    const ws = tmp('tl-71h-');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ["bash -O nocaseglob -c 'cat /[P]ROC/[0-9]*/ENVIRO[N]'", "bash -c 'shopt -s nocaseglob; cat /[P]ROC/[S]ELF/ENVIRO[N]'", "bash -O extglob -c 'cat /@(p)roc/[0-9]*/enviro@(n)'", "bash +O globskipdots -c 'cat /tmp/.*/pro[c]/sel[f]/enviro[n]'", "sh -c 'grep -aoz KEY=[^[:cntrl:]]* /tmp/.*/pro[c]/[0-9]*/enviro[n]'", "echo 'cat /tmp/.*/pro[c]/sel[f]/enviro[n]' | sh"]) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['ls src/*.ts', "sh -c 'ls src/*.ts'"]) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M4: an inner shell\'s globs meet Read deny rules by the folder they start from, `..` included', async () => {
    const { ws, home } = workspaceWithHome('tl-71m4-');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, await loadedChecker(), { home });
    for (const command of ["bash -O dotglob -c 'cat ~/*/id_rsa'", "bash -c 'shopt -s dotglob; cat ~/*/id_rsa'", "bash -O nocaseglob -c 'cat ~/.SS[H]/id_rsa'", "bash -c 'cat ~/.ss*/id_rsa'", "sh -c 'cat .*/home/.ssh/id_rs[a]'", "dash -c 'cat ./.*/home/.ssh/id_rsa'"]) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ["bash -c 'cat src/*.txt'", "sh -c 'ls src/*.ts'"]) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M3: text nested thousands deep asks instead of throwing', async () => {
    const ws = tmp('tl-71m3-');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Bash(rm:*)'] }, await loadedChecker());
    for (const command of [`${'$('.repeat(1500)}echo${')'.repeat(1500)}`, `${'('.repeat(3000)}echo${')'.repeat(3000)}`]) assert.equal(eng.decide(command).behavior, 'ask');
  });
});

describe('passes 72 and 73', () => {
  it('72 H1: tar told to read the ignore files of the folders it walks asks, under its rule and untrusted', async () => {
    const ws = tmp('tl-72h1-');
    const checker = await loadedChecker();
    for (const trusted of [true, false]) {
      const eng = bashEngine(ws, { allow: ['Bash(tar:*)'] }, checker, { trusted });
      await eng.permissions.ready();
      for (const command of ['tar --exclude-vcs-ignores -cf /dev/null .', 'tar --exclude-vcs-i -cf x src', 'tar --exclude-ignore=.x -cf y src', 'tar --exclude-ignore-recursive .x -cf y src']) {
        assert.equal(eng.decide(command).behavior, 'ask', `${command} (trusted: ${trusted})`);
      }
      assert.equal(eng.decide('tar --exclude-vcs -czf x.tgz src').behavior, 'allow', '--exclude-vcs reads no file');
    }
  });

  it('73 C1: git add and commit over the whole tree, or by a pathspec git expands, ask under Read deny rules', async () => {
    const ws = tmp('tl-73c1-');
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, '.env'), 'API_KEY=1\n');
    const checker = await loadedChecker();
    for (const allow of [['Bash(git add:*)', 'Bash(git commit:*)'], ['Bash']]) {
      const eng = bashEngine(ws, { allow, deny: ['Read(**/.env)'] }, checker);
      for (const command of ['git add -A', 'git add -A -f', 'git add --all', 'git add -u', 'git commit -a -m x', 'git commit -am wip', 'git commit --all -m x', "git add '*'", "git add ':(glob)**'", "git add -f '.e*'"]) {
        assert.equal(eng.decide(command).behavior, 'ask', `${allow}: ${command}`);
      }
      for (const command of ['git add src/x.ts', 'git commit -m wip']) assert.equal(eng.decide(command).behavior, 'allow', `${allow}: ${command}`);
    }
  });

  it('73 H1, L1: remote URLs and aliases as your own git config gives them ask under a rule naming git', async () => {
    const ws = tmp('tl-73h1-');
    execFileSync('git', ['init', '-q', ws]);
    const eng = bashEngine(ws, { allow: ['Bash(git remote:*)', 'Bash(git ls-remote:*)', 'Bash(git help:*)'] }, await loadedChecker());
    for (const command of ['git remote -v', 'git remote --verbose', 'git remote get-url origin', 'git remote show -n origin', 'git ls-remote --get-url', 'git help -a', 'git help st']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['git remote', 'git help']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
