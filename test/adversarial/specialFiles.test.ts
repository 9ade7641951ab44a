// Finding 12: Edit opens whatever the path names. Read refuses anything but a regular file; Edit
// only refuses folders, so on a FIFO its readFile waits for a writer forever, in a thread of
// libuv's pool that Stop cannot reach.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

let standin: Standin;
const fifos: string[] = [];
before(async () => {
  standin = await startStandin();
});
after(async () => {
  // A reader stuck on a FIFO keeps this process alive: give it its end of file.
  for (const f of fifos) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader left
    }
  }
  await standin.close();
});

describe('finding 12: Edit on a FIFO hangs, and Stop does not end it', () => {
  it('the turn ends within seconds of Stop', { todo: 'finding 12: Edit reads non-regular files (FIFO: hangs; /dev/zero: reads until out of memory)' }, async () => {
    const cwd = tempDir('fifo');
    mkdirSync(join(cwd, 'src'));
    const fifo = join(cwd, 'src', 'generated.ts');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, rules: { allow: ['Edit'] } });
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'src/generated.ts', old_string: 'old', new_string: 'new' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = agent.submit('fix generated.ts');
    // Stop once the Edit is running (as a user would, seeing it take long).
    const running = () => store.getState().messages.some((m) => m.kind === 'tool' && m.status === 'running');
    for (let i = 0; i < 200 && !running(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(running(), 'the Edit started');
    await new Promise((r) => setTimeout(r, 500));
    agent.stop();
    const ended = await Promise.race([turn.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000).unref())]);
    assert.equal(ended, true, `the turn was still running 5 s after Stop (status ${store.getState().status})`);
  });
});
