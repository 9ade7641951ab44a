// Pass 46: ways a Read deny rule was read past. F1 (critical): Edit's success or failure on a
// Read-denied file is an oracle (one replace_all guess a character read it back in 34 requests);
// Edit is now denied there too. F2 (critical): a rule that matches at any depth (`**/.env`, `*.pem`)
// was not looked for inside a folder given to a recursive program (`grep -r x packages`). F4 (high):
// a background job moved a link after the next command was judged. F3 (medium): Grep's head_limit
// had no bound and 70 MB of matches filled the heap.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { bashEngine, loadedChecker } from './support';
import { runBounded } from '../support/bounded';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const tool = (name: string) => createTools().find((t) => t.name === name) as Tool;

describe('pass 46: Read deny rules read past', () => {
  it('F1: Edit of a file a Read deny rule covers is denied; Write is not, and an ordinary file edits', () => {
    const cwd = tmp('tl-f1-');
    const p = new Permissions({ cwd, rules: () => ({ allow: ['Edit'], ask: [], deny: ['Read(src/secret.txt)', 'Read(./.env)'] }), trusted: () => true });
    for (const file_path of ['src/secret.txt', '.env', `${cwd}/.env`]) {
      const v = p.decide({ tool: tool('Edit'), input: { file_path, old_string: 'a', new_string: 'b', replace_all: true } });
      assert.equal(v.behavior, 'deny', file_path);
      assert.match(v.reason ?? '', /finds its text in the file/);
    }
    assert.equal(p.decide({ tool: tool('Edit'), input: { file_path: 'src/other.txt', old_string: 'a', new_string: 'b' } }).behavior, 'allow');
    assert.equal(p.decide({ tool: tool('Write'), input: { file_path: 'src/secret.txt', content: 'x' } }).behavior, 'allow');
  });

  it('F2: a recursive read of a folder that may hold a file an any-depth rule denies asks', async () => {
    const cwd = tmp('tl-f2-');
    mkdirSync(join(cwd, 'packages', 'api'), { recursive: true });
    writeFileSync(join(cwd, 'packages', 'api', '.env'), 'TOP=1\n');
    writeFileSync(join(cwd, 'packages', 'api', 'k.pem'), 'TOP=2\n');
    mkdirSync(join(cwd, 'docs'));
    const checker = await loadedChecker();
    for (const deny of ['Read(**/.env)', 'Read(.env)', 'Read(*.pem)']) {
      const eng = bashEngine(cwd, { allow: ['Bash(grep:*)', 'Bash(rg:*)', 'Bash(diff:*)', 'Bash(tar:*)'], deny: [deny] }, checker);
      for (const command of ['grep -r TOP packages', 'rg TOP packages', 'diff -r packages other', 'tar -cf - packages']) assert.notEqual(eng.decide(command).behavior, 'allow', `${deny}: ${command}`);
      // A folder that holds no such file is searched as before.
      assert.equal(eng.decide('grep -r TOP docs').behavior, 'allow', `${deny}: docs`);
    }
    // A folder moved or copied into one the rule may reach at any depth: its files land there.
    const eng = bashEngine(cwd, { allow: ['Bash(mv:*)', 'Bash(cp:*)'], deny: ['Edit(**/.env)'] }, checker);
    for (const command of ['mv evil/api packages/', 'cp -r evil/api packages']) assert.notEqual(eng.decide(command).behavior, 'allow', command);
  });

  it('F4: under Bash with a deny rule, a background job asks', async () => {
    const cwd = tmp('tl-f4-');
    const checker = await loadedChecker();
    const eng = bashEngine(cwd, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, checker);
    assert.equal(eng.decide('(sleep 3; mv a/b/l c/l) &').behavior, 'ask');
    assert.equal(eng.decide('sleep 1 &').behavior, 'ask');
    assert.equal(eng.decide('ls -la').behavior, 'allow');
  });

  it('F3: Grep\'s head_limit is bounded', async () => {
    const cwd = tmp('tl-f3-');
    writeFileSync(join(cwd, 'a.txt'), 'a\n'.repeat(20_000));
    const grep = tool('Grep');
    const parsed = grep.parse({ pattern: 'a', output_mode: 'content', head_limit: 1_000_000_000 });
    assert.ok(parsed.ok);
    const r = await grep.call(parsed.value, { cwd, signal: new AbortController().signal });
    assert.match(r.content, /Stopped at 5000 results/);
    assert.ok(r.content.split('\n').length < 5_100);
  });
});

describe('pass 48 F2: a clone\'s 200 any-depth deny rules and a recursive read', () => {
  it('the look ends within its bound, and asks for what it could not look through', () => {
    const cwd = tmp('tl-f2many-');
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(cwd, 'pkg', `d${d}`), { recursive: true });
      for (let f = 0; f < 400; f++) writeFileSync(join(cwd, 'pkg', `d${d}`, `f${f}.ts`), '');
    }
    const out = runBounded(`
      const { BashChecker } = await load('permissions/bash/checker.ts');
      const { Permissions } = await load('permissions/permissions.ts');
      const { createTools } = await load('tools/builtin/index.ts');
      const bash = new BashChecker();
      await bash.ready();
      const deny = Array.from({ length: 200 }, (_, i) => 'Read(**/secret' + i + '.txt)');
      const p = new Permissions({ cwd: ${JSON.stringify(cwd)}, rules: () => ({ allow: ['Bash(grep:*)'], ask: [], deny }), trusted: () => true, bash });
      const tool = createTools().find((t) => t.name === 'Bash');
      console.log(p.decide({ tool, input: { command: 'grep -r TODO pkg' } }).behavior);
    `, 30_000);
    assert.equal(out, 'ask');
  });
});
