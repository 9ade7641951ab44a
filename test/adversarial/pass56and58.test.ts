// Passes 56 and 58 on d0a0c2f, trusted `Bash` with deny rules unless said. 56 H1 (high): find's
// `-fprint`, `-fprintf`, `-fls` write the file they name, past Edit and Write deny rules. 56 M1: find's
// start folder spelled with `~` was not expanded before its actions were judged. 56 M2: history
// behind a wrapper (`builtin fc`), shells told to expand history by option, `mapfile -C`, `script`.
// 56 L1: values assigned by `for`, `printf -v` and `${X:=…}`. 58 L1: a deny rule that matches at any
// depth did not reach a folder added with --add-dir.
import assert from 'node:assert/strict';
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
    for (const command of ["python3 -c 'print(2*3)'", 'echo hi > s.sh; bash s.sh']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
