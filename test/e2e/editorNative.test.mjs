// The editor-native half of the chat, as a user meets it in real VS Code: retries that collapse
// into one passing line. Real code-server, real Chromium, the real SDK against the stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, openWorkbench, startEnvironment } from './harness.mjs';

describe('the editor-native chat in real VS Code', { timeout: 600_000 }, () => {
  let env;
  let wb;
  let frame;

  before(async () => {
    env = await startEnvironment();
    wb = await openWorkbench(env.browser, env.server.url);
    await wb.openThreadline();
    frame = wb.chatFrame();
  });
  after(() => env?.close());

  const send = async (text) => {
    const input = frame.locator('[data-testid="prompt-input"]');
    await input.fill(text);
    await input.press('Enter');
  };
  const kinds = () => frame.locator('[data-testid="message"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));

  it('collapses two 529s into one transient line, replaced by the answer', async () => {
    const overloaded = { content: [{ type: 'text', text: 'never sent' }], fault: { kind: 'http', status: 529, retryAfterSeconds: 2 } };
    await env.standin.enqueue([overloaded, overloaded, { content: [{ type: 'text', text: 'Answered after the retries.' }] }]);
    await send('retry me');
    const line = frame.locator('[data-testid="retry-line"]');
    await line.waitFor({ timeout: 30_000 });
    const text = await line.innerText();
    assert.match(text, /Overloaded/);
    assert.doesNotMatch(text, /[{}]/, 'no JSON in the line');
    await wb.screenshot('40-retry-line');
    await eventually(() => line.innerText(), (t) => /attempt 3/.test(t), { what: 'the second retry replacing the first' });
    assert.equal(await line.count(), 1, 'one line, not one per retry');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Answered after the retries.' }).waitFor({ timeout: 30_000 });
    await line.waitFor({ state: 'detached' });
    assert.deepEqual(await kinds(), ['user', 'assistant'], 'nothing of the retries stays in the transcript');
    await wb.screenshot('41-retry-answered');
  });
});
