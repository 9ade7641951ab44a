// The Messages API stand-in as a separate process, scripted over its control endpoints, so
// the extension host in code-server talks to it over real HTTP like it would to Anthropic.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../scripts/codeServer.mjs';

export async function startStandinProcess(args = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'standin', 'cli.ts'), '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (b) => {
    log = (log + b.toString()).slice(-20_000);
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (b) => {
      out += b.toString();
      const m = /READY (http:\/\/\S+)/.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the stand-in exited with ${code} before it was ready:\n${log}`)));
  });
  const control = async (path, init) => {
    let r;
    try {
      r = await fetch(`${url}/_standin/${path}`, init);
    } catch (err) {
      // A kept-alive socket the stand-in closed while the test blocked (spawnSync of the CLI for
      // longer than its keep-alive timeout) fails at once, before the request is read: once more.
      if (err?.cause?.code !== 'UND_ERR_SOCKET') throw err;
      r = await fetch(`${url}/_standin/${path}`, init);
    }
    if (!r.ok) throw new Error(`stand-in ${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  return {
    url,
    log: () => log,
    enqueue: (turns) => control('enqueue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(turns) }),
    requests: () => control('requests'),
    reset: () => control('reset', { method: 'POST' }),
    /** The Models API catalog from now on (ModelInfo objects), or null for a server without one. */
    setModels: (models) => control('models', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(models) }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
