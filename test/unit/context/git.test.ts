import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ContextService } from '../../../src/context/contextService';
import { formatGitSnapshot, MAX_STATUS_CHARS, takeGitSnapshot } from '../../../src/context/git';
import { testHost } from '../../support/host';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tl-git-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Ada Example');
  git('config', 'user.email', 'ada@example.invalid');
  for (let i = 1; i <= 7; i++) {
    writeFileSync(join(dir, `f${i}.txt`), `${i}\n`);
    git('add', '.');
    git('commit', '-q', '-m', `commit number ${i}`);
  }
  git('checkout', '-q', '-b', 'feature/x');
  writeFileSync(join(dir, 'f1.txt'), 'changed\n');
  writeFileSync(join(dir, 'new.txt'), 'new\n');
  return dir;
}

describe('git snapshot', () => {
  it('reads branch, main branch, status, the last five commits and the user, worded as a snapshot', async () => {
    const dir = repo();
    const s = await takeGitSnapshot(dir, { trusted: true });
    assert.ok(s);
    assert.equal(s.branch, 'feature/x');
    assert.equal(s.mainBranch, 'main');
    assert.equal(s.userName, 'Ada Example');
    assert.match(s.status, /^ M f1\.txt$/m);
    assert.match(s.status, /^\?\? new\.txt$/m);
    assert.equal(s.recentCommits.split('\n').length, 5);
    assert.match(s.recentCommits, /commit number 7/);
    assert.doesNotMatch(s.recentCommits, /commit number 2/);
    const text = formatGitSnapshot(s);
    assert.match(text, /snapshot in time/);
    assert.match(text, /Current branch: feature\/x/);
  });

  it('counts a repository with no commits yet: its branch, its untracked files, no commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-git-empty-'));
    execFileSync('git', ['-c', 'init.defaultBranch=trunk', 'init', '-q'], { cwd: dir });
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const s = await takeGitSnapshot(dir, { trusted: true });
    assert.ok(s, 'a git init folder is a repository');
    assert.equal(s.branch, 'trunk');
    assert.equal(s.recentCommits, '');
    assert.match(s.status, /^\?\? a\.txt$/m);
    assert.match(formatGitSnapshot(s), /Recent commits:\n\(none\)/);
  });

  it('lists the status exactly as one `git status --short` at the top would: tracked, then untracked, folders whole, ignored and empty ones left out', async () => {
    const dir = repo();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    writeFileSync(join(dir, '.gitignore'), 'build/\n*.log\n');
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build', 'out.js'), 'x');
    writeFileSync(join(dir, 'debug.log'), 'x');
    mkdirSync(join(dir, 'empty'));
    mkdirSync(join(dir, 'fresh', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'fresh', 'deep', 'a.ts'), 'x');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'tracked.ts'), 'x');
    git('add', 'sub/tracked.ts');
    writeFileSync(join(dir, 'sub', 'loose.ts'), 'x');
    writeFileSync(join(dir, 'odd\tname "ü".txt'), 'x');
    git('rm', '-q', 'f2.txt');
    git('mv', 'f3.txt', 'f3-moved.txt');
    const s = await takeGitSnapshot(join(dir, 'sub'), { trusted: true });
    const expected = git('-c', 'core.quotePath=true', 'status', '--short').replace(/^\n+/, '').trimEnd();
    assert.equal(s?.status, expected);
    assert.match(s.status, /^\?\? fresh\/$/m, 'a wholly untracked folder is one line');
    assert.doesNotMatch(s.status, /build|debug\.log|empty/);
  });

  it('names a detached HEAD by its commit', async () => {
    const dir = repo();
    execFileSync('git', ['checkout', '-q', '--detach', 'HEAD~1'], { cwd: dir });
    const s = await takeGitSnapshot(dir, { trusted: true });
    assert.match(s?.branch ?? '', /^HEAD \(detached at [0-9a-f]{7,}\)$/);
  });

  it('is undefined outside a repository', async () => {
    assert.equal(await takeGitSnapshot(mkdtempSync(join(tmpdir(), 'tl-nogit-')), { trusted: true }), undefined);
  });

  it('caps the status at 2,000 characters with a note', async () => {
    const dir = repo();
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `untracked-file-with-a-long-name-${i}.txt`), 'x');
    const s = await takeGitSnapshot(dir, { trusted: true });
    assert.ok(s?.statusTruncated);
    assert.ok(s.status.length <= MAX_STATUS_CHARS && s.status.length > MAX_STATUS_CHARS - 100, String(s.status.length));
    assert.match(s.status, /\.txt$/, 'cut at the end of a line');
    assert.match(formatGitSnapshot(s), /cut at 2000 characters/);
  });

  it('gives up on a git that does not answer in time', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'tl-slowgit-'));
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nsleep 5\n');
    chmodSync(join(bin, 'git'), 0o755);
    const dir = repo();
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      assert.equal(await takeGitSnapshot(dir, { trusted: true, timeoutMs: 200 }), undefined);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('git snapshot in a hostile repository', () => {
  it("never runs the repository's core.fsmonitor command (a downloaded repository's .git/config can name any program)", async () => {
    const dir = repo();
    const marker = join(dir, '..', `${dir.split('/').pop()}-fsmonitor-ran`);
    const hook = join(dir, 'hook.sh');
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(hook, 0o755);
    execFileSync('git', ['config', 'core.fsmonitor', hook], { cwd: dir });
    // The same repository, asked by the user's own git, does run it: the trap is armed.
    execFileSync('git', ['status', '--short'], { cwd: dir, stdio: 'ignore' });
    assert.ok(existsSync(marker), 'plain git status runs the hook here');
    rmSync(marker);
    const s = await takeGitSnapshot(dir, { trusted: true });
    assert.ok(s, 'the snapshot is still taken');
    assert.match(s.status, /new\.txt/);
    assert.equal(existsSync(marker), false, 'the snapshot ran the fsmonitor hook');
  });

  it('runs no filter whose driver name is not UTF-8 (its override could not name it back to git)', async () => {
    const dir = repo();
    const marker = join(dir, '..', `${dir.split('/').pop()}-filter-ran`);
    const prog = join(dir, 'filter.sh');
    writeFileSync(prog, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
    chmodSync(prog, 0o755);
    const driver = Buffer.from('e\xff', 'latin1');
    const config = join(dir, '.git', 'config');
    writeFileSync(config, Buffer.concat([readFileSync(config), Buffer.from('[filter "'), driver, Buffer.from(`"]\n\tclean = ${prog}\n\tsmudge = ${prog}\n`)]));
    writeFileSync(join(dir, '.gitattributes'), Buffer.concat([Buffer.from('* filter='), driver, Buffer.from('\n')]));
    // Same bytes, a newer time: git must read the file through its filter to tell whether it
    // changed. (Relying on the commit and the status falling in one second failed on a loaded machine.)
    const restamp = (ahead: number) => utimesSync(join(dir, 'f1.txt'), new Date(Date.now() + ahead), new Date(Date.now() + ahead));
    restamp(3_600_000);
    // Plain git runs it: the trap is armed.
    execFileSync('git', ['status', '--short'], { cwd: dir, stdio: 'ignore' });
    assert.ok(existsSync(marker), 'plain git status runs the filter here');
    rmSync(marker);
    restamp(7_200_000);
    await takeGitSnapshot(dir, { trusted: true });
    assert.equal(existsSync(marker), false, 'the snapshot ran the filter');
  });

  it('runs no git at all in Restricted Mode, and takes the snapshot once the folder is trusted', async () => {
    const dir = repo();
    const bin = mkdtempSync(join(tmpdir(), 'tl-countgit-'));
    const log = join(bin, 'calls');
    const real = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      let trusted = false;
      const svc = new ContextService({ cwd: dir, home: join(dir, '.home'), managedRoot: null, filesystemRoot: dir, host: { ...testHost(), isTrusted: () => trusted } });
      svc.prefetch();
      const [untrusted] = await svc.systemSections();
      assert.match(untrusted ?? '', /Current branch: feature\/x/, 'the branch is read from .git/HEAD');
      assert.match(untrusted ?? '', /no git command ran/);
      assert.doesNotMatch(untrusted ?? '', /new\.txt|commit number/, 'status and commits need git');
      await svc.reminders();
      assert.equal(existsSync(log), false, 'git ran in Restricted Mode');
      trusted = true;
      const [section] = await svc.systemSections();
      assert.match(section ?? '', /Current branch: feature\/x/);
      assert.ok(existsSync(log), 'git runs once the folder is trusted');
    } finally {
      process.env.PATH = saved;
    }
  });
  it('a .git file pointing at another repository (however spelled) starts no git there: the snapshot comes from files', async () => {
    const victim = repo();
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'VICTIM-SUBJECT'], { cwd: victim, stdio: 'ignore' });
    for (const pointer of [join(victim, '.git'), `vl/../${victim.split('/').pop()}/.git`]) {
      const ws = mkdtempSync(join(tmpdir(), 'tl-gitfile-'));
      symlinkSync(victim, join(ws, 'vl'));
      writeFileSync(join(ws, '.git'), `gitdir: ${pointer}\n`);
      const s = await takeGitSnapshot(ws, { trusted: true });
      assert.ok(s, pointer);
      assert.equal(s.filesOnly, true, pointer);
      assert.doesNotMatch(formatGitSnapshot(s), /VICTIM-SUBJECT|commit number/, pointer);
    }
  });
});
