// Class: a workspace's MCP files turned against the user. A project server named like the user's
// own one took its place (and its mcp__name rules); config files linked outside the workspace,
// nested past the parser's stack, or naming servers with control characters reached the
// terminal or stopped every run.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
});
