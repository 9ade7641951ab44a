import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { appendUserContent } from '../../../src/conversation/history';
import { cliSessionsDir } from '../../../src/sessions/paths';
import { SessionStore } from '../../../src/sessions/sessionStore';
import { validateRequest } from '../../standin/validate';
import { liveProcesses } from '../../support/processes';
import { useCli } from '../../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

/** Processes running `sleep 1000` in this folder (each test has its own). */
function sleepsIn(cwd: string): number[] {
  return liveProcesses((argv, dir) => argv.length === 2 && argv[0] === 'sleep' && argv[1] === '1000' && dir() === cwd);
}

async function waitFor<T>(check: () => T | undefined | false, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the CLI stopped by a signal', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  const { standin, start } = useCli();

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 1],
  ] as const) {
    it(`${signal} during a Bash command ends the command, saves the turn and exits ${code}`, async () => {
      standin.reset();
      const cwd = tmp('tl-sig-');
      const stateDir = tmp('tl-state-');
      // The signal ends the turn during the command: no request follows it, so none is scripted.
      standin.enqueue({ content: [{ type: 'text', text: 'Waiting.' }, { type: 'tool_use', id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 1000' } }] });
      const run = start(['-p', 'wait a while', '--allowed-tools', 'Bash', '--output-format', 'json'], { cwd, stateDir });
      const [sleep] = await waitFor(() => sleepsIn(cwd).length > 0 && sleepsIn(cwd));
      run.p.kill(signal);
      assert.equal(await run.exit, code, run.err());
      assert.equal(standin.requests.length, 1, 'nothing sent after the signal');
      await waitFor(() => sleepsIn(cwd).length === 0 || undefined, 5000).catch(() => assert.fail(`sleep ${sleep} outlived the CLI`));
      const result = JSON.parse(run.out()) as { is_error: boolean; session_id: string };
      assert.equal(result.is_error, true);
      const store = new SessionStore(cliSessionsDir(cwd, { THREADLINE_STATE_DIR: stateDir }));
      const s = await store.load(result.session_id);
      assert.match(JSON.stringify(s.history[0]), /wait a while/);
      assert.match(JSON.stringify(s.history[1]), /toolu_sleep/);
      assert.match(JSON.stringify(s.history[2]), /"tool_use_id":"toolu_sleep"/);
      assert.equal(validateRequest({ model: 'm', max_tokens: 5, messages: appendUserContent(s.history, [{ type: 'text', text: 'next' }]) }), null);
    });
  }

  it('a background job a Bash command left running ends when the CLI exits', async () => {
    standin.reset();
    const cwd = tmp('tl-bg-');
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 1000 & echo started' } }] }, { content: [{ type: 'text', text: 'Started it.' }] });
    const run = start(['-p', 'start something', '--allowed-tools', 'Bash'], { cwd });
    assert.equal(await run.exit, 0, run.err());
    assert.equal(run.out(), 'Started it.\n');
    assert.match(JSON.stringify(standin.requests[1]?.body), /started/, 'the command ran');
    await waitFor(() => sleepsIn(cwd).length === 0 || undefined, 5000).catch(() => assert.fail('the background job outlived the CLI'));
  });
});
