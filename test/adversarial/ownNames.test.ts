// Pass 29, F3-F7: programs that write files named by themselves, not by a word, through a
// committed link leading out of the workspace. A list of such programs (compilers, split, wget…)
// missed `file -C` (magic.mgc, critical), `tree -R -H` (00Tree.html in every folder: the
// attacker's key into ~/.ssh/authorized_keys, critical), `git format-patch`, `git clone`,
// `rustc --emit=dep-info` and Python's byte-compilers. The rule is now deny-by-default: any
// program not known to write only what its words name asks when such a link sits where it
// writes; one that writes in every folder it walks has them all looked through.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, hasProgram, runBash, tempDir } from './support';

const has = hasProgram;

const checker = new BashChecker();
before(() => checker.ready());

const RULES = ['file', 'tree', 'git format-patch', 'git clone', 'rustc', 'python3 -m py_compile', 'python3 -m compileall', 'ls', 'cat', 'git status', 'gcc', 'make'].map((p) => `Bash(${p}:*)`);

/** A workspace holding `links` (path in the workspace -> a file outside), plus plain files. */
function workspace(links: Record<string, string>) {
  const root = tempDir('ownnames');
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  for (const d of ['a/b', 'sub', 'src']) mkdirSync(join(ws, d), { recursive: true });
  writeFileSync(join(ws, 'magic'), '0 string HELLO hello\n');
  for (const f of ['main.rs', 'a.py', 'sub/b.py', 'notes.txt']) writeFileSync(join(ws, f), '');
  for (const [at, to] of Object.entries(links)) symlinkSync(join(outside, to), join(ws, at));
  const decide = (command: string) => bashEngine(ws, { allow: RULES }, checker).decide(command).behavior;
  return { ws, outside, decide };
}

describe('pass 29 F3-F7: writes of names a program chooses, through a committed link', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['file -C -m magic', { 'magic.mgc': 'victim' }],
    ['tree -R -H . -L 1', { 'a/00Tree.html': 'authorized_keys' }],
    ['tree -H . -R -L 1 a', { 'a/00Tree.html': 'authorized_keys' }],
    ['git format-patch -1', { '0001-init.patch': 'victim' }],
    ['git clone https://example.invalid/y', { y: '.' }],
    ['rustc --emit=dep-info main.rs', { 'main.d': 'victim' }],
    ['python3 -m py_compile sub/b.py', { 'sub/__pycache__': '.' }],
    ['python3 -m compileall -q .', { 'sub/__pycache__': '.' }],
    ['gcc -c src/m.c', { 'm.o': 'victim' }],
  ];
  for (const [command, links] of cases) {
    it(`asks: ${command} with ${Object.keys(links).join(', ')} leading outside`, () => {
      assert.equal(workspace(links).decide(command), 'ask');
    });
  }

  it('the same commands run where no link leads out, and reading programs run beside such a link', () => {
    const clean = workspace({});
    // Python's byte-compilers ask beside any module of the folder anyway (pass 35 M2: it is imported first).
    for (const [command] of cases.filter(([c]) => !c.startsWith('python3'))) assert.equal(clean.decide(command), 'allow', command);
    const linked = workspace({ 'magic.mgc': 'victim', 'a/00Tree.html': 'k' });
    for (const command of ['ls -la', 'cat notes.txt', 'git status', 'file magic', 'tree -L 2']) assert.equal(linked.decide(command), 'allow', command);
  });

  it('file -C really writes through the link (the danger is real)', { skip: !has('file') }, async () => {
    const { ws, outside } = workspace({ 'magic.mgc': 'victim' });
    writeFileSync(join(outside, 'victim'), 'precious');
    await runBash(ws, 'file -C -m magic');
    assert.notEqual(readFileSync(join(outside, 'victim'), 'utf8'), 'precious');
  });
});
