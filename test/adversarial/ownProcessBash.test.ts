// With Bash allowed as a whole, no command reaches the agent's own /proc entries, whose environ
// holds its API key: not by a thread id (/proc/<tid> is a whole process directory for the thread,
// hidden from a listing of /proc), not by a loop, find or glob over /proc, not after a `cd` into
// it, not by re-entering /proc through /proc/self/root, not by a here-string or link. A command
// naming one is denied; any other command that refers to /proc (or to an environ file) asks, and
// a headless run refuses it.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());
const tools = createTools();
const tool = (name: string) => tools.find((t) => t.name === name) as Tool;

const pid = process.pid;
/** A thread of this process other than the main one (node always runs a few). */
const tid = readdirSync(`/proc/${pid}/task`).map(Number).find((t) => t !== pid)!;

describe("Bash allowed as a whole: the agent's own /proc entries", { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
  const engine = () => bashEngine(realpathSync(tempDir('proc')), { allow: ['Bash'] }, checker);
  const notAllowed = (command: string) => assert.notEqual(engine().decide(command).behavior, 'allow', command);
  const denied = (command: string) => assert.equal(engine().decide(command).behavior, 'deny', command);

  it('a thread id of the agent is its process: denied', () => {
    assert.ok(tid, 'the test process has a thread');
    denied(`cat /proc/${tid}/environ`);
    denied(`tail -c +1 /proc/${tid}/environ`);
    denied(`cat /proc/${pid}/task/${tid}/environ`);
  });

  it('a cd into the thread or process, then a relative name', () => {
    denied(`cd /proc/${tid} && cat environ`);
    denied(`cd /proc && cat ${pid}/environ`);
    notAllowed('cd / && cd proc && cat self/environ');
  });

  it('a link made to the thread, then read through', () => {
    denied(`ln -s /proc/${tid} t; cat t/environ`);
    notAllowed('ln -s /pr""oc t; cat t/1/environ');
  });

  it('loops, finds and greps over every /proc entry', () => {
    notAllowed("for f in /proc/*/environ; do tr '\\0' '\\n' < $f; done | grep -a ANTHROPIC_API_KEY");
    notAllowed('find /proc -maxdepth 2 -name environ -exec cat {} \\;');
    notAllowed('for f in /proc/[0-9]*/task/*/environ; do cat "$f"; done');
    notAllowed('grep -a ANTHROPIC -r /proc/*/environ');
    notAllowed('cat $(ls -d /proc/[0-9]*)/environ');
  });

  it('a walk from the root folder, which holds /proc, asks: find, grep -r, du, tar, after a cd, through a variable', () => {
    // Deep enough that `..` from any folder a cd leads to stays below the root.
    const ws = join(realpathSync(tempDir('procroot')), 'a', 'b', 'c');
    mkdirSync(ws, { recursive: true });
    const deep = bashEngine(ws, { allow: ['Bash'] }, checker);
    const up = ws.split('/').filter(Boolean).map(() => '..').join('/');
    for (const command of [
      'find / -maxdepth 3 -name "e?viron" -exec grep -a -o -H KEY {} +',
      'cd / && find . -name x',
      'cd / && grep -r x',
      'grep -r -a KEY /',
      'du -a //',
      'ls -R /.',
      'tar -C / -cf - .',
      'x=/; find $x -name x',
      `cd ${up} && find . -name x`,
      `find ${up}/ -name x`,
    ]) assert.notEqual(deep.decide(command).behavior, 'allow', command);
    for (const command of ['find . -name x', 'ls /usr', 'cd .. && ls', 'cat /etc/hostname']) assert.equal(deep.decide(command).behavior, 'allow', command);
  });

  it('other spellings: /proc/self/root re-entry, a glob for /proc, a here-string, a pipe', () => {
    denied(`cat /proc/self/root/proc/${pid}/environ`);
    denied(`cat /proc/1/root/proc/${tid}/environ`);
    denied(`cat /pro?/${pid}/environ`);
    denied(`cat /p*/${tid}/environ`);
    notAllowed(`xargs cat <<< /proc/${pid}/environ`);
    notAllowed(`echo /proc/${pid}/environ | xargs cat`);
    notAllowed("cat /pro?/[0-9]*/environ");
  });

  it('bracket globs bash reads differently from other matchers: [!x], [\\x], [[=x=]], [[.x.]]', () => {
    denied(`grep -a -o -H KEY /[!x]roc/${pid}/[!x]nviron`);
    denied('grep -a -o -H KEY /[!x]roc/[!x]*/[!x]nviron');
    denied(`cat /[[=p=]]roc/${pid}/e[[=n=]]viron`);
    denied(`cat /[[.p.]]roc/${pid}/environ`);
    // The grammar splits `/[\\p]roc/…` into several words where bash reads one: asks.
    notAllowed(`cat /[\\p]roc/${pid}/environ`);
    notAllowed(`cat /[\\p]roc/${pid}/[\\e]nviron`);
    notAllowed('cat /[\\p]roc/[0-9]*/[\\e]nviron');
    denied(`cat "/pr"[o]c/${pid}/environ`);
  });

  it('a glob kept in a variable, a for list, an array or a function argument, or built around an expansion, asks', () => {
    for (const command of [
      'X=/[p]roc/[0-9]*/[e]nviron; grep -a -o -H KEY $X',
      'for f in /[p]roc/[0-9]*/[e]nviron; do grep -a KEY $f; done',
      "f() { grep -a KEY $1; }; f '/[p]roc/[0-9]*/[e]nviron'",
      'grep -a KEY ~root/../[p]roc/[0-9]*/[e]nviron',
      "read X <<< '/[p]roc/[0-9]*/[e]nviron'; grep -a KEY $X",
      'A=(/[p]roc/[0-9]*/[e]nviron); grep -a KEY "${A[@]}"',
      'X=pr; grep -a KEY /${X}oc/[0-9]*/[e]nviron',
      'cd /; X=[p]roc; grep -a KEY $X/[0-9]*/[e]nviron',
      'cd /; cd pro?; grep -a -o -H KEY [0-9]*/env*',
      'cd /; cd *oc; grep -a KEY [0-9]*/e*on',
      'pushd / ; pushd ?roc; grep -a KEY */*viron',
      "sho''pt -s nocaseglob; grep -a KEY /PRO[C]/*/ENVIRO[N]",
    ]) notAllowed(command);
    for (const command of ['for f in src/*.ts; do wc -l "$f"; done', 'X=src; ls $X/*.ts']) assert.equal(engine().decide(command).behavior, 'allow', command);
    // /etc/mtab leads to /proc/self/mounts: the command's own entry, not the agent's.
    for (const command of ['cat /etc/mtab', 'ls /etc/*', "find src -name '/etc/*'"]) assert.equal(engine().decide(command).behavior, 'allow', command);
  });

  it('a /proc path computed when it runs, or any word naming /proc or an environ file, asks', () => {
    for (const command of [`gdb -p ${pid} -batch -ex 'info proc'`, `strace -p ${pid}`, 'ps exww', 'ps -o pid,args e', 'p=$PPID; cat /proc/$p/environ', 'x=/proc; cat $x/$PPID/environ', 'cat /proc/cpuinfo', 'strings environ', 'cd /proc', 'ls proc/']) {
      assert.equal(engine().decide(command).behavior, 'ask', command);
    }
    // Nothing about /proc: still allowed.
    for (const command of ['cat README.md && ls -la src', 'ps aux', 'grep -r process src']) assert.equal(engine().decide(command).behavior, 'allow', command);
  });

  it('headless, a command referring to /proc is refused with the reason', () => {
    const cwd = realpathSync(tempDir('proc-headless'));
    const p = new Permissions({ cwd, headless: true, rules: () => ({ allow: ['Bash'], ask: [], deny: [] }), trusted: () => true, bash: checker });
    const v = p.decide({ tool: tool('Bash'), input: { command: 'find /proc -maxdepth 2 -name environ -exec cat {} +' } });
    assert.equal(v.behavior, 'deny');
    assert.match(v.reason ?? '', /\/proc/);
  });
});

describe("Read of a thread id of the agent's own process", { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
  it('is refused as an own-process file, even with Read(//proc/**) allowed', async () => {
    const cwd = realpathSync(tempDir('proc-read'));
    const p = new Permissions({ cwd, rules: () => ({ allow: ['Read', 'Read(//proc/**)', 'Grep'], ask: [], deny: [] }), trusted: () => true, bash: checker });
    for (const file_path of [`/proc/${tid}/environ`, `/proc/${tid}/cmdline`, `/proc/${tid}/task/${tid}/environ`]) {
      const v = p.decide({ tool: tool('Read'), input: { file_path } });
      assert.equal(v.behavior, 'deny', file_path);
      assert.match(v.reason ?? '', /own process/, file_path);
    }
    assert.equal(p.mayShow(`/proc/${tid}/environ`, '/proc'), false);
    // The tool itself, given the path anyway, refuses to open it.
    const read = tool('Read');
    const parsed = read.parse({ file_path: `/proc/${tid}/environ` });
    assert.ok(parsed.ok);
    const out = await read.call(parsed.value, { cwd, signal: new AbortController().signal });
    assert.doesNotMatch(JSON.stringify(out), /ANTHROPIC|PATH=/);
    assert.match(JSON.stringify(out), /own processes/);
  });
});
