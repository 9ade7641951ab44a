// Passes 56 and 58 on d0a0c2f, trusted `Bash` with deny rules unless said. 56 H1 (high): find's
// `-fprint`, `-fprintf`, `-fls` write the file they name, past Edit and Write deny rules. 56 M1: find's
// start folder spelled with `~` was not expanded before its actions were judged. 56 M2: history
// behind a wrapper (`builtin fc`), shells told to expand history by option, `mapfile -C`, `script`.
// 56 L1: values assigned by `for`, `printf -v` and `${X:=…}`. 58 L1: a deny rule that matches at any
// depth did not reach a folder added with --add-dir.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../src/permissions/permissions';
import { bashEngine, callTool, loadedChecker } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('pass 56', () => {
  it('H1, M1: find\'s writes by name, and its actions from ~, meet write deny rules', async () => {
    const root = tmp('tl-56h1-');
    const ws = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(home, '.bashrc'), 'mine\n');
    writeFileSync(join(ws, 'victim.txt'), 'keep\n');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Edit(~/.bashrc)', 'Write(~/.bashrc)', 'Edit(./victim.txt)'] }, await loadedChecker(), { home });
    for (const command of ["find src -fprintf ~/.bashrc 'echo X\\n' -quit", 'find src -fprint victim.txt', 'find src -fls victim.txt', 'find ~ -maxdepth 1 -name .bashrc -exec cp evil.txt {} \\;', 'find ~/.bashrc -delete']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['find src -name "*.ts"', 'find src -fprint out.txt']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M2: a command bash rebuilds from its history, by any route, asks under deny rules', async () => {
    const ws = tmp('tl-56m2-');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Bash(rm:*)'] }, await loadedChecker());
    for (const command of ["bash -H -o history <<< $'rQ victim.txt\\n^Q^m'", 'sh -o history -H', "bash -c \"history -s 'rQ v'; builtin fc -s Q=m\"", 'command fc -s', 'time fc -s', "mapfile -C 'fc -s Q=m' -c 1 < x", 'script -q /dev/null <<< ls']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
  });

  it('L1: values assigned by for, printf -v and ${X:=…} are judged as the files they name', async () => {
    const root = tmp('tl-56l1-');
    const ws = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(ws);
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, await loadedChecker(), { home });
    for (const command of ['for HISTFILE in ~/.ssh/id_rsa; do history -r; done; history', 'printf -v HISTFILE %s ~/.ssh/id_rsa; history -r', ': ${HISTFILE:=~/.ssh/id_rsa}; history -r', 'for f in ~/.ssh/*; do cat "$f"; done']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['for i in 1 2; do echo $i; done', 'for f in src/*; do cat "$f"; done']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 58 L1: a deny rule that matches at any depth holds in an added folder', () => {
  it('Read and Grep of the added folder leave the file out', async () => {
    const root = tmp('tl-58l1-');
    const ws = join(root, 'ws');
    const added = join(root, 'added');
    mkdirSync(ws);
    mkdirSync(added);
    writeFileSync(join(added, '.env'), 'TOPSECRET-ADDED\n');
    writeFileSync(join(added, 'ok.txt'), 'fine\n');
    const p = new Permissions({ cwd: ws, rules: () => ({ allow: ['Read'], ask: [], deny: ['Read(**/.env)'] }), trusted: () => true, bash: await loadedChecker(), sources: () => [{ label: '--add-dir', additionalDirectories: [added] }] });
    const read = (await import('../../src/tools/builtin')).createTools().find((t) => t.name === 'Read')!;
    assert.equal(p.decide({ tool: read, input: { file_path: join(added, '.env') } }).behavior, 'deny');
    assert.equal(p.decide({ tool: read, input: { file_path: join(added, 'ok.txt') } }).behavior, 'allow');
    const found = await callTool(p, 'Grep', { pattern: 'TOPSECRET|fine', output_mode: 'content', path: added }, ws);
    assert.doesNotMatch(found, /TOPSECRET-ADDED/, found);
    assert.match(found, /fine/);
  });
});

// Pass 59 M1 (medium): a pattern in text handed to a program that may run it (`os.system("/bin/r? x")`,
// a script written and run in one command) named rm past `Bash(rm:*)`. A cpio in copy-out mode reads
// the names of the files it copies from its input, as `tar -T` does.
describe('pass 59: patterns that may name a denied program; cpio -o', () => {
  it('ask under the deny rules', async () => {
    const root = tmp('tl-59-');
    const eng = bashEngine(root, { allow: ['Bash'], deny: ['Bash(rm:*)', 'Read(~/.ssh/**)'] }, await loadedChecker());
    for (const command of ["echo '/bin/r? victim.txt' > s2.sh; bash s2.sh", 'python3 -c \'import os; os.system("/bin/r? v")\'', 'python3 -c \'import os; os.system("/bin/{r,}m v")\'', 'perl -e \'system("/bin/r[m] x")\'', 'echo ~/.ssh/id_rsa | cpio -o']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    assert.equal(eng.decide("python3 -c 'print(2*3)'").behavior, 'allow');
  });
});

// Pass 62 on 8731d06. M1: richer patterns (`[^n]m`, `r[[:alpha:]]`, `+(r)m`, `R?` under nocaseglob)
// named rm past the pass 59 fix. M2: a script written and run in one command was judged against a
// Bash deny rule but not against file deny rules.
describe('pass 62', () => {
  it('M1: any richer pattern that may name the denied program asks', async () => {
    const eng = bashEngine(tmp('tl-62m1-'), { allow: ['Bash'], deny: ['Bash(rm:*)'] }, await loadedChecker());
    for (const g of ['/bin/[^n]m', '/bin/r[[:alpha:]]', '/bin/r[[=m=]]', '/bin/+(r)m', '/bin/R?']) {
      assert.equal(eng.decide(`python3 -c 'import os; os.system("${g} v")'`).behavior, 'ask', g);
    }
    for (const command of ["python3 -c 'x = [1,2]; print(x[0])'", "python3 -c 'print(2*3)'"]) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M2: the text of a script written and run in one command meets file deny rules', async () => {
    const root = tmp('tl-62m2-');
    const ws = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(ws);
    mkdirSync(join(home, '.ssh'), { recursive: true });
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)', 'Edit(~/.bashrc)'] }, await loadedChecker(), { home });
    for (const command of ["echo 'cat ~/.ssh/id_rsa' > s.sh; bash s.sh", "echo 'echo x >> ~/.bashrc' > s.sh; bash s.sh"]) assert.notEqual(eng.decide(command).behavior, 'allow', command);
    // bash reads the written text with every expansion, so any such script asks (pass 65 M1).
    for (const command of ["echo 'cat ~/.ss\"\"h/id_rsa' > s.sh; bash s.sh", "echo 'cd; cat .ssh/id_rsa' > s.sh; env bash s.sh", "echo 'ls -la' > s.sh; bash s.sh"]) assert.equal(eng.decide(command).behavior, 'ask', command);
    assert.equal(eng.decide('echo hi > a.txt; cat a.txt').behavior, 'allow');
  });
});

// Pass 64 on 8731d06. C1 (critical): `git status -vv` under `Bash(git status:*)` printed the diff of a
// Read-denied file; M2: `git config --blob HEAD:f -l`; M3: a tag of a blob shown by `--format=%(raw)`.
// A verb that prints names prints content with such options, and is judged as one that does; under
// `Bash` too. L3: a `MultiEdit(…)` deny rule was listed and matched no tool.
describe('pass 64', () => {
  it('C1, M2, M3: names-only git verbs given content options ask under Read deny rules', async () => {
    const ws = tmp('tl-64-');
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, '.env'), 'API=1\n');
    execFileSync('git', ['-C', ws, 'add', '.env']);
    const checker = await loadedChecker();
    for (const trusted of [true, false]) {
      const eng = bashEngine(ws, { allow: ['Bash(git status:*)', 'Bash(git config:*)', 'Bash(git tag:*)', 'Bash(git for-each-ref:*)', 'Bash(git log:*)'], deny: ['Read(**/.env)'] }, checker, { trusted });
      await eng.permissions.ready();
      for (const command of ['git status -vv', 'git status --verbose', 'git config --blob HEAD:.env -l', 'git config -f .env -l', "git tag --list --format='%(raw)'", "git for-each-ref --format='%(raw)'", 'git tag -n9', 'git log -p', 'git log -S API']) {
        assert.notEqual(eng.decide(command).behavior, 'allow', `${trusted}: ${command}`);
      }
      // Untrusted, git asks under any rule (pass 66); trusted, names only run.
      for (const command of ['git status', 'git status --short', 'git config --local -l', 'git tag -l', 'git log --oneline']) assert.equal(eng.decide(command).behavior, trusted ? 'allow' : 'ask', `${trusted}: ${command}`);
    }
    const bash = bashEngine(ws, { allow: ['Bash'], deny: ['Read(**/.env)'] }, checker);
    for (const command of ['git status -vv', 'git diff', 'git show HEAD']) assert.equal(bash.decide(command).behavior, 'ask', command);
    for (const command of ['git status', 'git commit -m x', 'git log --oneline']) assert.equal(bash.decide(command).behavior, 'allow', command);
  });

  it('L3: MultiEdit and NotebookEdit rules hold for Edit', async () => {
    const { parseRule } = await import('../../src/permissions/rules');
    assert.equal(parseRule('MultiEdit(config/**)').tool, 'Edit');
    assert.equal(parseRule('NotebookEdit(a.ipynb)').tool, 'Edit');
    assert.equal(parseRule('MultiEdit(config/**)').source, 'MultiEdit(config/**)');
  });
});

// Pass 65 on e0d9b77. C1 (critical): tar's `-C DIR` moved the names after it into a folder the
// checks did not follow (a committed `l/D -> ~/.ssh`). C2 (critical), M2: a backup (`mv -b -S de
// src/y .clau`) wrote `.claude` under a name no word spells. Pass 67 C1 (critical), H1: `git log -U3`
// and `git commit --long` printed a denied file; add, commit and log keep to names only with the
// options listed.
describe('pass 65 and 67', () => {
  it('65 C1, C2, M2: tar -C and backups ask', async () => {
    const ws = tmp('tl-65-');
    const checker = await loadedChecker();
    const untrusted = bashEngine(ws, { allow: ['Bash(tar:*)', 'Bash(mv:*)', 'Bash(cp:*)', 'Bash(ln:*)'] }, checker, { trusted: false });
    await untrusted.permissions.ready();
    for (const command of ['tar -C l -cf - D/id_rsa', 'tar --directory=l -cf - x', 'mv -T -b -S de src/y .clau', 'ln -sfnb -S de src/x .clau', 'cp -b src/y src/z']) assert.equal(untrusted.decide(command).behavior, 'ask', command);
    for (const command of ['tar -cf out.tar src', 'mv src/y src/z']) assert.equal(untrusted.decide(command).behavior, 'allow', command);
    const bash = bashEngine(ws, { allow: ['Bash'], deny: ['Edit(~/.bashrc)', 'Read(~/.ssh/**)'] }, checker);
    for (const command of ['cp -b -S rc src/a.txt ~/.bash', 'tar -cf - -C /x ../../a']) assert.equal(bash.decide(command).behavior, 'ask', command);
  });

  it('67 C1, H1: log and commit options beyond names ask under Read deny rules', async () => {
    const ws = tmp('tl-67-');
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, '.env'), 'API=1\n');
    const eng = bashEngine(ws, { allow: ['Bash(git log:*)', 'Bash(git commit:*)', 'Bash(git add:*)'], deny: ['Read(**/.env)'] }, await loadedChecker());
    for (const command of ['git log -U3 -1', 'git log --unified=0 -1', 'git log --binary', 'git log --patch-with-stat', 'git commit -a --long', 'git commit --dry-run', 'git add -p', 'git commit -am wip', 'git add -A']) assert.notEqual(eng.decide(command).behavior, 'allow', command);
    for (const command of ['git log --oneline -5', "git log --format='%h %s' -3", 'git commit -m "x y"', 'git add src/x.ts']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
