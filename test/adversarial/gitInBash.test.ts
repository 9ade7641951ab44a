// Git started by an allowed Bash rule (`Bash(git status:*)`, `Bash(git diff:*)`) must run no program
// the repository names: not `core.fsmonitor`, not a `.gitattributes` filter or textconv, not a bare
// repository's config that a clone checked out as plain files. Each program, if run, leaves a marker
// file; the marker must not appear. The folder is trusted here (`--trust`): in one never trusted,
// git asks under any rule since pass 66 (its git folder steers it in ways no switch turns off), and
// the guard is what stands between a trusted repository's config and your machine.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCli } from '../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { env: { PATH: process.env.PATH, HOME: cwd } });

/** A program that records that it ran, and what it was given. */
function markerProgram(dir: string, mark: string): string {
  const path = join(dir, 'evil.sh');
  writeFileSync(path, `#!/bin/sh\necho "$0 $*" >> ${mark}\ncat\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('git inside an allowed Bash command runs nothing the repository names', () => {
  const { standin, run } = useCli();

  /** Runs the CLI in `cwd` (trusted for this run) with the rules, the model asking for each command in turn. */
  async function runCli(cwd: string, rules: string[], commands: string[]): Promise<string[]> {
    standin.reset();
    for (const command of commands) standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command } }] });
    standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const { code, err } = await run(['-p', 'check the repository', '--trust', '--allowed-tools', ...rules], { cwd });
    assert.equal(code, 0, err);
    const last = standin.requests.at(-1)?.body as { messages: Array<{ content: unknown }> };
    const results: string[] = [];
    for (const m of last.messages) for (const b of Array.isArray(m.content) ? (m.content as Array<{ type: string; content: unknown }>) : []) if (b.type === 'tool_result') results.push(JSON.stringify(b.content));
    assert.equal(results.length, commands.length, 'every command was answered');
    return results;
  }

  it('core.fsmonitor, the pager, a filter and a textconv named by .git/config and .gitattributes', async () => {
    const cwd = tmp('tl-gitbash-');
    const mark = join(tmp('tl-mark-'), 'ran');
    git(cwd, 'init', '-q');
    writeFileSync(join(cwd, 'a.txt'), 'a\n');
    git(cwd, 'add', 'a.txt');
    git(cwd, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-qm', 'init');
    // Changed since it was staged: `git status` hashes it again, through the clean filter.
    writeFileSync(join(cwd, 'a.txt'), 'a\nb\n');
    const evil = markerProgram(cwd, mark);
    writeFileSync(join(cwd, '.git', 'config'), `${readFileSync(join(cwd, '.git', 'config'), 'utf8')}[core]\n\tfsmonitor = ${evil}\n\tpager = ${evil}\n[diff "x"]\n\ttextconv = ${evil}\n[filter "f"]\n\tclean = ${evil}\n\tsmudge = ${evil}\n\tprocess = ${evil}\n`);
    writeFileSync(join(cwd, '.gitattributes'), '*.txt diff=x filter=f\n');
    const results = await runCli(cwd, ['Bash(git status:*)', 'Bash(git diff:*)'], ['git status', 'git diff --no-index /dev/null a.txt', 'git diff HEAD']);
    assert.match(results[0]!, /a\.txt|\.gitattributes/, 'git status ran and answered');
    assert.match(results[1]!, /\+a/, 'git diff ran and answered');
    assert.match(results[2]!, /\+b/, 'git diff HEAD shows the change');
    assert.equal(existsSync(mark) ? readFileSync(mark, 'utf8') : '', '', 'a program the repository names ran');
  });

  it('a driver defined in a file the config includes, and in a nested repository', async () => {
    const cwd = tmp('tl-gitbash-');
    const mark = join(tmp('tl-mark-'), 'ran');
    const evil = markerProgram(cwd, mark);
    git(cwd, 'init', '-q');
    writeFileSync(join(cwd, 'drivers.cfg'), `[diff "y"]\n\ttextconv = ${evil}\n`);
    writeFileSync(join(cwd, '.git', 'config'), `${readFileSync(join(cwd, '.git', 'config'), 'utf8')}[include]\n\tpath = ../drivers.cfg\n`);
    writeFileSync(join(cwd, '.gitattributes'), '*.txt diff=y\n');
    writeFileSync(join(cwd, 'b.txt'), 'b\n');
    const nested = join(cwd, 'vendor', 'lib');
    mkdirSync(nested, { recursive: true });
    git(nested, 'init', '-q');
    writeFileSync(join(nested, '.git', 'config'), `${readFileSync(join(nested, '.git', 'config'), 'utf8')}[diff "z"]\n\ttextconv = ${evil}\n`);
    writeFileSync(join(nested, '.gitattributes'), '*.txt diff=z\n');
    writeFileSync(join(nested, 'c.txt'), 'c\n');
    const results = await runCli(cwd, ['Bash(git diff:*)', 'Bash(cd:*)'], ['git diff --no-index /dev/null b.txt', 'cd vendor/lib && git diff --no-index /dev/null c.txt']);
    assert.match(results[0]!, /\+b/);
    assert.match(results[1]!, /\+c/);
    assert.equal(existsSync(mark) ? readFileSync(mark, 'utf8') : '', '', 'a program the repository names ran');
  });

  it('a bare repository committed as plain files is not discovered by walking into it', async () => {
    const cwd = tmp('tl-gitbare-');
    const mark = join(tmp('tl-mark-'), 'pwned');
    const bare = join(cwd, 'fixtures', 'repo');
    mkdirSync(bare, { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', bare]);
    writeFileSync(join(bare, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch ${mark} #"\n`);
    await runCli(cwd, ['Bash(git status:*)', 'Bash(cd:*)'], ['cd fixtures/repo && git status']);
    assert.equal(existsSync(mark), false, 'the bare repository config named a program and it ran');
  });
});
