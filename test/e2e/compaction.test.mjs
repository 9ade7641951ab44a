// Token tracking and compaction as the user sees them: the status bar turning to the warning
// colour, automatic compaction with its divider and summary, and Undo.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

// A 60k window: below 200k the buffers scale with the window, so effective 54k, warning from
// 48k, auto-compact at 50.1k, blocking at 53.1k. The first log (~49k with the system prompt)
// lands between warning and auto-compact; the second pushes past it.
const WINDOW = 60_000;
const FIRST_LOG_LINES = 3380;
const bulk = (n) => Array.from({ length: n }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');

describe('token tracking and compaction in real VS Code', { timeout: 300_000 }, () => {
  let env;
  let standin;
  let wb;

  before(async () => {
    ({ env, standin, wb } = await openPanel({ settings: { 'threadline.model': 'standin-test-model', 'threadline.contextWindow': WINDOW } }));
  });

  after(() => env?.close());

  const send = (text) => wb.send(text);
  const statusItem = () => wb.page.locator('.statusbar-item', { has: wb.page.locator('[aria-label^="Threadline context"]') }).first();

  it('turns the status bar to the warning colour past the warning threshold', async () => {
    await standin.enqueue([{ content: [{ type: 'text', text: 'Got the first log.' }] }]);
    await send(`Here is a log, keep it in mind:\n${bulk(FIRST_LOG_LINES)}`);
    await wb.chatFrame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Got the first log.' }).waitFor();
    await eventually(() => statusItem().getAttribute('class'), (c) => /warning-kind/.test(c ?? ''), { what: 'the warning colour on the status bar item' });
    assert.match(await statusItem().innerText(), /\/ 60k/);
    await wb.screenshot('30-status-warning');
  });

  it('compacts automatically past the threshold, shows the divider with the summary, and Undo restores', async () => {
    await standin.enqueue([
      { content: [{ type: 'text', text: '<analysis>draft</analysis><summary>1. Primary request: keep two logs in mind.\n8. Current work: reading logs.</summary>' }] },
      { content: [{ type: 'text', text: 'Got the second log too.' }] },
    ]);
    await send(`And a second log:\n${bulk(700)}`);
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Got the second log too.' }).waitFor().catch(async (e) => {
      await wb.screenshot('31-compaction-failed');
      throw new Error(`${e.message}\nrequests: ${JSON.stringify((await standin.requests()).map((r) => [r.status, r.validationError, r.body.messages?.length]))}`);
    });
    const divider = frame.locator('[data-testid="message"][data-kind="compaction"]');
    await divider.waitFor();
    assert.match(await divider.innerText(), /Compacted: .+ → .+ tokens/);
    // The summary request asked for the nine sections, and the next request started from the summary.
    const reqs = await standin.requests();
    const summaryReq = reqs.at(-2).body;
    assert.match(JSON.stringify(summaryReq.messages.at(-1)), /Primary request and intent/);
    const after = reqs.at(-1).body;
    assert.match(JSON.stringify(after.messages[0]), /Conversation compacted/);
    assert.doesNotMatch(JSON.stringify(after.messages), new RegExp(`line ${FIRST_LOG_LINES - 1}: the quick brown fox`), 'the first log is gone from the request');
    await divider.locator('button.divider').click();
    await divider.locator('text=keep two logs in mind').waitFor();
    await wb.screenshot('31-compacted');
    // The transcript from before the compaction opens read-only.
    await divider.locator('[data-testid="compaction-archive"]').click();
    await wb.page.locator('.view-lines', { hasText: 'Conversation before compaction' }).first().waitFor();
    await wb.page.locator('.view-lines', { hasText: 'Here is a log, keep it in mind' }).first().waitFor();
    // Its tab is named after the session and the date, not the archive's file id.
    const tab = await wb.page.locator('.tabs-container .tab.active').innerText();
    assert.match(tab, / — archived \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    assert.doesNotMatch(tab, /jsonl/);
    // The status bar fell back below the warning threshold.
    await eventually(() => statusItem().getAttribute('class'), (c) => !/warning-kind|error-kind/.test(c ?? ''), { what: 'the status bar to leave the warning colour' });
  });

  it('/compact in the chat compacts by hand with a focus', async () => {
    await standin.enqueue([{ content: [{ type: 'text', text: '<summary>Focused summary about the logs.</summary>' }] }]);
    await send('/compact the logs');
    const frame = wb.chatFrame();
    await eventually(() => frame.locator('[data-testid="message"][data-kind="compaction"]').count(), (n) => n === 2, { what: 'a second compaction divider' });
    const ask = JSON.stringify((await standin.requests()).at(-1).body.messages.at(-1));
    assert.match(ask, /focus on: the logs/);
    const latest = frame.locator('[data-testid="message"][data-kind="compaction"]').last();
    // Undo is on the folded divider itself, as the compact prompt promises.
    assert.equal(await latest.locator('button.divider').getAttribute('aria-expanded'), 'false');
    await latest.locator('[data-testid="compaction-undo"]').click();
    await frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: 'Restored the conversation' }).waitFor();
    await standin.enqueue([{ content: [{ type: 'text', text: 'Still here.' }] }]);
    await send('Are you there?');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Still here.' }).waitFor();
    const sent = JSON.stringify((await standin.requests()).at(-1).body.messages);
    assert.match(sent, /Got the second log too\./, 'after Undo the request carries the history from before the manual compaction');
  });
});
