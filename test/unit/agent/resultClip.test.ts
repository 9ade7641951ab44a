import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clipResult } from '../../../src/agent/resultClip';

describe('clipResult', () => {
  it('leaves a short result alone', () => {
    assert.equal(clipResult('ok\nExit code 1', 100), 'ok\nExit code 1');
  });

  it("keeps the end of a long result, where Bash's exit code is", () => {
    const body = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const out = clipResult(`${body}\n\nExit code 2`, 2000);
    assert.match(out, /Exit code 2$/);
    assert.match(out, /^line 0\n/);
    assert.ok(out.length < 2100, `clipped to about the limit (${out.length})`);
    const omitted = Number(/… \((\d+) characters left out\) …/.exec(out)?.[1]);
    assert.equal(out.length - out.match(/\n… \(\d+ characters left out\) …\n/)![0].length + omitted, body.length + '\n\nExit code 2'.length, 'the count says exactly what is missing');
  });

  it('never splits a surrogate pair', () => {
    const out = clipResult('😀'.repeat(1000), 101);
    assert.doesNotMatch(out, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('a long Bash result in its card', () => {
  it('still ends with the exit code', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { startStandin } = await import('../../standin/server');
    const { createStandinAgent } = await import('../../support/standinAgent');
    const standin = await startStandin();
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'tl-clip-'));
      const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'standin-test-model' }, rules: { allow: ['Bash'] } });
      standin.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'seq 1 20000; exit 3' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      );
      await agent.submit('run it');
      const card = store.getState().messages.find((m) => m.kind === 'tool');
      assert.ok(card?.kind === 'tool' && card.result !== undefined, 'the card has a result');
      assert.ok(card.result.length < 25_000, 'clipped for the panel');
      assert.match(card.result, /Exit code 3$/);
    } finally {
      await standin.close();
    }
  });
});
