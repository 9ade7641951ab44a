// Server lifecycles against the tests' real MCP servers (the SDK's server side), stdio and HTTP:
// slow start, crash mid-call, a server that never answers, one that exits at once, 401, list
// changes, and every process ending with the session.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { McpConfigResult } from '../../../src/mcp/config/sources';
import { parseServerEntry } from '../../../src/mcp/config/parse';
import type { McpServerConfig } from '../../../src/mcp/config/types';
import { McpManager, type McpManagerOptions } from '../../../src/mcp/manager';
import { FileApprovalStore } from '../../../src/mcp/trust';
import { httpServer, pidsWith, stdioServer } from '../../support/mcpServers';

function config(servers: Record<string, unknown>): McpConfigResult {
  const list: McpServerConfig[] = Object.entries(servers).map(([name, raw]) => {
    const p = parseServerEntry(name, raw);
    if (!p.ok) throw new Error(p.error);
    return { name, scope: 'user', source: 'test', spec: p.spec, hash: p.hash, shadows: [] };
  });
  return { servers: list, problems: [], inputs: new Map(), flagErrors: [] };
}

const managers: McpManager[] = [];
function manager(servers: Record<string, unknown>, opts: Partial<McpManagerOptions> = {}): McpManager {
  const m = new McpManager({
    cwd: mkdtempSync(join(tmpdir(), 'tl-mcp-ws-')),
    home: tmpdir(),
    env: process.env,
    clientVersion: 'test',
    readConfig: async () => config(servers),
    trust: { isTrusted: () => true },
    approvals: new FileApprovalStore(join(mkdtempSync(join(tmpdir(), 'tl-appr-')), 'a.json')),
    approveHint: (n) => `approve ${n}`,
    trustHint: 'trust it',
    retryDelaysMs: [],
    ...opts,
  });
  managers.push(m);
  return m;
}
after(async () => {
  await Promise.all(managers.map((m) => m.shutdown()));
});

const signal = () => new AbortController().signal;

describe('MCP servers through their lives', () => {
  it('start() does not wait for a slow server; a call waits for it; its tools join when it is ready', async () => {
    const m = manager({ slow: stdioServer('--slow-start', '800') });
    const t0 = Date.now();
    await m.start();
    assert.ok(Date.now() - t0 < 500, `start() returned after ${Date.now() - t0} ms`);
    const s = m.server('slow')!;
    assert.equal(s.state, 'starting');
    assert.equal(s.tools.length, 0);
    const r = await s.call('echo', { text: 'late' }, { signal: signal(), timeoutMs: 10_000 });
    assert.deepEqual(r.content, [{ type: 'text', text: 'echo: late' }]);
    assert.equal(s.state, 'running');
    assert.ok(s.tools.some((t) => t.name === 'echo'));
  });

  it('a crash mid-call fails the call naming the server and its last words; the server reconnects', async () => {
    const m = manager({ crashy: stdioServer('--name', 'crashy') }, { retryDelaysMs: [50] });
    await m.settled(10_000);
    const s = m.server('crashy')!;
    await assert.rejects(s.call('crash', {}, { signal: signal(), timeoutMs: 10_000 }), (err: Error) => {
      assert.match(err.message, /MCP server "crashy" stopped during the call/);
      assert.match(err.message, /segfault in the fake driver/);
      return true;
    });
    const again = await s.call('echo', { text: 'back' }, { signal: signal(), timeoutMs: 10_000 });
    assert.deepEqual(again.content, [{ type: 'text', text: 'echo: back' }], 'it came back by itself');
  });

  it('a server that never answers fails after the connect timeout, naming itself, and its process is ended', async () => {
    const marker = `mute-${randomUUID()}`;
    const m = manager({ mute: stdioServer('--never-answer', '--name', marker) }, { connectTimeoutMs: 700 });
    await m.start();
    await m.settled(5_000);
    const s = m.server('mute')!;
    assert.equal(s.state, 'failed');
    assert.match(s.status().detail, /MCP server "mute" did not finish starting within 1 s/);
    assert.deepEqual(await pidsWith(marker), []);
    await assert.rejects(s.call('echo', {}, { signal: signal(), timeoutMs: 1000 }), /did not finish starting/);
  });

  it('a call that never returns ends with Stop (the signal) or its timeout', async () => {
    const m = manager({ hang: stdioServer() });
    await m.settled(10_000);
    const s = m.server('hang')!;
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    await assert.rejects(s.call('hang', {}, { signal: stop.signal, timeoutMs: 60_000 }));
    await assert.rejects(s.call('hang', {}, { signal: signal(), timeoutMs: 200 }), /timed out|timeout/i);
    assert.equal(s.state, 'running', 'a slow tool does not take the server down');
  });

  it('a server that exits at start is failed with the tail of its log, and retried with backoff', async () => {
    const m = manager({ broken: stdioServer('--exit-at-start', '4') }, { retryDelaysMs: [30, 30] });
    await m.start();
    const s = m.server('broken')!;
    const seen: string[] = [];
    const sub = s.onDidChange(() => seen.push(s.state));
    await new Promise((r) => setTimeout(r, 3000));
    sub.dispose();
    assert.equal(s.state, 'failed');
    assert.ok(seen.filter((x) => x === 'starting').length >= 2, `it tried again: ${seen.join(' ')}`);
    assert.match(s.status().detail, /ended before it finished starting: the process exited with code 4/);
    assert.match(s.status().logTail ?? '', /cannot open the database/);
  });

  it('streamable HTTP works, and a 401 says the server needs credentials (no retry)', async () => {
    const open = await httpServer();
    const locked = await httpServer('--token', 'sesame');
    try {
      const m = manager({ web: { type: 'http', url: open.url }, locked: { type: 'http', url: locked.url }, keyed: { type: 'http', url: locked.url, headers: { Authorization: 'Bearer ${TL_TEST_TOKEN}' } } }, { env: { ...process.env, TL_TEST_TOKEN: 'sesame' } });
      await m.settled(10_000);
      const r = await m.server('web')!.call('add', { a: 2, b: 3 }, { signal: signal(), timeoutMs: 5000 });
      assert.deepEqual(r.content, [{ type: 'text', text: '5' }]);
      const l = m.server('locked')!;
      assert.equal(l.state, 'failed');
      assert.match(l.status().detail, /MCP server "locked" answered 401 Unauthorized: it needs credentials/);
      assert.doesNotMatch(l.status().detail, /trying again/);
      assert.equal(m.server('keyed')!.state, 'running', 'a header with the token gets in');
    } finally {
      open.close();
      locked.close();
    }
  });

  it('a changed tool list is read again', async () => {
    const m = manager({ grows: stdioServer('--list-changed-after', '300') });
    await m.settled(10_000);
    const s = m.server('grows')!;
    assert.ok(!s.tools.some((t) => t.name === 'late'));
    const deadline = Date.now() + 5000;
    while (!s.tools.some((t) => t.name === 'late') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(s.tools.some((t) => t.name === 'late'), 'the new tool is listed');
  });

  it('shutdown ends every server process, children of a wrapper shell included', async () => {
    const marker = `tree-${randomUUID()}`;
    const [node, script] = stdioServer().args.length ? [process.execPath, stdioServer().args[0]!] : [];
    const m = manager({ wrapped: { command: '/bin/sh', args: ['-c', `"${node}" "${script}" --name ${marker}`] }, direct: stdioServer('--name', marker) });
    await m.settled(10_000);
    assert.equal(m.server('wrapped')!.state, 'running');
    assert.ok((await pidsWith(marker)).length >= 2);
    await m.shutdown();
    assert.deepEqual(await pidsWith(marker), []);
  });

  it('a server stopped while it is still starting ends at once, not when its start would have finished', async () => {
    const marker = `starting-${randomUUID()}`;
    const m = manager({ slow: stdioServer('--name', marker, '--slow-start', '5000') });
    await m.start();
    const deadline = Date.now() + 5000;
    while (!(await pidsWith(marker)).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok((await pidsWith(marker)).length, 'the process was spawned');
    const t0 = Date.now();
    await m.shutdown();
    assert.deepEqual(await pidsWith(marker), []);
    assert.ok(Date.now() - t0 < 3000, `shutdown took ${Date.now() - t0} ms`);
  });

  it('a session that ends while the config is still being read starts no server afterwards', async () => {
    const marker = `late-${randomUUID()}`;
    const servers = { a: stdioServer('--name', marker) };
    const m = manager(servers, { readConfig: async () => (await new Promise((r) => setTimeout(r, 300)), config(servers)) });
    void m.start();
    await new Promise((r) => setTimeout(r, 50));
    await m.shutdown();
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(await pidsWith(marker), []);
    assert.deepEqual(m.servers(), []);
  });
});
