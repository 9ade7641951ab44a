// Pass 31, F1 (critical): a compaction puts back the files the model read lately, and it read
// them again with no check. A Read that was refused still counted as read, so the model asked for
// ~/.ssh/id_rsa, was refused, asked for a compaction, and got the key in the next request. The
// same held for a file read once inside the workspace and swapped for a link since. A file is
// now noted only once its Read ran, and read back only when a Read of it would run now.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

let standin: Standin;
before(async () => {
  standin = await startStandin();
});
after(() => standin.close());
beforeEach(() => standin.reset());

const SECRET = 'SECRET-KEY-0f3a9c';

function place() {
  const root = tempDir('rereads');
  const cwd = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(cwd);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${SECRET}\n`);
  return { cwd, secret: join(home, '.ssh', 'id_rsa') };
}

const sent = () => JSON.stringify(standin.requests.map((r) => r.body));

describe('pass 31 F1: what a compaction reads back', () => {
  it('a Read that was refused is not read back by the compaction', async () => {
    const { cwd, secret } = place();
    const { agent } = createStandinAgent({ url: standin.url, cwd, headless: true });
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: secret } }] },
      { content: [{ type: 'tool_use', name: 'Compact', input: { focus: 'the plan' } }] },
      { when: 'about to be replaced', content: [{ type: 'text', text: '<summary>Tried to read a key.</summary>' }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await agent.submit('go');
    assert.ok(standin.requests.length >= 3, `the compaction ran (${standin.requests.length} requests)`);
    assert.doesNotMatch(sent(), new RegExp(SECRET), 'the refused file reached a request');
  });

  it('a file read inside the workspace and then swapped for a link leading out is not read back', async () => {
    const { cwd, secret } = place();
    writeFileSync(join(cwd, 'notes.txt'), 'plain notes\n');
    const { agent } = createStandinAgent({ url: standin.url, cwd, headless: true });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'notes.txt' } }] }, { content: [{ type: 'text', text: 'read it' }] });
    await agent.submit('read the notes');
    rmSync(join(cwd, 'notes.txt'));
    symlinkSync(secret, join(cwd, 'notes.txt'));
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Compact', input: {} }] },
      { when: 'about to be replaced', content: [{ type: 'text', text: '<summary>Read the notes.</summary>' }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await agent.submit('compact now');
    assert.match(sent(), /plain notes/, 'the first read happened');
    assert.doesNotMatch(sent(), new RegExp(SECRET), 'the file behind the new link reached a request');
  });

  it('a file still readable is read back as before', async () => {
    const { cwd } = place();
    writeFileSync(join(cwd, 'plan.md'), 'THE-PLAN-7d1\n');
    const { agent } = createStandinAgent({ url: standin.url, cwd, headless: true });
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'plan.md' } }] },
      { content: [{ type: 'tool_use', name: 'Compact', input: {} }] },
      { when: 'about to be replaced', content: [{ type: 'text', text: '<summary>Read the plan.</summary>' }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await agent.submit('go');
    const last = JSON.stringify(standin.requests.at(-1)!.body);
    assert.match(last, /THE-PLAN-7d1/, 'the plan was put back after the summary');
  });
});
