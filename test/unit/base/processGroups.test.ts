import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { killMarked, ownerMarker } from '../../../src/base/processGroups';
import { parseStatus } from '../../../src/base/subreaper';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('process clean-up', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  it('the owner marker finds a process that left its group and session, where no supervisor runs', async () => {
    const { name, value } = ownerMarker();
    // detached: a session and group of its own, so no group kill reaches it; only the marker does.
    const marked = spawn('sleep', ['300'], { env: { PATH: process.env.PATH, [name]: value }, stdio: 'ignore', detached: true });
    const unmarked = spawn('sleep', ['301'], { env: { PATH: process.env.PATH, [name]: 'someone-else' }, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 200));
    try {
      assert.ok(killMarked() >= 1);
      await new Promise((r) => marked.once('exit', r));
      assert.equal(marked.signalCode, 'SIGKILL');
      assert.ok(alive(unmarked.pid!), 'a process without this agent’s marker is left alone');
    } finally {
      unmarked.kill('SIGKILL');
      if (marked.exitCode === null && marked.signalCode === null) marked.kill('SIGKILL');
    }
  });

  it("reads the supervisor's status line", () => {
    assert.deepEqual(parseStatus('exit 3\n'), { code: 3, signal: null });
    assert.deepEqual(parseStatus('signal 9\n'), { code: null, signal: 'SIGKILL' });
    assert.equal(parseStatus('exit'), undefined);
  });
});
