import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gitPreImages } from '../../../src/checkpoints/git';
import { SessionCheckpoints } from '../../../src/checkpoints/sessionCheckpoints';
import { repo, sleep, tmp } from './workspace';

describe("a session's checkpoints", () => {
  it('runs Bash commands one at a time, so each is compared with the workspace as it was just before it', async () => {
    const ws = await repo({ 'a.txt': 'a\n' });
    const cps = new SessionCheckpoints({ dir: join(tmp('tl-scp-'), 'cp'), workspace: ws, notify: () => undefined, watch: false, git: () => gitPreImages });
    await cps.begin('two commands at once', 'm1');
    const log: string[] = [];
    const command = (name: string, file: string) => async () => {
      log.push(`${name} start`);
      await sleep(50);
      writeFileSync(join(ws, file), `${name}\n`);
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([cps.bash(command('first', 'a.txt')), cps.bash(command('second', 'b.txt'))]);
    assert.deepEqual(results, ['first', 'second']);
    assert.deepEqual(log, ['first start', 'first end', 'second start', 'second end']);
    const store = (await cps.store())!;
    assert.deepEqual(store.ledger.changes.map((c) => [c.path.slice(ws.length + 1), c.by, c.before.k]), [
      ['a.txt', 'Bash', 'file'],
      ['b.txt', 'Bash', 'absent'],
    ]);
    cps.dispose();
  });

  it('a store that cannot be opened leaves the session working without checkpoints, and says so once', async () => {
    const ws = await repo({ 'a.txt': 'a\n' });
    const blocker = join(tmp('tl-scp-'), 'not-a-folder');
    writeFileSync(blocker, 'x');
    const told: string[] = [];
    const cps = new SessionCheckpoints({ dir: join(blocker, 'cp'), workspace: ws, notify: (t) => told.push(t), watch: false });
    await cps.begin('p', 'm1');
    const out = await cps.track(join(ws, 'a.txt'), 'Write', async () => {
      writeFileSync(join(ws, 'a.txt'), 'b\n');
      return 'written';
    });
    assert.equal(out, 'written');
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'b\n');
    assert.equal(told.length, 1);
    assert.match(told[0]!, /Code checkpoints are off for this session/);
    assert.deepEqual(await cps.list(), []);
    await assert.rejects(cps.plan('cp_x'), /code checkpoints are not available in this session/);
  });
});
