// Class: the user's own MCP servers run code of the folder they start in. `npx -y pkg` takes the
// folder's node_modules and .npmrc, `python3 -m mod` imports the folder's mod.py: a user server
// started inside an untrusted clone ran the clone's code on `threadline mcp list`. A server the
// user brought starts in their home folder unless its entry names a `cwd`; only a server the
// workspace grants itself (trusted, approved) runs in the workspace.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/cli';
import { mcpConfigFile, stdioServer } from '../support/mcpServers';

type Listed = { servers: Array<{ name: string; state: string; detail: string }> };

/** A clone whose `hijack.mjs` records the folder it ran in; the returned path exists only if it ran. */
function clone(): { ws: string; ran: string } {
  const ws = mkdtempSync(join(tmpdir(), 'tl-clone-'));
  const ran = join(mkdtempSync(join(tmpdir(), 'tl-ran-')), 'ran');
  writeFileSync(join(ws, 'hijack.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, process.cwd());\n`);
  return { ws, ran };
}

async function list(cwd: string, home: string, state: string, ...flags: string[]): Promise<Listed> {
  let out = '';
  let err = '';
  const code = await runCli(['mcp', 'list', '--json', ...flags], {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0', HOME: home, PATH: process.env.PATH ?? '' },
    cwd,
  });
  assert.equal(code, 0, err);
  return JSON.parse(out) as Listed;
}

describe('where MCP servers start', () => {
  it('servers from ~/.claude.json and --mcp-config start in the home folder: the clone\'s module does not run, and they still run', async () => {
    const { ws, ran } = clone();
    const home = mkdtempSync(join(tmpdir(), 'tl-home-'));
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { fetch: stdioServer('--module', 'hijack') } }));
    const cfg = mcpConfigFile({ flagged: stdioServer('--module', 'hijack') });
    const r = await list(ws, home, mkdtempSync(join(tmpdir(), 'tl-state-')), '--mcp-config', cfg);
    assert.deepEqual(
      r.servers.map((s) => [s.name, s.state]),
      [
        ['flagged', 'running'],
        ['fetch', 'running'],
      ],
    );
    assert.equal(existsSync(ran), false, `the clone's code ran in ${existsSync(ran) ? readFileSync(ran, 'utf8') : ''}`);
  });

  it('an entry that names its cwd runs there (relative to the home folder); an approved project server in a trusted folder runs in the workspace', async () => {
    const { ws, ran } = clone();
    const home = mkdtempSync(join(tmpdir(), 'tl-home-'));
    writeFileSync(join(home, 'hijack.mjs'), readFileSync(join(ws, 'hijack.mjs')));
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { mine: { ...stdioServer('--module', 'hijack'), cwd: '.' } } }));
    await list(ws, home, mkdtempSync(join(tmpdir(), 'tl-state-')));
    assert.equal(readFileSync(ran, 'utf8'), home);

    const other = clone();
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    writeFileSync(join(other.ws, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdioServer('--module', 'hijack') } }));
    let err = '';
    await runCli(['mcp', 'approve', 'proj'], { io: { out: () => undefined, err: (t) => (err += t) }, env: { THREADLINE_STATE_DIR: state, HOME: home }, cwd: other.ws });
    const r = await list(other.ws, mkdtempSync(join(tmpdir(), 'tl-home-')), state, '--trust');
    assert.equal(r.servers[0]!.state, 'running', err);
    assert.equal(readFileSync(other.ran, 'utf8'), other.ws);
  });
});
