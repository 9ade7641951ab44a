import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, splitToolList, UsageError } from '../../../src/cli/args';

describe('parseCliArgs', () => {
  it('reads the Claude Code style flags', () => {
    const a = parseCliArgs(['-p', 'fix it', '--cwd', '/tmp', '--model', 'm', '--context-window', '32000', '--max-turns', '3', '--allowed-tools', 'Read,Bash(npm test:*)', '--output-format', 'json'], '/home');
    assert.deepEqual(a, {
      command: 'prompt',
      prompt: 'fix it',
      cwd: '/tmp',
      model: 'm',
      contextWindow: 32000,
      maxTurns: 3,
      allowedTools: ['Read', 'Bash(npm test:*)'],
      outputFormat: 'json',
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
    assert.deepEqual(parseCliArgs(['context', '--json'], '/w'), { command: 'context', cwd: '/w', json: true, model: undefined, contextWindow: undefined });
  });

  it('splits tool lists outside parentheses only', () => {
    assert.deepEqual(splitToolList('Read, Bash(git log, git diff) Edit'), ['Read', 'Bash(git log, git diff)', 'Edit']);
  });
});
