// Pass 39 C6 (critical) and C4 (high): a path whose `..` comes after a committed link. The checks
// folded `..` as text, so `x/../../../../dev/stdin` (with `x -> a/b/c/d/e/f`) read as /dev/stdin and
// was skipped as a stream, while cat opened `a/b/dev/stdin -> ~/.ssh/id_rsa`; and
// `node_modules/left-pad/../../../../../.env` through pnpm's links read as `/.env`, past a
// `Read(./.env)` deny rule on the workspace's `.env`. Names are now judged where the kernel's walk
// puts them (fs/paths.ts entryLocation).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { entryLocation } from '../../src/fs/paths';
import { bashEngine, loadedChecker, runBash } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

/** `<root>/home/.ssh/id_rsa` and a clone `<root>/ws` whose committed links make `x/../../../../dev/*` lead there. */
function streamLookalikes() {
  const root = tmp('tl-dotdot-');
  mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
  writeFileSync(join(root, 'home', '.ssh', 'id_rsa'), 'SECRET-KEY-C6\n');
  writeFileSync(join(root, 'home', '.bashrc'), '# mine\n');
  const ws = join(root, 'ws');
  mkdirSync(join(ws, 'a', 'b', 'c', 'd', 'e', 'f'), { recursive: true });
  mkdirSync(join(ws, 'a', 'b', 'dev'));
  symlinkSync('a/b/c/d/e/f', join(ws, 'x'));
  symlinkSync('../../../../home/.ssh/id_rsa', join(ws, 'a', 'b', 'dev', 'stdin'));
  symlinkSync('../../../../home/.ssh', join(ws, 'a', 'b', 'dev', 'stdout'));
  symlinkSync('../../../../home/.bashrc', join(ws, 'a', 'b', 'dev', 'null'));
  writeFileSync(join(ws, 'evil.sh'), 'echo pwned\n');
  return { root, ws };
}

describe('pass 39 C6: /dev names reached through a link and `..`', () => {
  it('entryLocation walks the link: the name is the clone\'s, not /dev/stdin', () => {
    const { ws } = streamLookalikes();
    assert.equal(entryLocation(`${ws}/x/../../../../dev/stdin`), join(ws, 'a', 'b', 'dev', 'stdin'));
    assert.equal(entryLocation('/dev/stdin'), '/dev/stdin');
    assert.equal(entryLocation('/dev/null'), '/dev/null');
  });

  it('cat, grep -r and cp through the lookalikes are not allowed; the secret stays unread', async () => {
    const { ws } = streamLookalikes();
    const checker = await loadedChecker();
    const eng = bashEngine(ws, { allow: ['Bash(cat:*)', 'Bash(grep:*)', 'Bash(cp:*)'], deny: ['Read(~/.ssh/**)'] }, checker);
    for (const command of ['cat x/../../../../dev/stdin', 'grep -r SECRET x/../../../../dev/stdout', 'cp evil.sh x/../../../../dev/null', 'cat < x/../../../../dev/stdin', 'cat x/./../../../../dev/stdin']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    // The real thing still passes as a stream.
    assert.equal(eng.decide('cat /dev/null').behavior, 'allow');
    assert.equal(eng.decide('echo hi > /dev/null').behavior === 'deny', false);
    const r = await runBash(ws, 'cat x/../../../../dev/stdin');
    assert.match(r.content, /SECRET-KEY-C6/, 'the layout really leads to the key (so the refusal above matters)');
  });
});

describe('pass 39 C4: a deny rule on a linked .env, reached through `..` after a link', () => {
  it('cat and grep through pnpm\'s layout are denied by Read(./.env); writes by Edit(./.env)', async () => {
    const ws = tmp('tl-dotdot-env-');
    mkdirSync(join(ws, 'env'));
    writeFileSync(join(ws, 'env', 'prod.env'), 'DB_PASSWORD=TOPSECRET\n');
    symlinkSync('env/prod.env', join(ws, '.env'));
    mkdirSync(join(ws, 'node_modules', '.pnpm', 'left-pad@1.3.0', 'node_modules', 'left-pad'), { recursive: true });
    symlinkSync('.pnpm/left-pad@1.3.0/node_modules/left-pad', join(ws, 'node_modules', 'left-pad'));
    symlinkSync('env', join(ws, 'a'));
    const checker = await loadedChecker();
    const eng = bashEngine(ws, { allow: ['Bash(cat:*)', 'Bash(grep:*)', 'Bash(head:*)', 'Bash(cp:*)'], deny: ['Read(./.env)', 'Edit(./.env)'] }, checker);
    for (const command of ['cat node_modules/left-pad/../../../../../.env', 'grep PASS node_modules/left-pad/../../../../../.env', 'cat a/../.env', 'head a/../.env', 'cp env/prod.env a/../.env']) {
      assert.equal(eng.decide(command).behavior, 'deny', command);
    }
    // The target by its own name too: a deny rule names where its literal part leads (pass 55 M1).
    assert.equal(eng.decide('cat env/prod.env').behavior, 'deny', 'the file the denied link leads to');
  });
});

describe('pass 43 C4b, D1: a linked folder behind `..`, and a link made and used in one command', () => {
  it('C4b: cat, cp and sed -i through `..` after a link reach cfg/ by its name: the rule on cfg/** holds', async () => {
    const ws = tmp('tl-dotdot-cfg-');
    mkdirSync(join(ws, 'cfgreal'));
    writeFileSync(join(ws, 'cfgreal', 'k.txt'), 'TOPSECRET\n');
    symlinkSync('cfgreal', join(ws, 'cfg'));
    mkdirSync(join(ws, 'node_modules', '.pnpm', 'left-pad@1.3.0', 'node_modules', 'left-pad'), { recursive: true });
    symlinkSync('.pnpm/left-pad@1.3.0/node_modules/left-pad', join(ws, 'node_modules', 'left-pad'));
    mkdirSync(join(ws, 'x', 'y'), { recursive: true });
    symlinkSync('x/y', join(ws, 'b'));
    const checker = await loadedChecker();
    const eng = bashEngine(ws, { allow: ['Bash(cat:*)', 'Bash(cp:*)', 'Bash(sed:*)'], deny: ['Read(./cfg/**)', 'Edit(./cfg/**)'] }, checker);
    for (const command of ['cat node_modules/left-pad/../../../../../cfg/k.txt', 'cp a.txt b/../../cfg/k.txt', "sed -i 's/a/b/' b/../../cfg/k.txt"]) {
      assert.equal(eng.decide(command).behavior, 'deny', command);
    }
  });

  it('D1: under Bash with a Read deny rule, a link made and read through in one command asks', async () => {
    const ws = tmp('tl-linkrace-');
    const checker = await loadedChecker();
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)', 'Edit(~/.bashrc)'] }, checker);
    for (const command of ['mkdir -p q; ln -s ../../home/.ssh q/k; cat q/k/id_rsa', 'ln -s ~/.ssh k && cat k/id_rsa', 'ln -s ~/.bashrc q3; cp x q3']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    assert.equal(eng.decide('ln -s a.txt b.txt').behavior, 'allow', 'a link alone still runs');
  });
});
