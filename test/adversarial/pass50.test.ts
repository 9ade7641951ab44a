// Pass 50 on 4381b1e. C1 (critical): a copy's target folder glued to its option
// (`cp --target-directory=e x`, `cp -te x`) was not looked into for links leading out. C2
// (critical): keyword mode turned on by a name after an `o` in a bundle (`set -eo keyword`,
// `shopt -os keyword`) made `ls PATH=0` set PATH. H1 (high): jq reads `$ ENV` as `$ENV`. L1 (low):
// echo decodes escapes under `shopt -s xpg_echo`; a script inside the command wrote what the outer
// one ran. L2 (low, 47 L1): untrusted, `date -s` and `hostname NAME` change the machine.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashEngine, loadedChecker } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('pass 50', () => {
  it('C1: a target folder glued to a copy\'s option is looked into for links leading out', async () => {
    const root = tmp('tl-50c1-');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'e'), { recursive: true });
    mkdirSync(join(ws, 'payload'));
    mkdirSync(join(ws, 'plain'));
    writeFileSync(join(root, '.bashrc'), 'mine\n');
    writeFileSync(join(ws, 'payload', '.bashrc'), 'evil\n');
    symlinkSync(join(root, '.bashrc'), join(ws, 'e', '.bashrc'));
    const c = await loadedChecker();
    const eng = bashEngine(ws, { allow: ['Bash(cp:*)', 'Bash(install:*)', 'Bash(mv:*)'] }, c, { trusted: false });
    await eng.permissions.ready();
    for (const command of ['cp --target-directory=e payload/.bashrc', 'cp --target-dir=e payload/.bashrc', 'cp --t=e payload/.bashrc', 'cp -te payload/.bashrc', 'cp -rte payload/.bashrc', 'install -te payload/.bashrc', 'mv --target-directory=e payload/.bashrc']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['cp --target-directory=plain payload/.bashrc', 'cp -tplain payload/.bashrc']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('C2: keyword mode by any spelling asks, with or without file deny rules', async () => {
    const cwd = tmp('tl-50c2-');
    const c = await loadedChecker();
    for (const deny of [['Bash(rm:*)', 'Read(~/.ssh/**)'], ['Bash(rm:*)', 'Bash(curl:*)']]) {
      const eng = bashEngine(cwd, { allow: ['Bash'], deny }, c, { trusted: false });
      await eng.permissions.ready();
      for (const command of ['set -eo keyword; ls PATH=0', 'set -euo keyword; ls PATH=0', 'shopt -os keyword; ls PATH=0', 'shopt -o -s keyword; ls PATH=0', 'shopt -pos keyword; cat a.txt LD_PRELOAD=./x.so']) {
        assert.equal(eng.decide(command).behavior, 'ask', `${deny}: ${command}`);
      }
      assert.equal(eng.decide('set -e; ls').behavior, 'allow');
    }
  });

  it('H1: jq\'s $ENV spelled with blanks or a comment between $ and ENV asks', async () => {
    const cwd = tmp('tl-50h1-');
    const c = await loadedChecker();
    for (const trusted of [true, false]) {
      const eng = bashEngine(cwd, { allow: ['Bash(jq:*)', 'Bash(yq:*)'] }, c, { trusted });
      await eng.permissions.ready();
      for (const command of ["jq -n '$ ENV.AWS_SECRET_ACCESS_KEY'", "jq -n $'$#c\\nENV'", "jq -n '$\tENV | keys'", "yq -n '$ ENV'"]) assert.equal(eng.decide(command).behavior, 'ask', command);
      assert.equal(eng.decide("jq -n '.a'").behavior, 'allow');
    }
  });

  it('L1: echo with a backslash, and a writer inside an inner script, are decoding writers to a file later run', async () => {
    const cwd = tmp('tl-50l1-');
    const c = await loadedChecker();
    const eng = bashEngine(cwd, { allow: ['Bash'], deny: ['Bash(rm:*)'] }, c);
    for (const command of ["shopt -s xpg_echo; echo 'r\\0155 victim.txt' > s.sh; bash s.sh", "bash -c \"printf 'r\\155 victim.txt' > s.sh\"; bash s.sh", "bash -O xpg_echo -c \"echo 'r\\0155 v' > s\"; . ./s"]) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    assert.equal(eng.decide("echo 'hello' > s.sh; bash s.sh").behavior, 'allow');
  });

  it('L2: untrusted, date and hostname only print', async () => {
    const cwd = tmp('tl-50l2-');
    const c = await loadedChecker();
    const eng = bashEngine(cwd, { allow: ['Bash'] }, c, { trusted: false });
    await eng.permissions.ready();
    for (const command of ['date -s 2001-01-01', 'date 010101012001', 'date --set=x', 'hostname evil', 'hostname -F f']) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['date', 'date +%s', 'date -u +%F', 'date -d yesterday', 'hostname', 'hostname -f']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
