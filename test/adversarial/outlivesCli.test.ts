// "Nothing the CLI started outlives it": a Bash command that detaches a process from its process
// group (setsid), lets its parent exit first (a double fork, nohup in a shell that returns), or
// daemonises in full (fork, setsid, fork, closed descriptors, cleared environment, another
// folder) must not leave that process running once the CLI has exited, or has been killed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startStandin, type Standin } from '../standin/server';
import { cliBundle } from '../support/cliBundle';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

/** Live processes whose command line is `sleep <seconds>` (the program by any path). */
function sleeping(seconds: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\u0000');
      if (argv[0]?.split('/').at(-1) !== 'sleep' || argv[1] !== seconds || argv.length !== 3) continue;
      if (readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z') continue;
      out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

// Each case sleeps for its own odd length, so a leftover is found by its command line wherever it went.
const DETACHING: Array<[string, (s: string) => string]> = [
  ['setsid in the background', (s) => `setsid sleep ${s} & echo started`],
  ['setsid --fork', (s) => `setsid -f sleep ${s}; echo started`],
  ['nohup in the background', (s) => `nohup sleep ${s} >/dev/null 2>&1 & echo started`],
  ['disown', (s) => `sleep ${s} >/dev/null 2>&1 & disown; echo started`],
  ['a subshell that returns first (double fork)', (s) => `( sleep ${s} >/dev/null 2>&1 & ); echo started`],
  ['setsid with a cleared environment in another folder', (s) => `cd / && setsid env -i /bin/sleep ${s} >/dev/null 2>&1 < /dev/null & echo started`],
  ['a daemon: fork, setsid, fork, descriptors closed', (s) => `perl -MPOSIX -e 'fork and exit; POSIX::setsid(); fork and exit; chdir "/"; close STDIN; close STDOUT; close STDERR; %ENV = (); exec "sleep", "${s}"'; echo started`],
  ['setsid inside bash -c inside nohup', (s) => `nohup bash -c 'setsid sleep ${s} &' >/dev/null 2>&1; echo started`],
];

describe('processes a Bash command detached do not outlive the CLI', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  let standin: Standin;
  let cli: string;
  before(async () => {
    standin = await startStandin();
    cli = await cliBundle();
  });
  after(() => standin.close());

  function start(command: string) {
    const cwd = tmp('tl-detach-');
    standin.reset();
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command } }] }, { content: [{ type: 'text', text: 'Started it.' }] });
    const p = spawn(process.execPath, [cli, '-p', 'start it', '--allowed-tools', 'Bash', '--cwd', cwd], {
      env: { PATH: process.env.PATH, HOME: tmp('tl-home-'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: tmp('tl-state-'), THREADLINE_AUTO_MEMORY: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exit = new Promise<number | null>((resolve) => p.once('close', (code) => resolve(code)));
    return { p, exit, err: () => err };
  }

  for (const [k, [name, command]] of DETACHING.entries()) {
    it(`${name}: ended when the CLI exits`, async () => {
      const seconds = `${4000 + k}.${process.pid % 1000}`;
      const run = start(command(seconds));
      assert.equal(await run.exit, 0, run.err());
      assert.match(JSON.stringify(standin.requests[1]?.body), /started/, 'the command ran');
      const gone = await waitFor(() => sleeping(seconds).length === 0, 5000);
      for (const pid of sleeping(seconds)) process.kill(pid, 'SIGKILL');
      assert.ok(gone, `sleep ${seconds} outlived the CLI`);
    });
  }

  it('ended when the CLI is killed with SIGKILL while the command runs', async () => {
    const detached = `4100.${process.pid % 1000}`;
    const foreground = `4101.${process.pid % 1000}`;
    const run = start(`setsid -f sleep ${detached}; sleep ${foreground}`);
    const started = await waitFor(() => sleeping(detached).length > 0 && sleeping(foreground).length > 0, 15_000);
    run.p.kill('SIGKILL');
    await run.exit;
    assert.equal(standin.discardScript(), 1, 'the kill came before the answer was asked for');
    const gone = await waitFor(() => sleeping(detached).length === 0 && sleeping(foreground).length === 0, 5000);
    for (const pid of [...sleeping(detached), ...sleeping(foreground)]) process.kill(pid, 'SIGKILL');
    assert.ok(started, 'the command ran');
    assert.ok(gone, 'a process of the command outlived the killed CLI');
  });
});
