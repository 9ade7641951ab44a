import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FLAGS } from '../../../src/cli/flags';
import { parseCliArgs, UsageError } from '../../../src/cli/args';
import { HELP } from '../../../src/cli/help';

const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');

describe('the CLI flags, listed once', () => {
  for (const name of Object.keys(FLAGS)) {
    it(`--${name} is in the help text and the README`, () => {
      assert.ok(HELP.includes(`--${name}`), `--${name} is missing from threadline --help`);
      assert.ok(readme.includes(`--${name}`), `--${name} is missing from the README`);
    });
  }

  it('a flag that is not in the table is refused with a usage error', () => {
    assert.throws(() => parseCliArgs(['--no-such-flag', 'x'], '/tmp'), UsageError);
  });

  it('the Claude Code spelling --allowedTools is read as --allowed-tools, inline too', () => {
    const a = parseCliArgs(['-p', 'hi', '--allowedTools', 'Read', '--allowedTools=Bash(ls:*)'], '/tmp');
    assert.equal(a.command, 'prompt');
    if (a.command === 'prompt') assert.deepEqual(a.allowedTools, ['Read', 'Bash(ls:*)']);
  });
});
