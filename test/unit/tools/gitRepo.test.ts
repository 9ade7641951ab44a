import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { branchFromFiles, findRepository, memoryKeyFolder } from '../../../src/tools/gitRepo';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });
const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), 'tl-repo-')));

function repo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a'), 'a');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'a');
  return dir;
}

describe('the repository, read from its files', () => {
  it('a subfolder belongs to the repository above it; outside one the folder is its own key', async () => {
    const root = tmp();
    const r = repo(join(root, 'r'));
    mkdirSync(join(r, 'pkg', 'deep'), { recursive: true });
    assert.equal((await findRepository(join(r, 'pkg', 'deep')))?.top, r);
    assert.equal(await memoryKeyFolder(join(r, 'pkg'), true), r);
    mkdirSync(join(root, 'plain'));
    symlinkSync(join(root, 'plain'), join(root, 'link'));
    assert.equal(await findRepository(join(root, 'plain')), undefined);
    assert.equal(await memoryKeyFolder(join(root, 'link'), true), join(root, 'plain'));
  });

  it('reads the branch, and a detached HEAD, from HEAD', async () => {
    const r = repo(join(tmp(), 'r'));
    git(r, 'checkout', '-q', '-b', 'feature/x');
    assert.equal(await branchFromFiles((await findRepository(r))!), 'feature/x');
    git(r, 'checkout', '-q', '--detach');
    assert.match((await branchFromFiles((await findRepository(r))!)) ?? '', /^HEAD \(detached at [0-9a-f]{7}\)$/);
  });

  it('does not read a HEAD that links out of the git folder', async () => {
    const root = tmp();
    const r = repo(join(root, 'r'));
    writeFileSync(join(root, 'private.txt'), 'ref: refs/heads/PRIVATE-FIRST-LINE\n');
    rmSync(join(r, '.git', 'HEAD'));
    symlinkSync(join(root, 'private.txt'), join(r, '.git', 'HEAD'));
    assert.equal(await branchFromFiles((await findRepository(r))!), undefined);
  });

  it("a worktree whose pointers are relative (git 2.48's worktree.useRelativePaths) shares its repository's key", async () => {
    const root = tmp();
    const main = repo(join(root, 'main'));
    const wt = join(root, 'wt');
    git(main, 'worktree', 'add', '-q', '-b', 'side', wt);
    const gitDir = join(main, '.git', 'worktrees', 'wt');
    writeFileSync(join(wt, '.git'), `gitdir: ${relative(wt, gitDir)}\n`);
    writeFileSync(join(gitDir, 'gitdir'), `${relative(gitDir, join(wt, '.git'))}\n`);
    assert.equal(readFileSync(join(gitDir, 'commondir'), 'utf8').trim(), '../..');
    assert.equal(await memoryKeyFolder(wt, true), main);
    assert.equal(await branchFromFiles((await findRepository(wt))!), 'side');
  });

  it('a worktree pointer spelled `link/..` leads where git takes it (the kernel follows the link before `..`)', async () => {
    const root = tmp();
    const main = repo(join(root, 'main'));
    const wt = join(root, 'wt');
    git(main, 'worktree', 'add', '-q', '-b', 'side', wt);
    // wt/l -> root/main/.git, so l/../.git/worktrees/wt is main/.git/worktrees/wt for git and the
    // kernel; as text it is wt/.git/worktrees/wt, which does not exist.
    symlinkSync(join(main, '.git'), join(wt, 'l'));
    writeFileSync(join(wt, '.git'), 'gitdir: l/../.git/worktrees/wt\n');
    execFileSync('git', ['status', '--short'], { cwd: wt });
    assert.equal(execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: wt, encoding: 'utf8' }).trim(), join(main, '.git', 'worktrees', 'wt'));
    assert.equal((await findRepository(wt))?.gitDir, join(main, '.git', 'worktrees', 'wt'));
    assert.equal(await memoryKeyFolder(wt, true), main);
  });

  it('a worktree of a bare repository is keyed on the bare repository', async () => {
    const root = tmp();
    const src = repo(join(root, 'src'));
    git(root, 'clone', '-q', '--bare', src, 'bare.git');
    git(join(root, 'bare.git'), 'worktree', 'add', '-q', join(root, 'w'), 'main');
    assert.equal(await memoryKeyFolder(join(root, 'w'), true), join(root, 'bare.git'));
  });

  it("a submodule is its own folder (its .git file points into the parent's .git/modules, with no way back)", async () => {
    const root = tmp();
    const sub = repo(join(root, 'subsrc'));
    const parent = repo(join(root, 'parent'));
    git(parent, 'submodule', 'add', '-q', sub, 'mod');
    const found = await findRepository(join(parent, 'mod'));
    assert.equal(found?.top, join(parent, 'mod'));
    assert.equal(found?.gitDir, undefined, 'not read through');
    assert.equal(await memoryKeyFolder(join(parent, 'mod'), true), join(parent, 'mod'));
  });
});
