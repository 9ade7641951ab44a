// An allow rule for a read-only command (`Bash(cat:*)`, `Bash(ls:*)`…) must not hand over files
// outside the workspace, nor the agent's own environment through /proc: the files a command
// names are judged where they really are (tilde, $HOME, globs, links, cd), and the agent's own
// process tree in /proc is never readable, by Bash or by Read, Grep and Glob.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { useCli } from '../support/useCli';
import { bashEngine, runBash } from './support';

const checker = new BashChecker();
before(() => checker.ready());
const tools = createTools();
const tool = (name: string) => tools.find((t) => t.name === name) as Tool;

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

/** A workspace, a secret outside it, and links from the one to the other. */
function setup() {
  const outside = tmp('tl-outside-');
  writeFileSync(join(outside, 'id_rsa'), 'SECRET-KEY-MATERIAL\n');
  const cwd = tmp('tl-ws-');
  writeFileSync(join(cwd, 'README.md'), 'hello\n');
  mkdirSync(join(cwd, 'src'));
  writeFileSync(join(cwd, 'src', 'a.ts'), 'a\n');
  symlinkSync(outside, join(cwd, 'notes'));
  symlinkSync(join(outside, 'id_rsa'), join(cwd, 'key.txt'));
  mkdirSync(join(cwd, 'vendor'));
  symlinkSync(outside, join(cwd, 'vendor', 'ssh'));
  return { cwd, outside };
}

const READ_RULES = ['Bash(cat:*)', 'Bash(ls:*)', 'Bash(head:*)', 'Bash(tail:*)', 'Bash(grep:*)', 'Bash(wc:*)', 'Bash(cd:*)', 'Bash(find:*)', 'Bash(sort:*)', 'Bash(git diff:*)'];

describe('read-only commands allowed by a rule, given a file outside the workspace', () => {
  it('ask, however the file is spelled or reached, and leak nothing when run', async () => {
    const { cwd, outside } = setup();
    const env = bashEngine(cwd, { allow: READ_RULES }, checker);
    const spellings = [
      `cat ${outside}/id_rsa`,
      `head -n 1 ${outside}/id_rsa`,
      `cat -s ${outside}/id_rsa`,
      `cat -vET ${outside}/id_rsa`,
      `grep --color SECRET ${outside}/id_rsa`,
      `grep -m 1 SECRET ${outside}/id_rsa`,
      `grep -f${outside}/id_rsa README.md`,
      `wc --files0-from=${outside}/list`,
      `tail ${outside}/id_rsa`,
      `wc -c ${outside}/id_rsa`,
      `sort ${outside}/id_rsa`,
      `cat < ${outside}/id_rsa`,
      `grep -r SECRET ${outside}`,
      `grep -e SECRET -r src ${outside}`,
      `ls ${outside}`,
      `find ${outside} -name id_rsa`,
      `cat ${outside}/*`,
      `cat ${outside}/{x,id_rsa}`,
      `cat ${outside}/../${outside.split('/').at(-1)}/id_rsa`,
      'cat notes/id_rsa',
      'cat key.txt',
      'cat vendor/*/id_rsa',
      'cat */id_rsa',
      `cd ${outside} && cat id_rsa`,
      'cd notes && cat id_rsa',
      `git diff --no-index /dev/null ${outside}/id_rsa`,
      'cat ~/.ssh/id_rsa',
      'ls ~',
      'ls ~/',
      'head /etc/shadow',
      'cat $HOME/.bashrc',
      'cat "${HOME}/.profile"',
      'cat /etc/*',
      'cat ../x',
      'cat $(echo /etc/passwd)',
      'cat $FILE',
      'cd && cat .bashrc',
      'grep -R SECRET .',
      'grep -rR SECRET src .',
      'find -L . -name id_rsa',
    ];
    const leaked: string[] = [];
    for (const command of spellings) {
      const v = env.decide(command);
      if (v.behavior !== 'allow') continue;
      const r = await runBash(cwd, command);
      leaked.push(`${command}${r.content.includes('SECRET') ? ' (printed the secret)' : ''}: ${v.reason}`);
    }
    assert.deepEqual(leaked, []);
  });

  it('files inside the workspace and the added folders stay allowed', () => {
    const { cwd, outside } = setup();
    const inside = ['cat README.md', 'ls', 'ls -la src', 'cat src/*.ts', 'head -n 5 README.md', 'grep -rn /usr src', 'cd src && cat a.ts', 'cat -- README.md', "find . -name '*.ts'", 'cat /dev/null', 'wc -l < README.md', 'git diff HEAD~1'];
    for (const command of inside) assert.equal(bashEngine(cwd, { allow: READ_RULES }, checker).decide(command).behavior, 'allow', command);
    const added = new Permissions({ cwd, rules: () => ({ allow: READ_RULES, ask: [], deny: [] }), trusted: () => true, bash: checker, sources: () => [{ label: '--add-dir', additionalDirectories: [outside] }] });
    assert.equal(added.decide({ tool: tool('Bash'), input: { command: `cat ${outside}/id_rsa` } }).behavior, 'allow', 'an added folder is readable');
    assert.equal(added.decide({ tool: tool('Bash'), input: { command: `touch ${outside}/new` } }).behavior, 'ask', 'but writes there ask');
    // Bash allowed as a whole, or a command allowed exactly, is not second-guessed.
    assert.equal(bashEngine(cwd, { allow: ['Bash'] }, checker).decide(`cat < ${outside}/id_rsa`).behavior, 'allow');
    assert.equal(bashEngine(cwd, { allow: [`Bash(cat ${outside}/id_rsa)`] }, checker).decide(`cat ${outside}/id_rsa`).behavior, 'allow');
  });

  it('writes of allowed commands outside the workspace, or into .git/, ask', () => {
    const { cwd, outside } = setup();
    const env = bashEngine(cwd, { allow: ['Bash(touch:*)', 'Bash(cp:*)', 'Bash(tee:*)', 'Bash(mkdir:*)'] }, checker);
    const env2 = bashEngine(cwd, { allow: ['Bash(sort:*)', 'Bash(uniq:*)', 'Bash(xxd:*)'] }, checker);
    for (const command of ['sort -o .git/hooks/pre-commit README.md', `sort -o ${outside}/x README.md`, 'uniq README.md .git/hooks/post-checkout', 'xxd -r README.md .git/hooks/pre-push']) {
      assert.notEqual(env2.decide(command).behavior, 'allow', command);
    }
    for (const command of [`touch ${outside}/x`, 'touch ~/.bashrc', `cp README.md ${outside}/`, 'cp README.md .git/hooks/pre-commit', 'touch notes/x', `tee ${outside}/y`, 'mkdir -p ../escape']) {
      assert.notEqual(env.decide(command).behavior, 'allow', command);
    }
  });
});

describe("the agent's own process in /proc", () => {
  const own = [`/proc/${process.pid}/environ`, '/proc/self/environ', '/proc/thread-self/environ', `/proc/${process.ppid}/environ`, '/proc/1/environ', `/proc/${process.pid}/cmdline`, '/proc/self/fd/0', '/dev/fd/3'];

  it('Read, Grep and Glob are denied it, whatever the rules allow', () => {
    const { cwd } = setup();
    const p = new Permissions({ cwd, rules: () => ({ allow: ['Read', 'Grep', 'Glob', 'Read(//proc/**)'], ask: [], deny: [] }), trusted: () => true, bash: checker });
    for (const path of own) {
      assert.equal(p.decide({ tool: tool('Read'), input: { file_path: path } }).behavior, 'deny', `Read ${path}`);
      assert.equal(p.decide({ tool: tool('Grep'), input: { pattern: 'KEY', path } }).behavior, 'deny', `Grep ${path}`);
    }
    assert.equal(p.decide({ tool: tool('Glob'), input: { pattern: '*', path: `/proc/${process.pid}` } }).behavior, 'deny');
    // A search of /proc that was allowed still never shows the agent's own entries.
    assert.equal(p.mayShow(`/proc/${process.pid}/environ`, '/proc'), false);
    assert.equal(p.mayShow('/proc/cpuinfo', '/proc'), true);
  });

  it('a Bash command naming it is denied even with Bash allowed; a computed /proc path asks', () => {
    const { cwd } = setup();
    const env = bashEngine(cwd, { allow: ['Bash'] }, checker);
    for (const command of [`cat /proc/${process.pid}/environ`, `cat /proc/${process.ppid}/environ`, 'cat /proc/1/environ', `tr '\\0' '\\n' < /proc/${process.pid}/environ`, 'cat /proc/*/environ', `cat /proc/self/../${process.pid}/environ`, `ln -s /proc/${process.pid}/environ e`]) {
      assert.equal(env.decide(command).behavior, 'deny', command);
    }
    for (const command of ['cat /proc/$PPID/environ', 'cat "/proc/${PPID}/environ"', 'xxd /proc/$PPID/environ']) assert.notEqual(env.decide(command).behavior, 'allow', command);
    // Any other /proc path asks: the ways from it to the agent's entries are too many to list.
    assert.equal(env.decide('cat /proc/cpuinfo').behavior, 'ask');
  });
});

describe('through the real CLI', () => {
  const { standin, start } = useCli();

  it("`Bash(cat:*)` does not hand the model the CLI's API key", async () => {
    const cwd = tmp('tl-key-');
    const key = `sk-ant-secret-${process.pid}`;
    const { p, exit } = start(['-p', 'look around', '--allowed-tools', 'Bash(cat:*)'], { cwd, key });
    // Queued before the CLI's first request, which comes once it has started.
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: `cat /proc/${p.pid}/environ` } }] },
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'cat /proc/*/environ' } }] },
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'cat /proc/$PPID/environ' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    assert.equal(await exit, 0);
    const bodies = standin.requests.map((r) => JSON.stringify(r.body));
    assert.equal(bodies.length, 4);
    assert.ok(!bodies.some((b) => b.includes(key)), 'the key reached the model');
  });
});
