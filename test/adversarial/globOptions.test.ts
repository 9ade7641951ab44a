// Pass 29, F15 (critical): wildcard injection. A glob bash expands to a name starting with `-`
// hands the program an option: with files named `--compress-program=sh` and `--buffer-size=16k`
// committed beside it, `sort *` under `Bash(sort:*)` ran the clone's commands; with one named
// `-R`, `grep SECRET *` walked the home folder through a committed link. Such a match asks.
// Pass 30, F2 (medium): each glob was asked of bash synchronously, 3 s at most each, with no
// bound on their number: 60 words froze the CLI for 170 s. A decision now has a budget of asks
// and time, past which the word counts as unknown and the command asks.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { DECISION_ASKS } from '../../src/permissions/bash/run';
import { bashEngine, runBash, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

function repo() {
  const ws = tempDir('globopts');
  for (const name of ['--compress-program=sh', '--buffer-size=16k']) writeFileSync(join(ws, name), '');
  // Past the buffer, sort spills to temporary files through its compress program, fed the lines.
  writeFileSync(join(ws, 'a.txt'), 'touch pwned\n'.repeat(20_000));
  return ws;
}

describe('pass 29 F15: a glob that matches a name starting with -', () => {
  it('asks under prefix rules, and the attack is real', async () => {
    const ws = repo();
    const decide = (c: string) => bashEngine(ws, { allow: ['Bash(sort:*)', 'Bash(grep:*)', 'Bash(ls:*)', 'Bash(cat:*)'] }, checker).decide(c).behavior;
    for (const c of ['sort *', 'grep SECRET *', 'ls *', 'cat *', 'sort -- *', 'cat [-a]*']) assert.equal(decide(c), 'ask', c);
    for (const c of ['cat ./*', 'cat *.txt', "ls '*'", 'ls -la']) assert.equal(decide(c), 'allow', c);
    await runBash(ws, 'sort * > /dev/null 2>&1 < /dev/null; true');
    assert.ok(existsSync(join(ws, 'pwned')), 'sort * ran the file named by the glob');
  });

  it('asks under Bash as a whole when deny rules name files (-R walks through a link)', () => {
    const root = tempDir('globopts-deny');
    const ws = join(root, 'ws');
    mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
    mkdirSync(ws);
    writeFileSync(join(root, 'home', '.ssh', 'id_rsa'), 'SECRET');
    symlinkSync(join(root, 'home'), join(ws, 'h'));
    writeFileSync(join(ws, '-R'), '');
    const verdict = bashEngine(ws, { allow: ['Bash'], deny: [`Read(${join(root, 'home', '.ssh')}/**)`] }, checker).decide('grep SECRET *').behavior;
    assert.notEqual(verdict, 'allow');
  });
});

describe('pass 30 F2: globs asked of bash within a budget per decision', () => {
  it(`more than ${DECISION_ASKS} distinct globs make the command ask, without asking bash for each`, () => {
    const ws = tempDir('globbudget');
    for (let i = 0; i < 5; i++) writeFileSync(join(ws, `f${i}`), '');
    const words = Array.from({ length: DECISION_ASKS + 8 }, (_, i) => `*${i}`);
    const verdict = bashEngine(ws, { allow: ['Bash(ls:*)'] }, checker).decide(`ls ${words.join(' ')}`);
    assert.equal(verdict.behavior, 'ask');
    assert.equal(bashEngine(ws, { allow: ['Bash(ls:*)'] }, checker).decide('ls f* *1').behavior, 'allow', 'a few globs still run');
  });
});

describe('pass 32 B1, B2, G1: braces and leading-dash globs that make options', () => {
  it('asks under prefix rules', () => {
    const ws = tempDir('braceopts');
    writeFileSync(join(ws, '-R'), '');
    writeFileSync(join(ws, 'f'), 'x\n');
    const d = (c: string) => bashEngine(ws, { allow: ['Bash(grep:*)', 'Bash(sort:*)', 'Bash(split:*)', 'Bash(curl:*)', 'Bash(gcc:*)', 'Bash(ssh:*)', 'Bash(ls:*)', 'Bash(cat:*)'] }, checker).decide(c).behavior;
    for (const c of ['grep {-R,SECRET}', 'grep SECRET -[R]', 'sort {--compress-program=sh,f}', 'split {--filter=sh,f}', 'curl {-K,cfg} http://x', 'gcc {-wrapper,./evil} -c m.c', 'ssh {-oProxyCommand=x,h}', 'grep x -*']) assert.equal(d(c), 'ask', c);
    for (const c of ['ls {a,b}.txt', 'cat f.{txt,md}', 'cat {f,g}']) assert.equal(d(c), 'allow', c);
  });

  it('under Bash with a deny rule on a program, a brace handing it over asks', () => {
    const ws = tempDir('braceopts-deny');
    writeFileSync(join(ws, 'f'), 'x\n');
    const d = (c: string) => bashEngine(ws, { allow: ['Bash'], deny: ['Bash(rm:*)'] }, checker).decide(c).behavior;
    assert.notEqual(d("split {'--filter=rm -f keep',f}"), 'allow');
    assert.equal(d('cat {f,g}'), 'allow');
  });
});
