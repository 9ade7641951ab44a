import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, splitToolList, UsageError } from '../../../src/cli/args';

describe('parseCliArgs', () => {
  it('reads the Claude Code style flags', () => {
    const a = parseCliArgs(['-p', 'fix it', '--cwd', '/tmp', '--model', 'm', '--context-window', '32000', '--max-turns', '3', '--allowed-tools', 'Read,Bash(npm test:*)', '--add-dir', '/etc', '--add-dir', '/srv/x', '--output-format', 'json'], '/home');
    assert.deepEqual(a, {
      command: 'prompt',
      prompt: 'fix it',
      cwd: '/tmp',
      model: 'm',
      contextWindow: 32000,
      maxTurns: 3,
      allowedTools: ['Read', 'Bash(npm test:*)'],
      addDirs: ['/etc', '/srv/x'],
      outputFormat: 'json',
      resume: undefined,
    });
  });

  it('defaults cwd, turns and format', () => {
    const a = parseCliArgs(['-p', 'q'], '/work');
    assert.equal(a.command, 'prompt');
    if (a.command === 'prompt') {
      assert.equal(a.cwd, '/work');
      assert.equal(a.maxTurns, 50);
      assert.equal(a.outputFormat, 'text');
    }
  });

  it('rejects bad values with a usage error', () => {
    assert.throws(() => parseCliArgs(['-p', 'q', '--max-turns', '0'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['-p', 'q', '--output-format', 'xml'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['-p', 'q', '--bogus'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['-p', '  '], '/'), UsageError);
  });

  it('parses the context subcommand', () => {
    assert.deepEqual(parseCliArgs(['context', '--json'], '/w'), { command: 'context', cwd: '/w', json: true, model: undefined, contextWindow: undefined, addDirs: [] });
  });

  it('splits tool lists outside parentheses only', () => {
    assert.deepEqual(splitToolList('Read, Bash(git log, git diff) Edit'), ['Read', 'Bash(git log, git diff)', 'Edit']);
  });
});

describe('parseCliArgs: sessions', () => {
  it('reads --continue, --resume and the sessions subcommand, and refuses both at once', () => {
    const c = parseCliArgs(['-p', 'go on', '--continue'], '/w');
    assert.ok(c.command === 'prompt' && c.resume && 'latest' in c.resume);
    const r = parseCliArgs(['-p', 'go on', '-r', 'abc'], '/w');
    assert.ok(r.command === 'prompt' && r.resume && 'id' in r.resume && r.resume.id === 'abc');
    assert.deepEqual(parseCliArgs(['sessions', '--json'], '/w'), { command: 'sessions', cwd: '/w', json: true });
    assert.throws(() => parseCliArgs(['-p', 'x', '-c', '-r', 'a'], '/w'), UsageError);
  });
});
