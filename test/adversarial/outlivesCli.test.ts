// "Nothing the CLI started outlives it": a Bash command that detaches a process from its process
// group (setsid), lets its parent exit first (a double fork, nohup in a shell that returns), or
// daemonises in full (fork, setsid, fork, closed descriptors, cleared environment, another
// folder) must not leave that process running once the CLI has exited, or has been killed.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { liveProcesses } from '../support/processes';
import { useCli } from '../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

/** Live processes whose command line is `sleep <seconds>` (the program by any path). */
function sleeping(seconds: string): number[] {
  return liveProcesses((argv) => argv.length === 2 && argv[0]!.split('/').at(-1) === 'sleep' && argv[1] === seconds);
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
  ['setsid with a cleared environment in another folder', (s) => `cd /tmp && setsid env -i /bin/sleep ${s} >/dev/null 2>&1 < /dev/null & echo started`],
  ['a daemon: fork, setsid, fork, descriptors closed', (s) => `perl -MPOSIX -e 'fork and exit; POSIX::setsid(); fork and exit; chdir "/tmp"; close STDIN; close STDOUT; close STDERR; %ENV = (); exec "sleep", "${s}"'; echo started`],
  ['setsid inside bash -c inside nohup', (s) => `nohup bash -c 'setsid sleep ${s} &' >/dev/null 2>&1; echo started`],
];

describe('processes a Bash command detached do not outlive the CLI', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  const { standin, start: startCli } = useCli();

  function start(command: string) {
    const cwd = tmp('tl-detach-');
    standin.reset();
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command } }] }, { content: [{ type: 'text', text: 'Started it.' }] });
    // Trusted for the run: untrusted, setsid, nohup and perl would be refused before they start.
    return startCli(['-p', 'start it', '--allowed-tools', 'Bash', '--trust'], { cwd });
  }

  for (const [k, [name, command]] of DETACHING.entries()) {
    it(`${name}: ended when the CLI exits`, async () => {
      const seconds = `${4000 + k}.${process.pid % 1000}`;
      const run = start(command(seconds));
      assert.equal(await run.exit, 0, run.err());
      // The tool result, not a refusal (which would quote the command's text).
      const result = JSON.stringify((standin.requests[1]?.body as { messages?: Array<{ content: unknown }> } | undefined)?.messages?.at(-1)?.content);
      assert.match(result, /started/, 'the command ran');
      assert.doesNotMatch(result, /"is_error":true/, result);
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
