// A Bash deny (or ask) rule for a program must hold however the program is reached: through a
// shell that reads its script from its own input, and through any program that may run a word it
// is handed, listed as a wrapper or not. Each command goes the agent's way: decide under
// `Bash` allowed and `Bash(rm:*)` denied, run it for real when allowed, and look at the file.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { bashEngine, bashTool, runBash, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

async function attempt(rules: { allow?: string[]; deny?: string[]; ask?: string[] }, command: string) {
  const cwd = tempDir('deny');
  writeFileSync(join(cwd, 'keep.txt'), 'precious');
  writeFileSync(join(cwd, 'script.sh'), 'rm -f keep.txt\n');
  const verdict = bashEngine(cwd, rules, checker).decide(command);
  if (verdict.behavior === 'allow') await runBash(cwd, command);
  return { verdict, kept: existsSync(join(cwd, 'keep.txt')) };
}

async function holds(commands: string[]) {
  const escaped: string[] = [];
  for (const command of commands) {
    const denied = await attempt({ allow: ['Bash'], deny: ['Bash(rm:*)'] }, command);
    if (denied.verdict.behavior === 'allow' || !denied.kept) escaped.push(`${command} (deny: ${denied.verdict.behavior}, kept: ${denied.kept})`);
    const asked = await attempt({ allow: ['Bash'], ask: ['Bash(rm:*)'] }, command);
    if (asked.verdict.behavior === 'allow') escaped.push(`${command} (ask rule: allowed)`);
  }
  assert.deepEqual(escaped, []);
}

describe('a shell that runs what it reads from its own input', () => {
  it('source and . of /dev/stdin, /dev/fd/0 and /proc/self/fd/0, fed by a here-string, a here-doc or a pipe', () =>
    holds([
      "source /dev/stdin <<< 'rm -f keep.txt'",
      '. /dev/stdin <<EOF\nrm -f keep.txt\nEOF',
      ". /dev/fd/0 <<< 'rm -f keep.txt'",
      "source /proc/self/fd/0 <<< 'rm -f keep.txt'",
      "echo 'rm -f keep.txt' | source /dev/stdin",
      "printf 'rm -f keep.txt' | . /proc/self/fd/0",
      "source -- /dev/stdin <<< 'rm -f keep.txt'",
    ]));

  it('a shell given its input as the script file, or -s, or nothing', () =>
    holds([
      "echo 'rm -f keep.txt' | bash /dev/stdin",
      "echo 'rm -f keep.txt' | sh /proc/self/fd/0",
      "bash /dev/fd/0 <<< 'rm -f keep.txt'",
      "sh -s <<< 'rm -f keep.txt'",
      "echo 'rm -f keep.txt' | bash -s -- x",
      'bash < script.sh',
      'sh -s < script.sh',
      "source <(echo 'rm -f keep.txt')",
      "bash <(echo 'rm -f keep.txt')",
    ]));
});

describe('programs that run a command they are handed, listed or not', () => {
  it('wrappers nobody listed', () =>
    holds([
      'setarch x86_64 rm -f keep.txt',
      'setarch $(uname -m) -R rm -f keep.txt',
      'prlimit --nofile=1024 rm -f keep.txt',
      'linux32 rm -f keep.txt',
      'setpriv --reuid=0 rm -f keep.txt',
      'choom -n 0 -- rm -f keep.txt',
      'perf stat -- rm -f keep.txt',
      "tmux new-session -d 'rm -f keep.txt'",
      "gdb -batch -ex 'shell rm -f keep.txt'",
      "gdb -batch -ex 'shell /bin/rm -f keep.txt'",
    ]));

  it('the general rule: any program not known to be inert that is handed the name', () =>
    holds([
      '/lib64/ld-linux-x86-64.so.2 /bin/rm -f keep.txt',
      "python3 -c 'import os; os.system(\"rm -f keep.txt\")'",
      'node -e "require(\'child_process\').execSync(\'rm -f keep.txt\')"',
      "echo 'shell rm -f keep.txt' | gdb -batch -x /dev/stdin",
      "gdb -batch -x /dev/stdin <<< 'shell rm -f keep.txt'",
      'gdb -batch -x <(echo shell rm -f keep.txt)',
      "echo rm | xargs -I{} {} -f keep.txt",
      'X=rm; perf stat $X -f keep.txt',
      'w=r; setarch x86_64 ${w}m -f keep.txt',
      "tmux new-session -d \"'r''m' -f keep.txt\"",
      'touch rm; setarch x86_64 ./r? -f keep.txt || true',
      'some-wrapper-nobody-knows --run=rm -f keep.txt',
      "git -c alias.x='!rm -f keep.txt' x",
      "git -c core.pager='rm -f keep.txt' log -1",
    ]));

  it('text written to a file, or into a variable a program runs, and then run', () =>
    holds([
      "echo 'rm -f keep.txt' > s.sh; bash s.sh",
      "{ echo 'rm -f keep.txt'; } > s.sh; sh s.sh",
      'cat > s.sh <<EOF\nrm -f keep.txt\nEOF\nsh s.sh',
      "echo 'rm -f keep.txt' | tee s.sh >/dev/null; . ./s.sh",
      "printf 'rm -f keep.txt' >& s.sh; source s.sh",
      "exec 3>s.sh; echo 'rm -f keep.txt' >&3; bash s.sh",
      "exec >s.sh; echo 'rm -f keep.txt'; exec >/dev/null; bash s.sh",
      'cp /bin/rm ./del; ./del -f keep.txt',
      'ln -s /bin/rm del; ./del -f keep.txt',
      "BASH_ENV=<(echo 'rm -f keep.txt') bash -c true",
      "BASH_ENV=s.sh bash -c true <<< '' ; echo 'rm -f keep.txt' > s.sh",
      "export BASH_ENV=<(echo 'rm -f keep.txt'); bash -c true",
      "GIT_SSH_COMMAND='rm -f keep.txt' git ls-remote ssh://example/x",
      "PS4='$(rm -f keep.txt)' bash -xc true",
    ]));

  it('a script written by a program that may decode its text (escapes, base64), then run', () =>
    holds([
      "printf 'r\\155 -f keep.txt\\n' > s; sh s",
      'echo cm0gLWYga2VlcC50eHQK | base64 -d > s2; sh s2',
      "printf '%s%s -f keep.txt' r m > s; bash s",
      "echo -e 'r\\x6d -f keep.txt' > s; sh s",
      "printf 'r\\155 -f keep.txt' > s; . ./s",
      "printf 'r\\155 -f keep.txt' > s; chmod +x s; ./s",
    ]));

  it('decoded text piped into a program that writes the file, then run', () =>
    holds([
      "printf 'r\\155 -f keep.txt' | tee s >/dev/null; sh s",
      "printf 'r\\155 -f keep.txt' | dd of=s status=none; sh s",
      "printf 'r\\155 -f keep.txt' | cp /dev/stdin s; sh s",
      "echo cm0gLWYga2VlcC50eHQK | base64 -d | tee s2 > /dev/null; bash s2",
      "printf 'r\\155 -f keep.txt' | sponge s; sh s",
      "printf 'r\\155 -f keep.txt' | install /dev/stdin s; ./s",
    ]));

  it('inert programs and the user’s own environment variables stay allowed', async () => {
    for (const command of ['echo rm -f keep.txt', 'grep -n rm script.sh', 'cat script.sh', 'ls $HOME', 'git status', 'npm --version $HOME', "printf 'a\\n' > out.txt", 'npm test > log.txt; cat log.txt']) {
      const r = await attempt({ allow: ['Bash'], deny: ['Bash(rm:*)'] }, command);
      assert.equal(r.verdict.behavior, 'allow', `${command}: ${r.verdict.reason}`);
    }
  });
});

describe('through the agent, headless, against the stand-in', () => {
  let standin: Standin;
  before(async () => {
    standin = await startStandin();
  });
  after(() => standin.close());

  it('a model that sources its own input gets no file deleted', async () => {
    const cwd = tempDir('deny-agent');
    writeFileSync(join(cwd, 'keep.txt'), 'precious');
    const { agent } = createStandinAgent({ url: standin.url, cwd, headless: true, rules: { allow: ['Bash'], deny: ['Bash(rm:*)'] } });
    standin.enqueue(
      { content: [{ type: 'tool_use', name: bashTool.name, input: { command: "source /dev/stdin <<< 'rm -f keep.txt'" } }] },
      { content: [{ type: 'tool_use', name: bashTool.name, input: { command: "gdb -batch -ex 'shell rm -f keep.txt'" } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await agent.submit('tidy up');
    assert.equal(existsSync(join(cwd, 'keep.txt')), true, 'the denied rm ran');
  });
});
