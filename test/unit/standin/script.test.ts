// A scripted turn no request matched is an error: the test either scripted a request the code
// no longer makes, or the code stopped making one it should. It fails the test that left it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { startStandin, UnmatchedScriptError } from '../../standin/server';
import { rejection } from '../../support/rejection';

const MODEL = 'claude-sonnet-4-6';
const ask = (url: string, text: string) => new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 }).messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: text }] });

describe('scripted turns no request matched', () => {
  it('reset throws, naming each unmatched turn, and still resets', async () => {
    const s = await startStandin();
    try {
      s.enqueue({ content: [{ type: 'text', text: 'used' }] }, { content: [{ type: 'text', text: 'never asked for' }] }, { when: 'summary', content: [{ type: 'tool_use', name: 'Read', input: {} }] });
      await ask(s.url, 'hi');
      assert.throws(() => s.reset(), (e: unknown) => e instanceof UnmatchedScriptError && /2 scripted turns no request matched: "never asked for"; a Read call, when "summary"/.test(e.message));
      assert.equal(s.pending(), 0);
      assert.equal(s.requests.length, 0);
      s.reset();
    } finally {
      await s.close();
    }
  });

  it('close rejects with them once the server is closed; a repeat turn counts once a request matched it', async () => {
    const s = await startStandin();
    s.enqueue({ content: [{ type: 'text', text: 'every time' }], repeat: true }, { when: 'never', content: [{ type: 'text', text: 'waiting' }], repeat: true });
    await ask(s.url, 'one');
    await ask(s.url, 'two');
    const err = await rejection(s.close());
    assert.ok(err instanceof UnmatchedScriptError);
    assert.match(err.message, /^1 scripted turn no request matched: "waiting", when "never", repeat$/);
    await assert.rejects(ask(s.url, 'closed?'), 'the server is closed all the same');
  });

  it('discardScript forgets what a script cut short on purpose leaves, and says how much', async () => {
    const s = await startStandin();
    s.enqueue({ content: [{ type: 'text', text: 'step 1' }] }, { content: [{ type: 'text', text: 'step 2' }] });
    await ask(s.url, 'go');
    assert.equal(s.discardScript(), 1);
    await s.close();
  });

  it('the control endpoint answers a reset that found unmatched turns with 409 and the turns', async () => {
    const s = await startStandin();
    try {
      s.enqueue({ content: [{ type: 'text', text: 'left over' }] });
      const r = await fetch(`${s.url}/_standin/reset`, { method: 'POST' });
      assert.equal(r.status, 409);
      assert.match(JSON.stringify(await r.json()), /1 scripted turn no request matched: \\"left over\\"/);
      assert.equal(s.pending(), 0, 'the reset happened');
    } finally {
      await s.close();
    }
  });

  it('fails the test (through useStandin) that left a turn no request matched, not the next one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-script-'));
    const file = join(dir, 'leftover.test.ts');
    const support = join(__dirname, '..', '..', 'support', 'useStandin.ts');
    writeFileSync(
      file,
      [
        `import { it } from 'node:test';`,
        `import { useStandin } from ${JSON.stringify(support)};`,
        `const standin = useStandin();`,
        `it('leaves a turn', () => { standin.enqueue({ content: [{ type: 'text', text: 'nobody asks' }] }); });`,
        `it('queues nothing', () => {});`,
      ].join('\n'),
    );
    // A test run of its own, not a child of this one (node:test skips nested runs).
    const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], { encoding: 'utf8', cwd: join(__dirname, '..', '..', '..'), env });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /✖ leaves a turn/);
    assert.match(r.stdout, /1 scripted turn no request matched: "nobody asks"/);
    assert.match(r.stdout, /✔ queues nothing/);
  });
});
