// Passes 68-70 on 980ea33. 68 C1 (critical): `tar -M` prompts on its input for the next volume,
// where `!` starts a shell. 68 H1: untrusted `Bash` let jq's `import` read a file outside. 68 H2:
// `shopt -s cdable_vars; cd HOME` went to $HOME. 68 H3: csplit's suffix format joined to its prefix
// wrote `~/.bashrc`. 68 M1: `env -C src cat ../../x` was judged from the workspace. 69 H1, L1:
// rerere copied the file a MERGE_RR names. 69 H2: the user's own textconv ran on text the model
// chose. 70 H1: `git config -l` printed ~/.gitconfig and its includes. 70 H2: an untrusted folder
// inside a repository shared its memories. 70 M1: a Grep pattern inside the bounds ran for minutes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createGrepTool } from '../../src/tools/builtin/grep';
import { memoryKeyFolder } from '../../src/tools/gitRepo';
import { bashEngine, loadedChecker, runBash, workspaceWithHome } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.name=x', '-c', 'user.email=x@x', ...args], { env: { PATH: process.env.PATH, HOME: cwd } });

describe('pass 68', () => {
  it('C1: tar told to make or read a multi-volume archive asks, under its rule and untrusted', async () => {
    const ws = tmp('tl-68c1-');
    const checker = await loadedChecker();
    const commands = ['tar -c -M -L 10 -f x.tar big < cmds', 'tar cMLf x.tar big', 'tar -cf x.tar --multi-volume README', 'tar -c --tape-len=10 -f x big', 'tar -d -M -f x.tar', 'tar -cf x -L1 big'];
    for (const trusted of [true, false]) {
      const eng = bashEngine(ws, { allow: ['Bash(tar:*)'] }, checker, { trusted });
      await eng.permissions.ready();
      for (const command of commands) assert.equal(eng.decide(command).behavior, 'ask', `${command} (trusted: ${trusted})`);
      for (const command of ['tar -czf x.tgz big', 'tar tvf x.tar']) assert.equal(eng.decide(command).behavior, 'allow', command);
    }
    const untrustedBash = bashEngine(ws, { allow: ['Bash'] }, checker, { trusted: false });
    await untrustedBash.permissions.ready();
    assert.equal(untrustedBash.decide('tar -c -M -L 10 -f x.tar big < cmds').behavior, 'ask');
  });

  it('H1: untrusted, a jq program that imports or reads its program from a file asks under Bash', async () => {
    const ws = tmp('tl-68h1-');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker(), { trusted: false });
    await eng.permissions.ready();
    for (const command of ['jq -n \'import "../home/.docker/config" as $a; $a\'', 'jq -n -f p.jq', 'jq -n \'include "x"; 1\'', 'jq -n env']) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['jq .a x.json', 'jq -r ".name" package.json']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('H2: after shopt, cd may go where a variable says: the names after it ask', async () => {
    const ws = tmp('tl-68h2-');
    const checker = await loadedChecker();
    const narrow = bashEngine(ws, { allow: ['Bash(shopt:*)', 'Bash(cd:*)', 'Bash(cat:*)', 'Bash(echo:*)'] }, checker);
    const untrusted = bashEngine(ws, { allow: ['Bash'] }, checker, { trusted: false });
    await untrusted.permissions.ready();
    for (const eng of [narrow, untrusted]) {
      for (const command of ['shopt -s cdable_vars; cd HOME; cat .ssh/id_rsa', 'read y <<< /etc; shopt -s cdable_vars; cd y; cat passwd']) assert.equal(eng.decide(command).behavior, 'ask', command);
      assert.equal(eng.decide('cd src; cat a.txt').behavior, 'allow');
    }
    assert.equal(narrow.decide('echo HOME').behavior, 'allow', 'a word alone moves nothing');
  });

  it('H3: csplit with a suffix format asks; split and csplit with a prefix ask under deny rules', async () => {
    const { ws, home } = workspaceWithHome('tl-68h3-');
    const checker = await loadedChecker();
    const rule = bashEngine(ws, { allow: ['Bash(csplit:*)', 'Edit(src/**)'] }, checker, { home });
    for (const command of ["csplit -f src -b '/../.git/config%.0d' src/cfg 3", "csplit -f src --suffix-format='/../.claude/settings.json%.0d' src/cfg 3"]) assert.equal(rule.decide(command).behavior, 'ask', command);
    assert.equal(rule.decide('csplit -f src/part src/cfg 3').behavior, 'allow');
    const deny = bashEngine(ws, { allow: ['Bash'], deny: ['Edit(~/.bashrc)'] }, checker, { home });
    for (const command of ["csplit -f ~/.bas -b 'hrc%.0d' src/x 2", 'split -l1 src/f ~/.bash', 'split -l 1 src/f ~/.bash']) assert.equal(deny.decide(command).behavior, 'ask', command);
    for (const command of ['split -l 1 src/f', 'csplit src/x 2']) assert.equal(deny.decide(command).behavior, 'allow', command);
  });

  it('M1: a wrapper that moves the working folder makes the names after it unknown', async () => {
    const { ws, home } = workspaceWithHome('tl-68m1-');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)', 'Edit(~/.bashrc)'] }, await loadedChecker(), { home });
    for (const command of ['env -C src cat ../../home/.ssh/id_rsa', 'echo x | env --chdir=src tee -a ../../home/.bashrc', 'env -iC src cat x', 'unshare -w src cat ../x', 'nsenter --wd=src cat x', 'sudo -D src cat x']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['env A=1 cat src/x', 'timeout 5 cat src/x']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 69', () => {
  it('H1, L1: rerere copies nothing a MERGE_RR names, in a repository nested in a trusted folder', async () => {
    const root = tmp('tl-69h1-');
    const ws = join(root, 'ws');
    const secret = join(root, 'secret');
    writeFileSync(secret, 'SECRET-KEY\n');
    mkdirSync(join(ws, 'vendor', 'evil'), { recursive: true });
    git(ws, 'init', '-q');
    const evil = join(ws, 'vendor', 'evil');
    git(evil, 'init', '-q');
    const id = '0123456789abcdef0123456789abcdef01234567';
    mkdirSync(join(evil, '.git', 'rr-cache', id), { recursive: true });
    writeFileSync(join(evil, '.git', 'MERGE_RR'), `${id}\t../../../secret\0`);
    const r = await runBash(ws, 'cd vendor/evil && GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@x GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@x git commit -q --allow-empty -m x; git rerere; true');
    assert.ok(!r.isError || !/Not run/.test(r.content), r.content);
    assert.deepEqual(readdirSync(join(evil, '.git', 'rr-cache', id)), [], 'nothing was copied into the rr-cache');
  });

  it('H2: your own diff drivers do not run on attributes the model writes', async () => {
    const root = tmp('tl-69h2-');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    git(ws, 'init', '-q');
    const mark = join(root, 'ran');
    const conv = join(root, 'decrypt.sh');
    writeFileSync(conv, `#!/bin/sh\necho ran >> ${mark}\ncat "$1"\n`);
    chmodSync(conv, 0o755);
    const config = join(root, 'gitconfig');
    writeFileSync(config, `[diff "gpg"]\n\ttextconv = ${conv}\n`);
    writeFileSync(join(ws, 'src', '.gitattributes'), '*.gpg diff=gpg\n');
    writeFileSync(join(ws, 'src', 'a.gpg'), 'one\n');
    writeFileSync(join(ws, 'src', 'b.gpg'), 'two\n');
    const before = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = config;
    try {
      const r = await runBash(ws, 'git diff --no-index src/a.gpg src/b.gpg; true');
      assert.match(r.content, /two/, r.content);
    } finally {
      if (before === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = before;
    }
    assert.ok(!existsSync(mark), 'the textconv program did not run');
  });
});

describe('pass 70', () => {
  it('H1: reading git settings beyond the repository\'s own asks under a rule naming git config', async () => {
    const ws = tmp('tl-70h1-');
    git(ws, 'init', '-q');
    const checker = await loadedChecker();
    const eng = bashEngine(ws, { allow: ['Bash(git config:*)', 'Bash(git var:*)'] }, checker);
    for (const command of ['git config -l', 'git config --global -l', 'git config --get github.token', 'git config --list --show-origin', 'git config --local --includes -l', 'git config get user.name', 'git var -l']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    assert.equal(eng.decide('git config --local -l').behavior, 'allow');
    const deny = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.gitconfig*)'] }, checker);
    assert.equal(deny.decide('git config -l').behavior, 'ask');
    assert.equal(deny.decide('git status').behavior, 'allow');
  });

  it('H2: a folder not trusted below a repository\'s top keeps memories of its own', async () => {
    const repo = tmp('tl-70h2-');
    git(repo, 'init', '-q');
    const inner = join(repo, 'vendor', 'x');
    mkdirSync(inner, { recursive: true });
    assert.equal(await memoryKeyFolder(inner, false), inner);
    assert.equal(await memoryKeyFolder(inner, true), repo);
    assert.equal(await memoryKeyFolder(repo, false), repo, 'the repository\'s own folder is the same folder, trusted or not');
    symlinkSync(inner, join(repo, 'alias'));
    assert.equal(await memoryKeyFolder(join(repo, 'alias'), false), inner);
  });

  it('M1: one Grep call stops matching at its time budget and says so', async () => {
    const ws = tmp('tl-70m1-');
    for (let i = 0; i < 3; i++) writeFileSync(join(ws, `f${i}.txt`), 'abab\n'.repeat(200));
    const grep = createGrepTool(undefined, 0);
    const parsed = grep.parse({ pattern: 'a[ab]{900}[cd]' });
    assert.ok(parsed.ok);
    const r = await grep.call(parsed.value, { cwd: ws, signal: new AbortController().signal });
    assert.match(r.content, /Stopped after 0 s of matching, 0 of 3 files searched/);
    const whole = createGrepTool();
    const all = whole.parse({ pattern: 'abab', output_mode: 'count' });
    assert.ok(all.ok);
    assert.doesNotMatch((await whole.call(all.value, { cwd: ws, signal: new AbortController().signal })).content, /Stopped after/);
  });
});
