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
      mcp: { configs: [], strict: false },
      trust: false,
    });
  });

  it('defaults cwd and format, and sets no turn limit (the reference\'s -p has none)', () => {
    const a = parseCliArgs(['-p', 'q'], '/work');
    assert.equal(a.command, 'prompt');
    if (a.command === 'prompt') {
      assert.equal(a.cwd, '/work');
      assert.equal(a.maxTurns, undefined);
      assert.equal(a.outputFormat, 'text');
    }
  });

  it('rejects bad values with a usage error', () => {
    assert.throws(() => parseCliArgs(['-p', 'q', '--max-turns', '0'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['-p', 'q', '--output-format', 'xml'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['-p', 'q', '--bogus'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['-p', '  '], '/'), UsageError);
  });

  it('refuses a context window too small to hold the system prompt and an answer, suggesting the thousands meant', () => {
    // Before, `--context-window 200` ran and every request was refused with "over the 0k a request may hold".
    assert.throws(() => parseCliArgs(['-p', 'q', '--context-window', '200'], '/'), (err: Error) => err instanceof UsageError && /at least 8192, got 200 \(for 200k, give 200000\)/.test(err.message));
    assert.throws(() => parseCliArgs(['context', '--context-window', '8191'], '/'), (err: Error) => err instanceof UsageError && !/for \d+k/.test(err.message));
    assert.equal(parseCliArgs(['context', '--context-window', '8192'], '/').command, 'context');
  });

  it('parses the context subcommand', () => {
    assert.deepEqual(parseCliArgs(['context', '--json'], '/w'), { command: 'context', cwd: '/w', json: true, model: undefined, contextWindow: undefined, addDirs: [], mcp: { configs: [], strict: false }, trust: false });
    assert.equal((parseCliArgs(['context', '--trust'], '/w') as { trust: boolean }).trust, true);
  });

  it('parses trust: a folder (default --cwd), --list, --revoke; --trust for one run', () => {
    assert.deepEqual(parseCliArgs(['trust'], '/w'), { command: 'trust', action: 'trust', dir: '/w', json: false });
    assert.deepEqual(parseCliArgs(['trust', '../x', '--cwd', '/y'], '/w'), { command: 'trust', action: 'trust', dir: '../x', json: false });
    assert.deepEqual(parseCliArgs(['trust', '--cwd', '/y'], '/w'), { command: 'trust', action: 'trust', dir: '/y', json: false });
    assert.deepEqual(parseCliArgs(['trust', '--list', '--json'], '/w'), { command: 'trust', action: 'list', dir: '/w', json: true });
    assert.deepEqual(parseCliArgs(['trust', '--revoke', '/a'], '/w'), { command: 'trust', action: 'revoke', dir: '/a', json: false });
    assert.throws(() => parseCliArgs(['trust', '--list', '--revoke'], '/w'), UsageError);
    assert.throws(() => parseCliArgs(['trust', '--list', '/a'], '/w'), UsageError);
    assert.throws(() => parseCliArgs(['trust', '/a', '/b'], '/w'), UsageError);
    const p = parseCliArgs(['-p', '--trust', 'fix it'], '/w');
    assert.ok(p.command === 'prompt' && p.trust && p.prompt === 'fix it', JSON.stringify(p));
  });

  it('splits tool lists outside parentheses only', () => {
    assert.deepEqual(splitToolList('Read, Bash(git log, git diff) Edit'), ['Read', 'Bash(git log, git diff)', 'Edit']);
  });
});

describe('parseCliArgs: tool lists keep every value the user wrote', () => {
  const tools = (argv: string[]) => {
    const a = parseCliArgs(argv, '/w');
    assert.equal(a.command, 'prompt');
    return a.command === 'prompt' ? { tools: a.allowedTools, prompt: a.prompt } : undefined;
  };

  it('takes several values after one flag, comma lists, repeated flags and the --allowedTools spelling', () => {
    assert.deepEqual(tools(['-p', 'go', '--allowed-tools', 'Read', 'Edit']), { tools: ['Read', 'Edit'], prompt: 'go' });
    assert.deepEqual(tools(['-p', 'go', '--allowed-tools', 'Read,Edit']), { tools: ['Read', 'Edit'], prompt: 'go' });
    assert.deepEqual(tools(['--allowed-tools', 'Read', '--allowed-tools', 'Edit', 'Bash(npm test:*)', '-p', 'go']), { tools: ['Read', 'Edit', 'Bash(npm test:*)'], prompt: 'go' });
    assert.deepEqual(tools(['-p', 'go', '--allowedTools', 'Read', 'Grep', '--allowed-tools=Glob']), { tools: ['Read', 'Grep', 'Glob'], prompt: 'go' });
    assert.deepEqual(tools(['-p', 'go', '--allowed-tools', 'Bash(git log, git diff) Edit', 'mcp__files__read']), { tools: ['Bash(git log, git diff)', 'Edit', 'mcp__files__read'], prompt: 'go' });
  });

  it('ends a list at the next flag or at --, so a prompt can follow', () => {
    assert.deepEqual(tools(['--allowed-tools', 'Read', 'Edit', '--', 'fix the bug']), { tools: ['Read', 'Edit'], prompt: 'fix the bug' });
    assert.deepEqual(tools(['fix', 'the', 'bug', '--allowed-tools', 'Read', 'Edit']), { tools: ['Read', 'Edit'], prompt: 'fix the bug' });
    assert.deepEqual(tools(['--allowed-tools', 'Read', '--model', 'm', 'fix it']), { tools: ['Read'], prompt: 'fix it' });
  });

  it('refuses, rather than guesses, when the prompt may have been taken as a tool or a word would be dropped', () => {
    const refused = (argv: string[], re: RegExp) => {
      assert.throws(() => parseCliArgs(argv, '/w'), (err: unknown) => err instanceof UsageError && re.test(err.message), argv.join(' '));
    };
    refused(['--allowed-tools', 'Read', 'fix the bug'], /"fix" is not a tool rule.*give the prompt with -p, before --allowed-tools, or after --/);
    refused(['--allowed-tools', 'Read', 'Explain'], /no prompt: --allowed-tools took every argument after it \(Read Explain\)/);
    refused(['-p', 'go', '--allowed-tools', 'Read', 'then', 'stop'], /"then" is not a tool rule/);
    refused(['-p', 'go', '--allowed-tools=Read', 'Edit'], /unexpected argument "Edit"/);
    refused(['-p', 'fix', 'the', 'bug'], /unexpected argument "the": the prompt is the value of -p/);
    refused(['-p', 'go', '--allowed-tools'], /--allowed-tools needs at least one tool rule/);
    refused(['--allowed-tools', '-p', 'go'], /--allowed-tools needs at least one tool rule/);
    refused(['-p', 'go', '--allowed-tools', 'Bash(npm test:*'], /is not a tool rule/);
  });
});

describe('parseCliArgs: sessions', () => {
  it('reads --continue, --resume and the sessions subcommand, and refuses both at once', () => {
    const c = parseCliArgs(['-p', 'go on', '--continue'], '/w');
    assert.ok(c.command === 'prompt' && c.resume && 'latest' in c.resume);
    const r = parseCliArgs(['-p', 'go on', '-r', 'abc'], '/w');
    assert.ok(r.command === 'prompt' && r.resume && 'id' in r.resume && r.resume.id === 'abc');
    assert.deepEqual(parseCliArgs(['sessions', '--json'], '/w'), { command: 'sessions', cwd: '/w', json: true, all: false });
    assert.deepEqual(parseCliArgs(['sessions', '--all'], '/w'), { command: 'sessions', cwd: '/w', json: false, all: true });
    assert.throws(() => parseCliArgs(['-p', 'x', '-c', '-r', 'a'], '/w'), UsageError);
  });
});

describe('parseCliArgs: MCP', () => {
  it('--mcp-config takes several files, inline JSON and the flag repeated; --strict-mcp-config needs one; --trust', () => {
    const a = parseCliArgs(['-p', 'x', '--mcp-config', 'a.json', '{"mcpServers":{}}', '--mcp-config', 'b.json', '--strict-mcp-config', '--trust'], '/w');
    assert.equal(a.command, 'prompt');
    assert.deepEqual((a as { mcp: unknown }).mcp, { configs: ['a.json', '{"mcpServers":{}}', 'b.json'], strict: true });
    assert.equal((a as { trust: boolean }).trust, true);
    assert.throws(() => parseCliArgs(['-p', 'x', '--strict-mcp-config'], '/w'), /--strict-mcp-config uses only the servers of --mcp-config/);
    assert.throws(() => parseCliArgs(['-p', 'x', '--mcp-config'], '/w'), /--mcp-config needs a file/);
  });

  it('mcp list|approve|deny|reset, with the same flags', () => {
    assert.deepEqual(parseCliArgs(['mcp'], '/w'), { command: 'mcp', cwd: '/w', json: false, action: 'list', mcp: { configs: [], strict: false }, trust: false });
    assert.deepEqual(parseCliArgs(['mcp', 'approve', 'notes', '--json'], '/w'), { command: 'mcp', cwd: '/w', json: true, action: 'approve', name: 'notes', mcp: { configs: [], strict: false }, trust: false });
    assert.equal((parseCliArgs(['mcp', 'reset'], '/w') as { action: string }).action, 'reset');
    assert.throws(() => parseCliArgs(['mcp', 'approve'], '/w'), /needs a server name/);
    assert.throws(() => parseCliArgs(['mcp', 'start', 'x'], '/w'), /mcp takes list, approve NAME/);
  });

  it('rules for MCP tools pass the rule check, the wildcard form too', () => {
    const a = parseCliArgs(['-p', 'x', '--allowed-tools', 'mcp__github', 'mcp__github__*', 'mcp__github__create_issue'], '/w') as { allowedTools: string[] };
    assert.deepEqual(a.allowedTools, ['mcp__github', 'mcp__github__*', 'mcp__github__create_issue']);
  });
});
