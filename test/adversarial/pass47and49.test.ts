// Passes 47 and 49 on 13ddf9f. C1 (critical): `jobs -x CMD` runs CMD, and jobs was listed as inert.
// C2 (critical): `cp FILE DIR` writes DIR/FILE, which a clone may commit as a link out. C3, H1v
// (critical): a variable named glued to an option or inside a bundle (`read -aCDPATH`, `read
// -raPATH`, `wait -fp PATH`). G5 (critical): deny rules with a wildcard in a folder part were not
// looked for inside folders given to recursive programs. G2 (high): a job started detached
// (`setsid -f`, `nohup`, `bash -c '… &'`) moved a link after the next command was judged.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashEngine, loadedChecker } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
async function checker() {
  const c = await loadedChecker();
  return c;
}

describe('pass 47: jobs -x, copies into a folder with a link, names glued to options', () => {
  it('C1: jobs -x runs its command: deny rules see it, and untrusted it asks', async () => {
    const cwd = tmp('tl-c1-');
    const c = await checker();
    const eng = bashEngine(cwd, { allow: ['Bash'], deny: ['Bash(rm:*)', 'Read(~/.ssh/**)', 'Bash(curl:*)'] }, c);
    for (const command of ['jobs -x rm victim.txt', 'jobs -x cat ~/.ssh/id_rsa', 'jobs -x curl x']) assert.equal(eng.decide(command).behavior, 'deny', command);
    const untrusted = bashEngine(cwd, { allow: ['Bash'] }, c, { trusted: false });
    await untrusted.permissions.ready();
    assert.equal(untrusted.decide('jobs -x python3 x.py').behavior, 'ask');
  });

  it('C2: a copy into a folder holding a link out asks', async () => {
    const root = tmp('tl-c2-');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'e'), { recursive: true });
    mkdirSync(join(ws, 'payload'));
    writeFileSync(join(root, '.bashrc'), 'mine\n');
    writeFileSync(join(ws, 'payload', '.bashrc'), 'evil\n');
    symlinkSync(join(root, '.bashrc'), join(ws, 'e', '.bashrc'));
    const c = await checker();
    for (const trusted of [true, false]) {
      const eng = bashEngine(ws, { allow: ['Bash(cp:*)'] }, c, { trusted });
      await eng.permissions.ready();
      for (const command of ['cp payload/.bashrc e', 'cp -t e payload/.bashrc', 'cp -r payload/. e']) assert.equal(eng.decide(command).behavior, 'ask', `${trusted}: ${command}`);
      assert.equal(eng.decide('cp payload/.bashrc payload2').behavior, 'allow');
    }
  });

  it('C3, H1v: names glued to options or inside bundles', async () => {
    const cwd = tmp('tl-c3-');
    const c = await checker();
    const eng = bashEngine(cwd, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, c);
    for (const command of ['read -aCDPATH <<< ~; cd .ssh; cat id_rsa', 'printf -vCDPATH ~; cd .ssh; cat id_rsa', 'read -aHOME <<< ~/.ssh; cat ~/id_rsa']) assert.equal(eng.decide(command).behavior, 'ask', command);
    const untrusted = bashEngine(cwd, { allow: ['Bash'] }, c, { trusted: false });
    await untrusted.permissions.ready();
    for (const command of ['read -aPATH <<< 0; ls', 'read -raPATH <<< 0; ls', 'read -u0 -aPATH; ls', 'wait -fp PATH; ls', 'wait -np PATH; ls', 'wait -fpPATH; ls']) assert.equal(untrusted.decide(command).behavior, 'ask', command);
    for (const command of ['read -r line < a.txt', 'wait']) assert.equal(untrusted.decide(command).behavior, 'allow', command);
  });
});

describe('pass 49: wildcard folders in deny rules, jobs started detached', () => {
  it('G5: a deny rule with a wildcard in a folder part reaches into a folder given to a recursive read', async () => {
    const cwd = tmp('tl-g5-');
    mkdirSync(join(cwd, 'packages', 'api'), { recursive: true });
    mkdirSync(join(cwd, 'docs'));
    writeFileSync(join(cwd, 'packages', 'api', '.env'), 'TOP\n');
    const c = await checker();
    for (const deny of ['Read(packages/*/.env)', 'Read(*/api/.env)', 'Read(packages/{api,web}/.env)']) {
      const e = bashEngine(cwd, { allow: ['Bash(grep:*)', 'Bash(mv:*)'], deny: [deny] }, c);
      for (const command of ['grep -r TOP packages/api', 'grep -r TOP packages', 'mv packages/api packages/web/']) assert.notEqual(e.decide(command).behavior, 'allow', `${deny}: ${command}`);
      assert.equal(e.decide('grep -r TOP docs').behavior, 'allow', deny);
    }
  });

  it('G2: under deny rules, a job started detached asks', async () => {
    const cwd = tmp('tl-g2-');
    const c = await checker();
    const eng = bashEngine(cwd, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, c);
    for (const command of ["setsid -f sh -c 'sleep 3; mv a/b/l c/l'", "bash -c '(sleep 3; mv a/b/l c/l) &'", 'nohup mv a b']) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['ls && echo ok', "bash -c 'ls && echo ok'", 'ls 2>&1']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
