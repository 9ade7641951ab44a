// Pass 53 on ad00365, trusted `Bash` with deny rules unless said. H1 (high): output redirections
// (`>>`, `: >`, `&>`, `exec 3>`, inside `bash -c`) and sed/awk scripts that write were not judged
// against Edit and Write deny rules. M1 (medium): bash's history rebuilt a denied command (`fc -s`,
// `set -H`, an interactive shell). M2 (medium): archives, patches and find's actions write files no
// word names. L1 (low): untrusted, `mktemp` made a file in /tmp. L2 (low): a value assigned as
// written named a denied file (`HISTFILE=~/.ssh/id_rsa history -r`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashEngine, loadedChecker } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

async function setup() {
  const root = tmp('tl-53-');
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.bashrc'), 'mine\n');
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n');
  writeFileSync(join(ws, 'victim.txt'), 'keep\n');
  writeFileSync(join(ws, 'ok.txt'), 'ok\n');
  return { ws, home, checker: await loadedChecker() };
}

describe('pass 53', () => {
  it('H1: redirections and script writes meet Edit and Write deny rules', async () => {
    const { ws, home, checker } = await setup();
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Edit(~/.bashrc)', 'Write(~/.bashrc)', 'Edit(victim.txt)'] }, checker, { home });
    for (const command of ["echo 'echo EVIL' >> ~/.bashrc", ': > victim.txt', 'echo x &> victim.txt', 'echo x >| victim.txt', 'exec 3> victim.txt', '{ echo x; } > victim.txt', "bash -c 'echo x > ~/.bashrc'", 'echo x 2> victim.txt', "sed -n 'w victim.txt' ok.txt", 'awk \'{print > "victim.txt"}\' ok.txt']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['echo x > ok.txt', "sed 's/a/b/' ok.txt", 'echo x 2>&1']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M1: a command built from bash\'s history asks under deny rules', async () => {
    const { ws, checker } = await setup();
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Bash(rm:*)'] }, checker);
    for (const command of ["bash -c \"history -s 'rQ victim.txt'; fc -s Q=m\"", 'fc -s', 'set -H; echo hi', "bash -ic 'ls'", "bash -c 'set -o histexpand; ls'"]) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['fc -l', 'history', 'ls -i']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M2: writes no word names ask under write deny rules', async () => {
    const { ws, checker } = await setup();
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Edit(victim.txt)'] }, checker);
    for (const command of ['tar -xf x.tar', 'unzip -o x.zip', 'patch < p.diff', 'cpio -id < x.cpio', 'find . -name victim.txt -delete', 'find . -exec truncate -s0 {} +']) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['tar -tf x.tar', 'find . -name "*.ts"']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('L1: untrusted, mktemp in the temporary folder asks', async () => {
    const { ws, checker } = await setup();
    const eng = bashEngine(ws, { allow: ['Bash'] }, checker, { trusted: false });
    await eng.permissions.ready();
    for (const command of ['mktemp', 'mktemp -d', 'mktemp -t x.XXXX', 'mktemp --tmpdir']) assert.equal(eng.decide(command).behavior, 'ask', command);
    assert.equal(eng.decide('mktemp ./x.XXXX').behavior, 'allow');
  });

  it('L2: a value assigned as written that names a denied file is judged as that file', async () => {
    const { ws, home, checker } = await setup();
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)', 'Edit(~/.bashrc)'] }, checker, { home });
    for (const command of ['HISTFILE=~/.ssh/id_rsa history -r; history', 'BASH_ENV=~/.ssh/id_rsa bash -c :', 'HISTFILE=~/.bashrc history -w', `export NODE_OPTIONS=--require=${home}/.ssh/id_rsa`]) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['PATH=/usr/bin:/bin ls', 'X=hello; echo $X']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
