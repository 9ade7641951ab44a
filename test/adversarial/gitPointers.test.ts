// Git inside a Bash command obeys what the repository's own files say: where the work tree is
// (`core.worktree`), where its data is (a `.git` file, a `.git` link, a `commondir` file), which
// files the config includes however their names are spelled, and programs under settings beyond
// the usual drivers (trailer commands, a tool's path, an alias). An archive can carry any `.git`
// folder. Each case runs the real Bash tool with real git, and checks what git did, not what the
// guard says.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { bashTool } from '../../src/tools/builtin/bash';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', '-C', cwd, ...args], { env: { PATH: process.env.PATH, HOME: cwd }, stdio: ['ignore', 'pipe', 'ignore'] }).toString();

async function bash(command: string, cwd: string): Promise<{ content: string; isError?: boolean }> {
  const p = bashTool.parse({ command });
  assert.ok(p.ok);
  return bashTool.call(p.value, { cwd, signal: new AbortController().signal });
}

/** A repository with one committed file. */
function repo(prefix: string, content = 'a\n'): string {
  const dir = tmp(prefix);
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), content);
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

/** A program that records that it ran. */
function marker(): { program: string; ran: () => boolean } {
  const dir = tmp('tl-mark-');
  const program = join(dir, 'evil.sh');
  writeFileSync(program, `#!/bin/sh\necho "$0 $*" >> ${join(dir, 'ran')}\ncat\n`);
  chmodSync(program, 0o755);
  return { program, ran: () => existsSync(join(dir, 'ran')) };
}

describe('git pointers in a repository send no Bash command outside the workspace', () => {
  it('core.worktree naming a folder outside: refused, and the files there are neither read nor changed', async () => {
    const cwd = repo('tl-wt-');
    const outside = tmp('tl-wt-home-');
    writeFileSync(join(outside, 'a.txt'), 'OUTSIDE-SECRET\n');
    git(cwd, 'config', 'core.worktree', relative(join(cwd, '.git'), outside));
    for (const command of ['git diff', 'git status', 'git checkout -- .', 'git stash']) {
      const r = await bash(command, cwd);
      assert.equal(r.isError, true, command);
      assert.match(r.content, /core\.worktree/);
      assert.doesNotMatch(r.content, /OUTSIDE-SECRET/);
    }
    assert.equal(readFileSync(join(outside, 'a.txt'), 'utf8'), 'OUTSIDE-SECRET\n');
  });

  it('a .git file, a .git link or a commondir file pointing at another repository: refused', async () => {
    const other = repo('tl-other-', 'OTHER-SECRET\n');
    const viaFile = tmp('tl-gitfile-');
    writeFileSync(join(viaFile, '.git'), `gitdir: ${join(other, '.git')}\n`);
    const viaLink = tmp('tl-gitlink-');
    symlinkSync(join(other, '.git'), join(viaLink, '.git'));
    const viaCommon = repo('tl-common-');
    writeFileSync(join(viaCommon, '.git', 'commondir'), `${join(other, '.git')}\n`);
    for (const cwd of [viaFile, viaLink, viaCommon]) {
      const r = await bash('git log -p', cwd);
      assert.equal(r.isError, true, cwd);
      assert.match(r.content, /another repository/);
      assert.doesNotMatch(r.content, /OTHER-SECRET/);
    }
  });

  it('what git writes itself still runs: a submodule, a worktree (opened on its own or beside its repository), a repository above the folder', async () => {
    const lib = repo('tl-lib-', 'lib\n');
    const main = repo('tl-main-');
    git(main, 'submodule', 'add', '-q', lib, 'lib');
    const sub = await bash('git status --short && git log --oneline -1', join(main, 'lib'));
    assert.notEqual(sub.isError, true, sub.content);
    const fromTop = await bash('git status --short', main);
    assert.notEqual(fromTop.isError, true, fromTop.content);
    const wt = join(tmp('tl-wtparent-'), 'wt');
    git(main, 'worktree', 'add', '-q', wt);
    const inWorktree = await bash('git status --short', wt);
    assert.notEqual(inWorktree.isError, true, inWorktree.content);
    mkdirSync(join(main, 'pkg'));
    const below = await bash('git status --short', join(main, 'pkg'));
    assert.notEqual(below.isError, true, below.content);
  });

  it('a driver in an included file whose name is spelled with escapes or a continuation is switched off', async () => {
    for (const spelling of ['"evil\\tcfg"', 'evil\\\ncfg', '"x\\ny"']) {
      const cwd = repo('tl-inc-');
      const m = marker();
      const name = spelling.startsWith('"x') ? 'x\ny' : 'evil\tcfg';
      writeFileSync(join(cwd, '.git', name), `[filter "evil"]\n\tclean = ${m.program}\n\tsmudge = ${m.program}\n[diff "evil"]\n\ttextconv = ${m.program}\n`);
      writeFileSync(join(cwd, '.git', 'config'), `${readFileSync(join(cwd, '.git', 'config'), 'utf8')}[include]\n\tpath = ${spelling}\n`);
      writeFileSync(join(cwd, '.gitattributes'), '* filter=evil diff=evil\n');
      writeFileSync(join(cwd, 'a.txt'), 'changed\n');
      const r = await bash('git status --short && git diff', cwd);
      assert.notEqual(r.isError, true, r.content);
      assert.equal(m.ran(), false, `${spelling}: ${r.content}`);
    }
  });

  it('trailer commands, a diff tool’s path and an alias the repository defines run nothing', async () => {
    const cwd = repo('tl-more-');
    const m = marker();
    git(cwd, 'config', 'trailer.rev.cmd', m.program);
    git(cwd, 'config', 'trailer.rev.command', m.program);
    git(cwd, 'config', 'difftool.vimdiff.path', m.program);
    git(cwd, 'config', 'mergetool.vimdiff.path', m.program);
    git(cwd, 'config', 'alias.st', `!${m.program}`);
    writeFileSync(join(cwd, 'a.txt'), 'changed\n');
    await bash('git difftool -y --tool=vimdiff', cwd);
    await bash('git st', cwd);
    const commit = await bash('git -c user.name=t -c user.email=t@t commit -qam fix --trailer "rev: me" && git log -1 --format=%B', cwd);
    assert.notEqual(commit.isError, true, commit.content);
    assert.equal(m.ran(), false);
  });

  it('a config git reads differently (over the read cap, an include name with a NUL or a byte that is not UTF-8): refused, nothing runs', async () => {
    for (const variant of ['big', 'nul', 'latin1']) {
      const cwd = repo('tl-odd-');
      const m = marker();
      const drivers = `[filter "evil"]\n\tclean = ${m.program}\n[diff "evil"]\n\ttextconv = ${m.program}\n`;
      const config = join(cwd, '.git', 'config');
      if (variant === 'big') writeFileSync(config, `${readFileSync(config, 'utf8')}${drivers}[user]\n${'\tname = x\n'.repeat(120_000)}`);
      else {
        const name = variant === 'nul' ? 'inc' : 'e\xffv';
        writeFileSync(join(cwd, '.git', 'inc'), drivers);
        writeFileSync(join(cwd, '.git', 'e\xffv'), drivers);
        const path = Buffer.from(variant === 'nul' ? 'inc\0zz' : name, 'latin1');
        writeFileSync(config, Buffer.concat([readFileSync(config), Buffer.from('[include]\n\tpath = '), path, Buffer.from('\n')]));
      }
      writeFileSync(join(cwd, '.gitattributes'), '* filter=evil diff=evil\n');
      writeFileSync(join(cwd, 'a.txt'), 'changed\n');
      const r = await bash('git status --short && git diff', cwd);
      assert.equal(m.ran(), false, `${variant}: ${r.content}`);
      assert.equal(r.isError, true, variant);
    }
  });

  it('an include reached through a link and .. is read where the kernel takes git, and its drivers go off', async () => {
    const cwd = repo('tl-dotdot-');
    const m = marker();
    mkdirSync(join(cwd, '.git', 'a', 'b'), { recursive: true });
    symlinkSync(join(cwd, '.git', 'a', 'b'), join(cwd, '.git', 'sub'));
    writeFileSync(join(cwd, '.git', 'a', 'evil'), `[filter "evil"]\n\tclean = ${m.program}\n\tsmudge = ${m.program}\n[diff "evil"]\n\ttextconv = ${m.program}\n`);
    writeFileSync(join(cwd, '.git', 'config'), `${readFileSync(join(cwd, '.git', 'config'), 'utf8')}[include]\n\tpath = sub/../evil\n`);
    writeFileSync(join(cwd, '.gitattributes'), '* filter=evil diff=evil\n');
    writeFileSync(join(cwd, 'a.txt'), 'changed\n');
    const r = await bash('git status --short && git diff', cwd);
    assert.notEqual(r.isError, true, r.content);
    assert.equal(m.ran(), false, r.content);
  });

  it('settings git would obey that are not known to be safe stop the command, naming the setting', async () => {
    const home = tmp('tl-sethome-');
    const m = marker();
    for (const [key, value] of [
      ['submodule.lib.update', `!${m.program}`],
      ['tar.tgz.command', m.program],
      ['blame.ignoreRevsFile', join(home, '.git-credentials')],
      ['core.excludesFile', '~/.ssh/id_rsa'],
      ['madeup.setting', 'x'],
    ]) {
      const cwd = repo('tl-set-');
      git(cwd, 'config', key!, value!);
      const r = await bash('git blame a.txt; git archive --format=tgz -o out.tgz HEAD; git submodule update', cwd);
      assert.equal(r.isError, true, key);
      assert.match(r.content, new RegExp(key!.toLowerCase().replace('.', '\\.').replace(/(\w+)$/, '$1'), 'i'));
    }
    assert.equal(m.ran(), false);
  });

  it('git data linked or borrowed from outside is refused; a remote on this machine outside is not fetched from', async () => {
    const other = repo('tl-priv-', 'PRIVATE-HISTORY\n');
    const secret = join(tmp('tl-secret-'), 'secret.txt');
    writeFileSync(secret, 'SECRET-LINE\n');
    const linked = repo('tl-mergemsg-');
    symlinkSync(secret, join(linked, '.git', 'MERGE_MSG'));
    const borrowed = repo('tl-alt-');
    writeFileSync(join(borrowed, '.git', 'objects', 'info', 'alternates'), `${join(other, '.git', 'objects')}\n`);
    for (const cwd of [linked, borrowed]) {
      const r = await bash('git log -1', cwd);
      assert.equal(r.isError, true, cwd);
      assert.match(r.content, /outside the workspace/);
    }
    const remote = repo('tl-remote-');
    git(remote, 'remote', 'add', 'origin', other);
    const r = await bash('git fetch -q origin; git log -p --all', remote);
    assert.doesNotMatch(r.content, /PRIVATE-HISTORY/);
  });

  it('includes that fan out through links end at a bound with a clear answer, not a stall or a stack overflow', async () => {
    const cwd = repo('tl-fan-');
    for (let i = 0; i < 4; i++) symlinkSync('.', join(cwd, '.git', `l${i}`));
    writeFileSync(join(cwd, '.git', 'config'), `${readFileSync(join(cwd, '.git', 'config'), 'utf8')}[include]\n${[0, 1, 2, 3].map((i) => `\tpath = l${i}/config\n`).join('')}`);
    const r = await bash('echo hi', cwd);
    // Git itself gives up at its include depth; the guard stops at 64 files and says so.
    assert.equal(r.isError, true);
    assert.match(r.content, /more than 64 config files/);
  });

  it('one config file named by two paths is read from each, and driver names that are not UTF-8 stop the command', async () => {
    const linked = repo('tl-twonames-');
    const m = marker();
    const g = join(linked, '.git');
    mkdirSync(join(g, 'sub'));
    writeFileSync(join(g, 'sub', 'realF'), '[include]\n\tpath = inc\n');
    symlinkSync(join(g, 'sub', 'realF'), join(g, 'F'));
    writeFileSync(join(g, 'inc'), '[user]\n\tname = x\n');
    writeFileSync(join(g, 'sub', 'inc'), `[filter "evil"]\n\tclean = ${m.program}\n\tsmudge = ${m.program}\n[diff "evil"]\n\ttextconv = ${m.program}\n`);
    writeFileSync(join(g, 'config'), `${readFileSync(join(g, 'config'), 'utf8')}[include]\n\tpath = F\n[include]\n\tpath = sub/realF\n`);
    const bytes = repo('tl-bytes-');
    const driver = Buffer.from('e\xff', 'latin1');
    writeFileSync(join(bytes, '.git', 'config'), Buffer.concat([readFileSync(join(bytes, '.git', 'config')), Buffer.from('[filter "'), driver, Buffer.from(`"]\n\tclean = ${m.program}\n\tsmudge = ${m.program}\n`)]));
    writeFileSync(join(bytes, '.gitattributes'), Buffer.concat([Buffer.from('* filter='), driver, Buffer.from('\n')]));
    for (const cwd of [linked, bytes]) {
      if (cwd === linked) writeFileSync(join(cwd, '.gitattributes'), '* filter=evil diff=evil\n');
      writeFileSync(join(cwd, 'a.txt'), 'changed\n');
      const r = await bash('git status --short && git diff', cwd);
      assert.equal(m.ran(), false, `${cwd}: ${r.content}`);
    }
  });

  it('settings named like a program, file or folder are judged as one beyond the lists (format.outputDirectory)', async () => {
    const out = tmp('tl-outdir-');
    const cwd = repo('tl-fmt-');
    git(cwd, 'config', 'format.outputDirectory', out);
    const r = await bash('git format-patch -1', cwd);
    assert.equal(r.isError, true);
    assert.match(r.content, /format\.outputdirectory/);
    assert.deepEqual(readdirSync(out), []);
    const inside = repo('tl-fmtin-');
    git(inside, 'config', 'format.outputDirectory', 'patches');
    git(inside, 'config', 'core.editor', 'vim');
    git(inside, 'config', 'core.hooksPath', '.husky');
    const ok = await bash('git format-patch -1 && ls patches', inside);
    assert.notEqual(ok.isError, true, ok.content);
  });

  it('program settings git reads first-come (core.gitProxy, a remote\'s uploadpack and receivepack) stop the command', async () => {
    const m = marker();
    for (const [key, value] of [
      ['core.gitProxy', m.program],
      ['remote.origin.uploadpack', m.program],
      ['remote.origin.receivepack', m.program],
    ]) {
      const cwd = repo('tl-first-');
      const inside = join(cwd, 'up');
      git(cwd, 'clone', '-q', '--bare', cwd, inside);
      git(cwd, 'remote', 'add', 'origin', inside);
      git(cwd, 'config', key!, value!);
      const r = await bash('git fetch -q origin; git push -q origin HEAD:refs/heads/x', cwd);
      assert.equal(r.isError, true, key);
      assert.match(r.content, new RegExp(key!.toLowerCase().replace(/\./g, '\\.')));
    }
    assert.equal(m.ran(), false);
  });

  it('no push or fetch reaches a repository on this machine (its hooks would run without the guard), and no helper a URL or remote.*.vcs names runs', async () => {
    const m = marker();
    const cwd = repo('tl-localpush-');
    // A bare repository committed as plain files, its hook a program of the attacker's.
    git(cwd, 'clone', '-q', '--bare', cwd, join(cwd, 'other.git'));
    writeFileSync(join(cwd, 'other.git', 'hooks', 'pre-receive'), `#!/bin/sh\n${m.program}\n`);
    chmodSync(join(cwd, 'other.git', 'hooks', 'pre-receive'), 0o755);
    writeFileSync(join(cwd, '.git', 'hooks', 'pre-receive'), `#!/bin/sh\n${m.program}\n`);
    chmodSync(join(cwd, '.git', 'hooks', 'pre-receive'), 0o755);
    mkdirSync(join(cwd, 'git-remote-x'));
    writeFileSync(join(cwd, 'git-remote-x', 'evil'), `#!/bin/sh\n${m.program}\n`);
    chmodSync(join(cwd, 'git-remote-x', 'evil'), 0o755);
    for (const command of ['git push other.git HEAD:refs/heads/x', 'git push . HEAD:refs/heads/y', 'git fetch other.git', "git fetch 'x/evil::foo'", 'git clone -q other.git c']) {
      const r = await bash(command, cwd);
      assert.equal(m.ran(), false, `${command}: ${r.content}`);
    }
    const vcs = repo('tl-vcs-');
    git(vcs, 'remote', 'add', 'origin', 'foo');
    git(vcs, 'config', 'remote.origin.vcs', 'x/evil');
    const r = await bash('git fetch origin', vcs);
    assert.equal(r.isError, true);
    assert.match(r.content, /remote\.origin\.vcs/);
    const proto = repo('tl-proto-');
    git(proto, 'config', 'protocol.file.allow', 'always');
    assert.equal((await bash('git status', proto)).isError, true, 'a repository may not widen the transports');
    assert.equal(m.ran(), false);
  });
  it('pointers and settings spelled through `link/..` are followed as git follows them', async () => {
    const secretHome = tmp('tl-ddhome-');
    mkdirSync(join(secretHome, '.ssh'));
    writeFileSync(join(secretHome, '.ssh', 'id_rsa'), 'DD-SECRET\n');
    const other = repo('tl-ddother-', 'DD-OTHER\n');
    const cases: Array<[string, (cwd: string) => void, RegExp]> = [
      ['core.worktree', (cwd) => git(cwd, 'config', 'core.worktree', '../sl/..'), /core\.worktree/],
      ['a .git file', (cwd) => {
        execFileSync('rm', ['-rf', join(cwd, '.git')]);
        writeFileSync(join(cwd, '.git'), `gitdir: ol/../${relative(join(other, '..'), join(other, '.git'))}\n`);
      }, /git data|outside/],
      ['alternates', (cwd) => writeFileSync(join(cwd, '.git', 'objects', 'info', 'alternates'), `../../ol/../${relative(join(other, '..'), join(other, '.git', 'objects'))}\n`), /alternates/],
      ['blame.ignoreRevsFile', (cwd) => git(cwd, 'config', 'blame.ignoreRevsFile', 'sl/../.ssh/id_rsa'), /ignorerevsfile/i],
      ['format.outputDirectory', (cwd) => git(cwd, 'config', 'format.outputDirectory', 'sl/../out'), /outputdirectory/i],
    ];
    for (const [what, plant, reason] of cases) {
      const cwd = repo('tl-dd-');
      // sl leads to the home folder's .ssh; ol to the folder holding the other repository.
      symlinkSync(join(secretHome, '.ssh'), join(cwd, 'sl'));
      symlinkSync(join(other, '..', relative(join(other, '..'), other)), join(cwd, 'ol'));
      plant(cwd);
      const r = await bash('git status --short; git log -p -1', cwd);
      assert.equal(r.isError, true, `${what}: ${r.content}`);
      assert.match(r.content, reason, what);
      assert.doesNotMatch(r.content, /DD-SECRET|DD-OTHER/, what);
    }
  });

  it('a .git file and a commondir are read as git reads them: blanks at the ends are part of the path', async () => {
    for (const variant of ['trailing', 'leading', 'commondir'] as const) {
      const cwd = repo('tl-gitfile-');
      const { program, ran } = marker();
      const data = join(cwd, variant === 'leading' ? ' .gd' : '.gd ');
      if (variant === 'commondir') {
        // The config with the driver sits in `.cd ` (git's reading); `.cd` without the blank holds a harmless one.
        execFileSync('mv', [join(cwd, '.git'), join(cwd, '.cd ')]);
        mkdirSync(join(cwd, '.gdw'));
        writeFileSync(join(cwd, '.gdw', 'HEAD'), 'ref: refs/heads/master\n');
        writeFileSync(join(cwd, '.gdw', 'commondir'), '../.cd \n');
        writeFileSync(join(cwd, '.git'), 'gitdir: .gdw\n');
        mkdirSync(join(cwd, '.cd'));
        writeFileSync(join(cwd, '.cd', 'config'), '[core]\n');
        git(cwd, 'config', '--file', join(cwd, '.cd ', 'config'), 'filter.ev.clean', program);
      } else {
        execFileSync('mv', [join(cwd, '.git'), data]);
        writeFileSync(join(cwd, '.git'), `gitdir: ${variant === 'leading' ? ' .gd' : '.gd '}\n`);
        git(cwd, 'config', '--file', join(data, 'config'), 'filter.ev.clean', program);
      }
      writeFileSync(join(cwd, '.gitattributes'), '*.txt filter=ev\n');
      writeFileSync(join(cwd, 'a.txt'), 'changed\n');
      const r = await bash('git status --short; git add a.txt', cwd);
      assert.equal(ran(), false, `${variant}: ${r.content}`);
    }
  });
});
