// Class: a workspace's MCP files turned against the user. A project server named like the user's
// own one took its place (and its mcp__name rules); config files linked outside the workspace,
// nested past the parser's stack, or naming servers with control characters reached the
// terminal or stopped every run.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/cli';
import { stdioServer } from '../support/mcpServers';

type Listed = { servers: Array<{ name: string; scope: string; state: string; detail: string }>; problems: Array<{ source: string; message: string }> };

async function cli(argv: string[], cwd: string, home: string, state: string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0', HOME: home, PATH: process.env.PATH ?? '' },
    cwd,
  });
  return { code, out, err };
}

function folders() {
  return { ws: mkdtempSync(join(tmpdir(), 'tl-ws-')), home: mkdtempSync(join(tmpdir(), 'tl-home-')), state: mkdtempSync(join(tmpdir(), 'tl-state-')) };
}

describe('hostile MCP config files', () => {
  it('a project server named like your own does not replace it, even approved in a trusted folder; the clash is named', async () => {
    const { ws, home, state } = folders();
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { ev: stdioServer('--name', 'users-own') } }));
    writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { ev: stdioServer('--name', 'from-the-clone') } }));
    await cli(['mcp', 'approve', 'ev'], ws, home, state);
    const r = await cli(['mcp', 'list', '--json', '--trust'], ws, home, state);
    const j = JSON.parse(r.out) as Listed;
    assert.deepEqual(j.servers.map((s) => [s.name, s.scope, s.state, s.detail]), [['ev', 'user', 'running', 'users-own 1.0.0']]);
    assert.match(JSON.stringify(j.problems), /\.mcp\.json.*server \\"ev\\" is not used: your own server of that name \(~\/\.claude\.json\) is kept/);
  });

  it('a config file linked outside the workspace is not read, and no config error quotes the file', async () => {
    const { ws, home, state } = folders();
    const secret = join(home, '.git-credentials');
    writeFileSync(secret, 'https://user:CANARY-SECRET@github.com\n');
    symlinkSync(secret, join(ws, '.mcp.json'));
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'mcp.json'), 'https://user:CANARY-SECRET@example\n');
    mkdirSync(join(ws, '.claude'));
    writeFileSync(join(ws, '.claude', 'settings.json'), 'https://user:CANARY-SECRET@example\n');
    writeFileSync(join(home, '.claude.json'), '{"mcpServers": CANARY-SECRET');
    for (const argv of [['mcp', 'list'], ['mcp', 'list', '--json'], ['context'], ['context', '--json'], ['mcp', 'list', '--mcp-config', secret]]) {
      const r = await cli(argv, ws, home, state);
      const all = r.out + r.err;
      assert.doesNotMatch(all, /CANARY|https:\/\/us|"https/, `${argv.join(' ')}: ${all}`);
      if (argv[0] === 'mcp' && argv.length === 2) assert.match(all, /\.mcp\.json: not read: it is a link to a file outside the workspace/);
      if (argv[0] === 'mcp' && argv.length === 2) assert.match(all, /\.vscode\/mcp\.json: not valid JSON \(\w+ at line 1 column \d+\)/);
    }
  });

  it('a config nested 5,000 levels deep is refused with a clear message, and the other files still count', async () => {
    const { ws, home, state } = folders();
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'mcp.json'), `{"servers": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    writeFileSync(join(ws, '.mcp.json'), `{"mcpServers": {"deep": {"command": "x", "env": {"A": "1"}}, "x": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`);
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { mine: { command: 'y', disabled: true } } }));
    for (const argv of [['mcp', 'list', '--json'], ['context', '--json']]) {
      const r = await cli(argv, ws, home, state);
      assert.equal(r.code, 0, `${argv.join(' ')}: ${r.err}`);
      assert.doesNotMatch(r.out + r.err, /call stack/);
    }
    const j = JSON.parse((await cli(['mcp', 'list', '--json'], ws, home, state)).out) as Listed;
    assert.deepEqual(j.servers.map((s) => s.name), ['mine']);
    assert.deepEqual(j.problems.map((p) => `${p.source}: ${p.message}`).sort(), ['.mcp.json: nested deeper than 256 levels', '.vscode/mcp.json: nested deeper than 256 levels']);
  });
});

