// Pass 29, F8 (medium): Edit and Write deny rules held against `rm f`, `cp a f` and `tee f`, but
// not against writes by programs whose writes the checks did not model (`dd of=f`, `install a f`)
// nor against git verbs that rewrite the work tree (`git checkout -- f`, `git checkout .`,
// `git reset --hard`, `git stash`, `git clean`, `git rm`): uncommitted work in the protected file
// was lost. Now a word of such a program is judged as a write too, and such a git verb asks in a
// folder holding a file the rules protect.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

function repo() {
  const ws = tempDir('denywrites');
  execFileSync('git', ['init', '-q'], { cwd: ws });
  writeFileSync(join(ws, 'keep.txt'), 'my uncommitted work');
  writeFileSync(join(ws, 'a.txt'), 'a');
  return ws;
}

const DENY = ['Edit(keep.txt)', 'Write(keep.txt)'];
const WRITERS = ['git checkout -- keep.txt', 'git checkout .', 'git checkout -f', 'git restore keep.txt', 'git rm keep.txt', 'git clean -fx keep.txt', 'git reset --hard', 'git stash', 'git mv -f a.txt keep.txt', 'dd of=keep.txt if=a.txt', 'install a.txt keep.txt'];

describe('pass 29 F8: Edit and Write deny rules against writes by git, dd and install', () => {
  it('under rules naming the programs', () => {
    const ws = repo();
    const allow = ['git checkout', 'git restore', 'git rm', 'git clean', 'git reset', 'git stash', 'git mv', 'dd', 'install', 'git status', 'git diff'].map((p) => `Bash(${p}:*)`);
    const d = (c: string) => bashEngine(ws, { allow, deny: DENY }, checker).decide(c).behavior;
    for (const c of WRITERS) assert.notEqual(d(c), 'allow', c);
    for (const c of ['git status', 'git diff', 'dd if=a.txt of=b.txt']) assert.equal(d(c), 'allow', c);
  });

  it('under Bash as a whole', () => {
    const ws = repo();
    const d = (c: string) => bashEngine(ws, { allow: ['Bash'], deny: DENY }, checker).decide(c).behavior;
    for (const c of WRITERS) assert.notEqual(d(c), 'allow', c);
    for (const c of ['git status', 'ls', 'dd if=a.txt of=b.txt']) assert.equal(d(c), 'allow', c);
  });

  it('without such deny rules the same commands run', () => {
    const ws = repo();
    const d = (c: string) => bashEngine(ws, { allow: ['Bash'] }, checker).decide(c).behavior;
    for (const c of WRITERS) assert.equal(d(c), 'allow', c);
  });
});
