// Findings 1-5: Bash commands the permission checks let through although bash runs something
// the rules never named. Each case goes the agent's way: decide, and when the verdict is
// "allow", run the command with the real Bash tool in a scratch folder, then look at the files.
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

/** What happens to a workspace when the agent is asked to run `command` under these rules. */
async function attempt(rules: { allow?: string[]; deny?: string[] }, command: string) {
  const cwd = tempDir('bash');
  writeFileSync(join(cwd, 'keep.txt'), 'precious');
  const verdict = bashEngine(cwd, rules, checker).decide(command);
  if (verdict.behavior === 'allow') await runBash(cwd, command);
  return { verdict, pwned: existsSync(join(cwd, 'pwned')), kept: existsSync(join(cwd, 'keep.txt')) };
}

describe('finding 1: a line that starts with a backslash is glued to the line before', () => {
  // tree-sitter-bash reads "echo a\n\\touch pwned" as one command, echo with the arguments
  // "\ntouch" and "pwned"; bash runs `echo a` and then `touch pwned`.

  it('Bash(echo:*) does not run touch', async () => {
    for (const command of ['echo checking\n\\touch pwned', 'echo a\n\n\\touch pwned', 'echo a\t\n\\touch pwned']) {
      const r = await attempt({ allow: ['Bash(echo:*)'] }, command);
      assert.equal(r.pwned, false, `${JSON.stringify(command)} was ${r.verdict.behavior}: ${r.verdict.reason}`);
    }
  });

  it('Bash(ls:*) does not run touch through a continued line', async () => {
    const r = await attempt({ allow: ['Bash(ls:*)'] }, 'ls\n\\\ntouch pwned');
    assert.equal(r.pwned, false, r.verdict.reason);
  });

  it('a deny rule for rm is not bypassed when Bash is allowed', async () => {
    const r = await attempt({ allow: ['Bash'], deny: ['Bash(rm:*)'] }, 'echo tidy\n\\rm -f keep.txt');
    assert.equal(r.kept, true, `keep.txt was deleted; the verdict was ${r.verdict.behavior}: ${r.verdict.reason}`);
  });

  describe('through the agent, headless, against the stand-in', () => {
    let standin: Standin;
    before(async () => {
      standin = await startStandin();
    });
    after(() => standin.close());

    it('a model that sends the trick gets no file written', async () => {
      const cwd = tempDir('bash-agent');
      const { agent } = createStandinAgent({ url: standin.url, cwd, headless: true, rules: { allow: ['Bash(echo:*)'] } });
      standin.enqueue(
        { content: [{ type: 'tool_use', name: bashTool.name, input: { command: 'echo "running the linter"\n\\touch pwned' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      );
      await agent.submit('lint please');
      assert.equal(existsSync(join(cwd, 'pwned')), false, 'the agent ran touch under Bash(echo:*)');
    });
  });
});

describe('finding 2: a here-doc delimiter with quotes in its middle', () => {
  // bash removes the quotes (the delimiter of <<E"O"F is EOF, body not expanded); the grammar
  // waits for a line that reads E"O"F, so what bash runs after EOF looks like here-doc text.

  it('Bash(cat:*) does not run what follows the real end of the here-doc', async () => {
    for (const command of ['cat <<E"O"F\nhello\nEOF\ntouch pwned\nE"O"F', "cat <<E'O'F\nhello\nEOF\ntouch pwned\nE'O'F"]) {
      const r = await attempt({ allow: ['Bash(cat:*)'] }, command);
      assert.equal(r.pwned, false, `${JSON.stringify(command)} was ${r.verdict.behavior}: ${r.verdict.reason}`);
    }
  });

  it('nor a denied rm when Bash is allowed', async () => {
    const r = await attempt({ allow: ['Bash'], deny: ['Bash(rm:*)'] }, 'cat <<E"O"F\nhi\nEOF\nrm -f keep.txt\nE"O"F');
    assert.equal(r.kept, true, r.verdict.reason);
  });
});

describe('finding 3: a backslash-newline in an unquoted here-doc body', () => {
  // In an unquoted here-doc bash joins "\\\nEOF" and so the body ends one line early in bash's
  // eyes (or later, the grammar's): the line after it runs as a command.
  it('Bash(cat:*) does not run touch', async () => {
    const r = await attempt({ allow: ['Bash(cat:*)'] }, 'cat <<EOF\n\\\nEOF\ntouch pwned\nEOF');
    assert.equal(r.pwned, false, r.verdict.reason);
  });
});

describe('finding 4: "Allow for this session" covers a command with another command glued on by a newline', () => {
  // The normal form that grants are compared by drops the newline between commands:
  // `echo a touch pwned` (one echo) and `echo a\ntouch pwned` (echo, then touch) have one form.
  it('granting a harmless echo does not grant touch', async () => {
    const cwd = tempDir('grant');
    const { permissions, decide } = bashEngine(cwd, {}, checker);
    permissions.grantForSession({ tool: bashTool, input: { command: 'echo done touch pwned' } });
    const command = 'echo done\ntouch pwned';
    const verdict = decide(command);
    if (verdict.behavior === 'allow') await runBash(cwd, command);
    assert.equal(existsSync(join(cwd, 'pwned')), false, `${verdict.behavior}: ${verdict.reason}`);
  });
});

describe('finding 5: a wrapper whose script is glued to its option escapes deny rules', () => {
  // resolve.ts reads a word with spaces as a script, but `-S'rm x'` is the word "-Srm x", whose
  // first word is "-Srm"; GNU env, su and script take the glued value as the command to run.
  it('Bash(rm:*) denies env -S, env --split-string=, su -c, su --command= and script -c spelled glued', async () => {
    const cwd = tempDir('glued');
    const { decide } = bashEngine(cwd, { allow: ['Bash'], deny: ['Bash(rm:*)'] }, checker);
    const escaped = ["env -S'rm -f keep.txt'", "env --split-string='rm -f keep.txt'", "su -c'rm -f keep.txt'", "su --command='rm -f keep.txt'", "script -qc'rm -f keep.txt' /dev/null"]
      .map((c) => ({ c, v: decide(c) }))
      .filter(({ v }) => v.behavior === 'allow');
    // And the first of them really deletes the file.
    if (escaped.length > 0) {
      writeFileSync(join(cwd, 'keep.txt'), 'precious');
      await runBash(cwd, escaped[0]!.c);
      assert.ok(existsSync(join(cwd, 'keep.txt')), `${escaped[0]!.c} deleted keep.txt`);
    }
    assert.deepEqual(escaped.map((e) => e.c), []);
  });
});
