// Pass 38 C5 (low): a clone's 1 MB .mcp.json of 44,000 tiny servers held every start for 75 s,
// each name checked against every kept one. A file's servers past the first 200 are ignored, in
// one problem line. Run in a child with a deadline far beyond its cost (runBounded).
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runBounded } from '../support/bounded';

describe('pass 38 C5: an .mcp.json of 30,000 servers', () => {
  it('is read to its first 200 servers, with one line for the rest', () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tl-mcpmany-')));
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'tl-mcpmany-home-')));
    const mcpServers = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`s${i}`, { command: 'x' }]));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers }));
    const out = runBounded(`
      const { readMcpConfig } = await load('mcp/config/sources.ts');
      const r = await readMcpConfig({ cwd: ${JSON.stringify(cwd)}, home: ${JSON.stringify(home)}, env: {} });
      console.log(JSON.stringify({ servers: r.servers.length, problems: r.problems.map((p) => p.message) }));
    `, 30_000);
    const r = JSON.parse(out) as { servers: number; problems: string[] };
    assert.equal(r.servers, 200);
    assert.deepEqual(r.problems, ['29800 servers after the first 200 are ignored']);
  });
});
