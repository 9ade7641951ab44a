// MCP in the headless CLI, against the stand-in and the tests' real MCP servers (stdio).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { mcpConfigFile, pidsWith, stdioServer } from '../../support/mcpServers';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

async function cli(argv: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const stateDir = extraEnv.THREADLINE_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'tl-state-'));
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', HOME: mkdtempSync(join(tmpdir(), 'tl-home-')), PATH: process.env.PATH ?? '', ...extraEnv },
    cwd,
  });
  return { code, out, err };
}

type Body = { tools: Array<{ name: string }>; messages: Array<{ role: string; content: unknown }> };
const body = (i: number) => standin.requests[i]!.body as Body;
const lastResult = (b: Body) => {
  const m = b.messages.at(-1)!;
  return (m.content as Array<{ type: string; content?: unknown; is_error?: boolean }>).find((x) => x.type === 'tool_result')!;
};

describe('MCP servers in the CLI', () => {
  it('a server from --mcp-config answers the model, allowed by a server rule; its result is in the next request; its process ends with the run', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const marker = `srv-${randomUUID()}`;
    const cfg = mcpConfigFile({ notes: stdioServer('--name', marker) });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__notes__echo', input: { text: 'hello' } }] }, { content: [{ type: 'text', text: 'It echoed.' }] });
    const r = await cli(['-p', 'echo hello', '--mcp-config', cfg, '--allowed-tools', 'mcp__notes', '--output-format', 'json'], cwd);
    assert.equal(r.code, 0, r.err);
    const res = lastResult(body(1));
    assert.notEqual(res.is_error, true);
    assert.equal(res.content, 'echo: hello');
    assert.deepEqual(await pidsWith(marker), [], 'no server process outlives the run');
    for (const rq of standin.requests) assert.equal(rq.validationError, null);
  });

  it('without a rule the call is denied, naming the rules that would allow it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ notes: stdioServer() });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__notes__echo', input: { text: 'x' } }] }, { content: [{ type: 'text', text: 'denied' }] });
    const r = await cli(['-p', 'echo', '--mcp-config', cfg, '--output-format', 'json'], cwd);
    const j = JSON.parse(r.out) as { permission_denials: Array<{ tool_name: string; reason: string }> };
    assert.equal(j.permission_denials[0]!.tool_name, 'mcp__notes__echo');
    assert.match(j.permission_denials[0]!.reason, /--allowed-tools 'mcp__notes__echo'.*--allowed-tools 'mcp__notes'/);
  });

  it('mcp__server__* and mcp__server__tool rules allow too; another server\'s rule does not', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ notes: stdioServer(), other: stdioServer() });
    for (const [rule, ok] of [['mcp__notes__*', true], ['mcp__notes__echo', true], ['mcp__other', false], ['mcp__notes__add', false]] as const) {
      standin.reset();
      standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__notes__echo', input: { text: 'x' } }] }, { content: [{ type: 'text', text: 'ok' }] });
      await cli(['-p', 'echo', '--mcp-config', cfg, '--allowed-tools', rule], cwd);
      assert.equal(lastResult(body(1)).is_error === true, !ok, `${rule} allows: ${ok}`);
    }
  });

  it('a result over the cap goes to a file: the history gets its head and the path, and Read opens the file without asking', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ big: stdioServer('--huge-bytes', '200000') });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__big__huge', input: {} }] });
    standin.enqueue({
      content: [],
      contentFrom: (req) => {
        const text = String(lastResult(req as unknown as Body).content);
        const path = /written to (\S+\.txt)\./.exec(text)?.[1] ?? 'missing';
        return [{ type: 'tool_use', name: 'Read', input: { file_path: path, offset: 3000, limit: 2 } }];
      },
    });
    standin.enqueue({ content: [{ type: 'text', text: 'read it' }] });
    const r = await cli(['-p', 'get it', '--mcp-config', cfg, '--allowed-tools', 'mcp__big', '--output-format', 'json'], cwd, { MAX_MCP_OUTPUT_TOKENS: '2000' });
    assert.equal(r.code, 0, r.err);
    const text = String(lastResult(body(1)).content);
    assert.ok(text.length <= 2000 * 4, `the history grows by no more than the cap (${text.length} chars)`);
    assert.match(text, /^line 0000000 x+/);
    const path = /written to (\S+\.txt)\./.exec(text)![1]!;
    assert.ok(readFileSync(path, 'utf8').length > 199_000, 'the file holds the whole result');
    const read = lastResult(body(2));
    assert.notEqual(read.is_error, true, String(read.content));
    assert.match(String(read.content), /line 0002999/);
    assert.deepEqual((JSON.parse(r.out) as { permission_denials: unknown[] }).permission_denials, []);
  });

  it("a long tool name is shortened to a stable name under 64 characters, and the request is valid", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ 'long-server-name': stdioServer('--long-names') });
    // The first request goes out without waiting for the server; a call to it waits for it, so the
    // request after that call carries the server's tools.
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__long-server-name__echo', input: { text: 'x' } }] }, { content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'list', '--mcp-config', cfg, '--allowed-tools', 'mcp__long-server-name'], cwd);
    assert.equal(lastResult(body(1)).content, 'echo: x');
    assert.equal(r.code, 0, r.err);
    const names = body(1).tools.map((t) => t.name);
    const long = names.find((n) => n.startsWith('mcp__long-server-name__a_tool_with'));
    assert.ok(long, names.join(', '));
    assert.ok(long.length <= 64);
    assert.match(long, /_[0-9a-f]{8}$/);
    for (const rq of standin.requests) assert.equal(rq.validationError, null);
  });

  it('project servers: not started in an untrusted folder; with --trust they wait for `mcp approve`; denied ones stay off; reset asks again', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdioServer() } }));
    const env = { THREADLINE_STATE_DIR: stateDir };
    const list = async (...flags: string[]) => (JSON.parse((await cli(['mcp', 'list', '--json', ...flags], cwd, env)).out) as { servers: Array<{ name: string; state: string; detail: string }> }).servers[0]!;
    assert.equal((await list()).state, 'disabled');
    assert.match((await list()).detail, /not trusted/);
    assert.equal((await list('--trust')).state, 'awaiting-approval');
    assert.equal((await cli(['mcp', 'approve', 'proj'], cwd, env)).code, 0);
    assert.equal((await list('--trust')).state, 'running');
    assert.equal((await list()).state, 'disabled', 'an approval does not stand in for trust');
    await cli(['mcp', 'deny', 'proj'], cwd, env);
    assert.match((await list('--trust')).detail, /denied/);
    await cli(['mcp', 'reset'], cwd, env);
    assert.equal((await list('--trust')).state, 'awaiting-approval');
    // A changed definition asks again.
    await cli(['mcp', 'approve', 'proj'], cwd, env);
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdioServer('--name', 'changed') } }));
    assert.equal((await list('--trust')).state, 'awaiting-approval');
  });

  it('project servers follow the folder trust of project settings: an untrusted run names them in its notice and its question, a trusted folder starts them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { db: stdioServer(), gone: stdioServer(), off: { ...stdioServer(), disabled: true } } }));
    const env = { THREADLINE_STATE_DIR: stateDir };
    assert.equal((await cli(['mcp', 'approve', 'db'], cwd, env)).code, 0);
    assert.equal((await cli(['mcp', 'deny', 'gone'], cwd, env)).code, 0);
    // Untrusted: the one-line notice names the server trust would start (not the denied or disabled ones), and no MCP tool is offered.
    standin.enqueue({ content: [{ type: 'text', text: 'no tools' }] });
    const before = standin.requests.length;
    const untrusted = await cli(['-p', 'hi'], cwd, env);
    assert.equal(untrusted.code, 0, untrusted.err);
    assert.match(untrusted.err, /folder not trusted; ignored from \.mcp\.json: MCP server db \(run threadline trust to apply\)/);
    assert.doesNotMatch(untrusted.err, /MCP server (gone|off)/);
    assert.deepEqual(body(before).tools.map((t) => t.name).filter((n) => n.startsWith('mcp__')), []);
    // A terminal is asked, naming the server; "no" leaves it off and says so.
    let question = '';
    standin.enqueue({ content: [{ type: 'text', text: 'still none' }] });
    let err = '';
    const code = await runCli(['-p', 'hi'], {
      io: { out: () => undefined, err: (t) => (err += t) },
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', HOME: mkdtempSync(join(tmpdir(), 'tl-home-')), PATH: process.env.PATH ?? '' },
      cwd,
      confirm: async (q) => {
        question = q;
        return false;
      },
    });
    assert.equal(code, 0, err);
    assert.match(question, /Trusting it applies from \.mcp\.json: MCP server db/);
    // Trusted the way project settings are (threadline trust): the approved server starts and answers.
    assert.equal((await cli(['trust'], cwd, env)).code, 0);
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__db__echo', input: { text: 'x' } }] }, { content: [{ type: 'text', text: 'done' }] });
    const at = standin.requests.length;
    const trusted = await cli(['-p', 'echo x', '--allowed-tools', 'mcp__db'], cwd, env);
    assert.equal(trusted.code, 0, trusted.err);
    assert.doesNotMatch(trusted.err, /not trusted/);
    assert.equal(lastResult(body(at + 1)).content, 'echo: x');
  });

  it('--strict-mcp-config ignores the project files; a missing --mcp-config file is a usage error', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdioServer() } }));
    const cfg = mcpConfigFile({ flagged: stdioServer() });
    const r = await cli(['mcp', 'list', '--json', '--mcp-config', cfg, '--strict-mcp-config'], cwd);
    assert.deepEqual((JSON.parse(r.out) as { servers: Array<{ name: string }> }).servers.map((s) => s.name), ['flagged']);
    const bad = await cli(['-p', 'x', '--mcp-config', join(cwd, 'nope.json')], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--mcp-config .*nope\.json: no such file/);
    assert.equal(existsSync(join(cwd, 'nope.json')), false);
  });

  it('an image result goes to the model as an image block beside its text, in a request the API accepts', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ pics: stdioServer() });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__pics__image', input: {} }] }, { content: [{ type: 'text', text: 'a pixel' }] });
    const r = await cli(['-p', 'show', '--mcp-config', cfg, '--allowed-tools', 'mcp__pics'], cwd);
    assert.equal(r.code, 0, r.err);
    const res = lastResult(body(1)) as { content: Array<{ type: string; text?: string; source?: { media_type: string } }> };
    assert.deepEqual(res.content.map((b) => b.type), ['text', 'image']);
    assert.match(res.content[0]!.text!, /a red pixel\n\n\[resource file:\/\/\/tmp\/notes\.txt \(text\/plain\)\]\nresource text/);
    assert.equal(res.content[1]!.source!.media_type, 'image/png');
    assert.equal(standin.requests[1]!.validationError, null);
  });

  it('a server that fails to start says why on stderr and in the call it answers; the run goes on', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ broken: stdioServer('--exit-at-start', '4') });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__broken__echo', input: { text: 'x' } }] }, { content: [{ type: 'text', text: 'it is down' }] });
    const r = await cli(['-p', 'try', '--mcp-config', cfg, '--allowed-tools', 'mcp__broken'], cwd, { MCP_TIMEOUT: '3000' });
    assert.equal(r.code, 0, r.err);
    const res = lastResult(body(1));
    assert.equal(res.is_error, true);
    assert.match(String(res.content), /MCP server "broken" ended before it finished starting: the process exited with code 4/);
  });

  it('threadline context waits for the servers and shows each one\'s tool definitions in tokens', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const cfg = mcpConfigFile({ notes: stdioServer('--name', 'notes'), big: stdioServer('--name', 'big', '--tools', '60') });
    const r = await cli(['context', '--json', '--mcp-config', cfg, '--context-window', '200000'], cwd);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as { categories: Array<{ name: string; tokens: number }>; mcp: Array<{ name: string; state: string; tokens: number; tools: number; deferred?: boolean }> };
    const notes = j.mcp.find((s) => s.name === 'notes')!;
    assert.equal(notes.state, 'running');
    assert.ok(notes.tokens > 0 && notes.tools === 7);
    assert.ok(j.categories.some((c) => c.name === 'MCP tools: notes' && c.tokens > 0), JSON.stringify(j.categories));
    const text = await cli(['context', '--mcp-config', cfg, '--context-window', '20000'], cwd);
    assert.match(text.out, /## MCP servers/);
    assert.match(text.out, /MCP tool search/, 'past a tenth of a small window the definitions are deferred');
  });

  it('the first request goes out before any server process is spawned; the servers start while the answer comes', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-mcp-'));
    const marker = `gate-${randomUUID()}`;
    const cfg = mcpConfigFile({ a: stdioServer('--name', marker), b: stdioServer('--name', marker) });
    let atFirstRequest = -1;
    standin.enqueue(
      {
        content: [],
        contentFrom: () => {
          atFirstRequest = procsWith(marker);
          return [{ type: 'tool_use', name: 'mcp__a__echo', input: { text: 'x' } }];
        },
      },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const r = await cli(['-p', 'go', '--mcp-config', cfg, '--allowed-tools', 'mcp__a'], cwd);
    assert.equal(r.code, 0, r.err);
    assert.equal(atFirstRequest, 0, 'no server process existed when the first request arrived');
    assert.equal(lastResult(body(1)).content, 'echo: x', 'the call waited for the server');
  });
});

/** Processes whose command line holds `marker`, read at once (the stand-in's reply builder is synchronous). */
function procsWith(marker: string): number {
  let n = 0;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker)) n++;
    } catch {
      // gone
    }
  }
  return n;
}
