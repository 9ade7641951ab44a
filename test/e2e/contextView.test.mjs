// The panel's Context view as a user meets it: opened from the header, drawn from a report the
// host builds when asked, and asked again after a reply. Real code-server, real Chromium, the
// real SDK against the stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

describe('the Context view in the panel', { timeout: 600_000 }, () => {
  let env;
  let wb;
  let frame;

  before(async () => {
    ({ env, wb, frame } = await openPanel());
  });
  after(() => env?.close());

  const messagesFigure = async () => {
    const row = frame.locator('[data-testid="context-category"][data-name="Messages"]');
    return (await row.count()) ? Number(await row.getAttribute('data-tokens')) : 0;
  };

  it('opens from the header, draws the categories and thresholds, and updates after a reply', async () => {
    await frame.locator('[data-testid="context-button"]').click();
    const view = frame.locator('[data-testid="context-view"]');
    await view.locator('[data-testid="context-category"]').first().waitFor();
    for (const t of ['warning', 'auto-compact', 'blocking']) assert.equal(await view.locator(`[data-testid="context-threshold-${t}"]`).count(), 1, `the ${t} threshold is marked`);
    assert.match(await view.locator('[data-testid="context-free"]').innerText(), /Free/);
    assert.match(await view.innerText(), /No response yet/);
    const before = await messagesFigure();
    await wb.screenshot('context-view-empty');

    await env.standin.enqueue([{ content: [{ type: 'text', text: 'Here is a long answer about the build. '.repeat(30) }] }]);
    const input = frame.locator('[data-testid="prompt-input"]');
    await input.fill('Tell me about the build of this project, in detail.');
    await input.press('Enter');
    // The view stays open while the answer comes; it asks again when the reply is in.
    const after = await eventually(messagesFigure, (n) => n > before, { what: 'the Messages figure to grow after the reply', timeout: 60_000 });
    assert.ok(after > before);
    await eventually(() => view.locator('[data-testid="context-usage"]').count(), (n) => n === 1, { what: "the last response's cache figures" });
    assert.match(await view.locator('[data-testid="context-usage"]').innerText(), /Read from cache[\s\S]*Written to cache[\s\S]*Uncached/);
    await wb.screenshot('context-view-after-reply');

    await frame.locator('[data-testid="context-close"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]').first().waitFor();
  });
});
