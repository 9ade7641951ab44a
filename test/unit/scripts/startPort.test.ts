import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error plain ESM script without types
import { choosePort } from '../../../scripts/startPort.mjs';
// @ts-expect-error plain ESM script without types
import { cleanEnv } from '../../../scripts/childEnv.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Any HTTP server holding a port, as an older `npm start` would. */
async function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end('someone else'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('npm start and a port that is taken', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  it('PORT naming a taken port is refused with what to do', async () => {
    const { server, port } = await occupy();
    servers.push(server);
    await assert.rejects(choosePort({ PORT: String(port) }), (err: Error) => {
      assert.match(err.message, new RegExp(`port ${port} is already in use`));
      assert.match(err.message, /PORT=\d+ npm start/);
      return true;
    });
  });

  it('PORT that is not a port number is refused', async () => {
    await assert.rejects(choosePort({ PORT: '80x' }), /PORT must be a port number/);
    await assert.rejects(choosePort({ PORT: '70000' }), /PORT must be a port number/);
  });

  it('without PORT, a taken default port gives another free port and says which', async () => {
    const { server, port } = await occupy();
    servers.push(server);
    const chosen = (await choosePort({}, { defaultPort: port })) as { port: number; note?: string };
    assert.notEqual(chosen.port, port);
    assert.match(chosen.note ?? '', new RegExp(`Port ${port} is in use.*port ${chosen.port}\\.`));
    // And the port it names is one we can take.
    const check = createServer();
    await new Promise<void>((r, j) => check.once('error', j).listen(chosen.port, '127.0.0.1', r));
    check.close();
  });

  it('without PORT and a free default port, that port and no note', async () => {
    const { server, port } = await occupy();
    await new Promise((r) => server.close(r));
    assert.deepEqual(await choosePort({}, { defaultPort: port }), { port });
  });

  it('the real `npm start` script exits 1 at once on a taken PORT, before building anything', async () => {
    const { server, port } = await occupy();
    servers.push(server);
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env: cleanEnv({ PORT: String(port) }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    // Packaging takes a minute: a script that got that far did not refuse.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    clearTimeout(killer);
    assert.equal(code, 1, `exit code; output:\n${out}`);
    assert.match(out, new RegExp(`port ${port} is already in use`));
    assert.doesNotMatch(out, /building|is running/);
  });
});
