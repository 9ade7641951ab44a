// Pass 35 (twelve critical): what allowed programs load, start or read beyond their words.
// U1 rust-toolchain.toml's `path`; M2, P2 python -m and pydoc beside any module of the folder;
// J1 javac's annotation processors on `.`; J2 the JDK tools' `-J`; G2 gpg's helper programs; K3
// ssh-keygen -D; L1 binutils --plugin; S2 `bash -n +n`; V3 tsc's `@resp`; C3 cscope.files;
// A1 aws's `file://~/…`; H1 git hash-object --stdin-paths; D2 backup suffixes past Edit deny rules.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

const RULES = ['rustfmt', 'cargo fmt', 'python3 -m json.tool', 'pydoc3', 'javac', 'javap', 'keytool -list', 'gpg -d', 'gpg --verify', 'ssh-keygen -l', 'nm', 'ranlib', 'bash -n', 'tsc --noEmit', 'cscope', 'aws sts get-caller-identity', 'git hash-object', 'sed', 'cp', 'mv', 'install'].map((p) => `Bash(${p}:*)`);

function workspace(files: Record<string, string> = {}) {
  const ws = tempDir('pass35');
  writeFileSync(join(ws, 'a.txt'), 'a');
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(ws, p, '..'), { recursive: true });
    writeFileSync(join(ws, p), text);
  }
  return (c: string, deny: string[] = []) => bashEngine(ws, { allow: RULES, deny }, checker).decide(c).behavior;
}

describe('pass 35: programs that load, start or read more than their words say', () => {
  it('files in the folder that steer them ask', () => {
    assert.equal(workspace({ 'rust-toolchain.toml': '[toolchain]\npath = "/proc/self/cwd/tc"\n' })('rustfmt --check src/main.rs'), 'ask');
    assert.equal(workspace({ 'rust-toolchain.toml': '[toolchain]\nchannel = "stable"\n' })('rustfmt --check src/main.rs'), 'allow');
    assert.equal(workspace({ 'argparse.py': 'x' })('python3 -m json.tool a.txt'), 'ask');
    assert.equal(workspace({ 'json/__init__.py': 'x' })('pydoc3 json'), 'ask');
    assert.equal(workspace()('python3 -m json.tool a.txt'), 'allow');
    assert.equal(workspace({ 'META-INF/services/javax.annotation.processing.Processor': 'Evil' })('javac A.java'), 'ask');
    assert.equal(workspace({ 'META-INF/services/javax.annotation.processing.Processor': 'Evil' })('javac -proc:none A.java'), 'allow');
    assert.equal(workspace()('javac -cp lib/x.jar A.java'), 'ask');
    assert.equal(workspace()('javac A.java'), 'allow');
    assert.equal(workspace({ 'cscope.files': '../home/.ssh/id_rsa' })('cscope -L -6 SECRET'), 'ask');
  });

  it('options that load code or start helpers ask', () => {
    const d = workspace();
    for (const c of ['javap -J-javaagent:evil.jar A', 'keytool -list -J-javaagent:e.jar', 'gpg -d --agent-program=./evil s.gpg', 'gpg -d --options o.conf s.gpg', 'gpg -d --homedir=gh s.gpg', 'gpg --verify --photo-viewer=x s.sig', 'ssh-keygen -l -D ./evil.so', 'ssh-keygen -l -w ./p.so -f k', 'nm --plugin ./evil.so f.o', 'ranlib --plugin=./evil.so a.a', 'bash -n +n x.sh', 'bash -n -o x x.sh', 'tsc --noEmit @resp', 'git hash-object -w --stdin-paths', 'aws sts get-caller-identity --cli-input-json file://~/.ssh/id_rsa']) {
      assert.equal(d(c), 'ask', c);
    }
    for (const c of ['gpg -d --batch -o out.txt s.gpg', 'gpg --verify s.sig', 'ssh-keygen -l -f key.pub', 'nm -C f.o', 'bash -n x.sh', 'tsc --noEmit', 'aws sts get-caller-identity --output json']) assert.equal(d(c), 'allow', c);
  });

  it('backup suffixes do not get past an Edit deny rule', () => {
    const d = workspace({ keep: 'k', 'keep.txt': 'protected' });
    for (const c of ['sed -i.txt s/k/X/ keep', "sed -i'*.txt' s/k/X/ keep", 'sed --in-place=.txt s/k/X/ keep', 'cp -b -S .txt a.txt keep', 'mv -b -S .txt a.txt keep', 'install -b -S .txt a.txt keep']) assert.notEqual(d(c, ['Edit(keep.txt)']), 'allow', c);
    assert.equal(d('sed -i s/k/X/ a.txt', ['Edit(keep.txt)']), 'allow');
  });
});
