// The model picker and thinking as a user meets them: real VS Code, the real SDK in the
// extension host, the stand-in's Models API (its default catalog: Sonnet 5.5 with a 1M window,
// Haiku 4.5 with 200k) and thinking streams.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

describe('choosing the model and seeing it think, in real VS Code', { timeout: 300_000 }, () => {
  let env;
  let standin;
  let wb;

  before(async () => {
    ({ env, standin, wb } = await openPanel({ settings: { 'threadline.model': 'sonnet' } }));
  });

  after(() => env?.close());

  const send = (text) => wb.send(text);
  const statusText = () => wb.statusItem().innerText();
  const modelButton = () => wb.chatFrame().locator('[data-testid="model-button"]');

  it('the header names the model; the status bar tooltip gives the full id the alias resolved to', async () => {
    // The alias resolves through the stand-in's Models API to the newest Sonnet and its 1M window.
    await eventually(() => modelButton().innerText(), (t) => t.includes('Sonnet 5.5'), { what: 'the header to show the resolved model' });
    assert.equal(await modelButton().getAttribute('data-model-id'), 'claude-sonnet-5-5');
    assert.match(await modelButton().getAttribute('title'), /Claude Sonnet 5\.5 \(claude-sonnet-5-5\), 1M window; thinking on/);
    await eventually(statusText, (t) => /\/ 1M \(/.test(t), { what: 'the status bar to show the 1M window' });
    await wb.statusItem().hover();
    const hover = env.browser.contexts()[0].pages()[0].locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Threadline context' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const tip = await hover.innerText();
    assert.match(tip, /claude-sonnet-5-5/, 'the full resolved id');
    assert.match(tip, /setting: sonnet/, 'and the alias it came from');
  });

  it('switching from the header keeps the conversation, and the status bar shows the new window at once', async () => {
    const page = env.browser.contexts()[0].pages()[0];
    await standin.enqueue([{ content: [{ type: 'text', text: 'First answer, from Sonnet.' }] }]);
    await send('Hello there');
    const frame = wb.chatFrame();
    await frame.locator('text=First answer, from Sonnet.').waitFor();
    await modelButton().click();
    const picker = page.locator('.quick-input-widget');
    await picker.waitFor();
    const filter = page.locator('.quick-input-widget input');
    const row = (text) => page.locator('.quick-input-list .monaco-list-row', { hasText: text });
    await filter.fill('claude-sonnet-4-5');
    await eventually(() => row('claude-sonnet-4-5-20250929').first().innerText(), (t) => t.includes('Deprecated: retires on 2026-11-30'), { what: 'a deprecated model marked with its retirement date' });
    await filter.fill('claude-opus-4-1');
    await eventually(() => row('claude-opus-4-1').count(), (n) => n === 0, { what: 'a retired model to be hidden' });
    await filter.fill('claude-haiku-4-5');
    await row('claude-haiku-4-5-20251001').first().click();
    await eventually(statusText, (t) => /\/ 200k \(/.test(t), { what: 'the status bar to show the 200k window' });
    await eventually(() => modelButton().innerText(), (t) => t.includes('Haiku 4.5'), { what: 'the header to follow' });
    // The conversation is still there, and the next request goes to the new model with it.
    assert.equal(await frame.locator('text=First answer, from Sonnet.').count(), 1);
    await standin.enqueue([{ content: [{ type: 'text', text: 'Second answer, from Haiku.' }] }]);
    await send('And now?');
    await frame.locator('text=Second answer, from Haiku.').waitFor();
    const last = (await standin.requests()).filter((r) => r.path.startsWith('/v1/messages') && !r.path.includes('count_tokens')).at(-1);
    assert.equal(last.body.model, 'claude-haiku-4-5-20251001');
    assert.ok(JSON.stringify(last.body.messages).includes('First answer, from Sonnet.'), 'the conversation went with it');
    assert.equal(last.validationError, null);
    // The choice is the user's setting now.
    const saved = JSON.parse(readFileSync(join(env.server.dirs.userData, 'User', 'settings.json'), 'utf8'));
    assert.equal(saved['threadline.model'], 'claude-haiku-4-5-20251001');
  });

  it('/model NAME in the composer switches too', async () => {
    await send('/model opus');
    await eventually(() => modelButton().innerText(), (t) => t.includes('Opus 5.5'), { what: 'the header to show Opus' });
    await eventually(statusText, (t) => /\/ 1M \(/.test(t), { what: 'the status bar to show the 1M window' });
  });

  it('a thinking answer shows a collapsed Thinking section above the text', async () => {
    await standin.enqueue([{ content: [{ type: 'thinking', thinking: 'The user wants a short greeting. Keep it brief.' }, { type: 'text', text: 'Hi! Brief, as promised.' }] }]);
    await send('Greet me, briefly');
    const frame = wb.chatFrame();
    const answer = frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Brief, as promised.' });
    await answer.waitFor();
    const thinking = answer.locator('[data-testid="thinking"]');
    assert.equal(await thinking.count(), 1);
    assert.equal(await thinking.evaluate((d) => d.open), false, 'collapsed');
    assert.equal((await thinking.locator('summary').innerText()).trim(), 'Thinking');
    assert.equal(await thinking.locator('.thinking-text').isVisible(), false);
    await thinking.locator('summary').click();
    await eventually(() => thinking.locator('.thinking-text').innerText(), (t) => t.includes('Keep it brief.'), { what: 'the thinking to show when opened' });
    const last = (await standin.requests()).filter((r) => r.path.startsWith('/v1/messages') && !r.path.includes('count_tokens')).at(-1);
    assert.equal(last.body.thinking?.type, 'adaptive');
    await wb.screenshot('models-thinking');
  });

  it('a new apiBaseUrl brings that endpoint’s models; a switch to a window the conversation no longer fits offers Compact first', async () => {
    const page = env.browser.contexts()[0].pages()[0];
    const model = (id, display, line, window) => ({ type: 'model', id, display_name: display, created_at: '2026-09-22T00:00:00Z', lifecycle: 'active', line, max_input_tokens: window, max_tokens: 8_000 });
    await standin.setModels([model('claude-opus-5-5', 'Claude Opus 5.5 via proxy', 'opus', 1_000_000), model('claude-tiny-1', 'Claude Tiny 1', null, 32_000)]);
    // The same stand-in written another way is another endpoint to Threadline: its list is fetched.
    // Set as a user does, in the Settings editor.
    await (await wb.openPalette()).fill('>workbench.action.openSettings2');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
    await page.keyboard.press('Enter');
    // The editor opens with its search box focused.
    await page.locator('.settings-editor .settings-body').waitFor({ timeout: 30_000 });
    await page.keyboard.type('threadline.apiBaseUrl');
    const box = page.locator('.settings-editor .setting-item-contents', { hasText: 'Api Base Url' }).locator('input').first();
    await box.waitFor({ timeout: 30_000 }).catch(async (e) => {
      await wb.screenshot('models-settings-box');
      throw e;
    });
    await box.fill(`${standin.url}/`);
    await box.press('Tab');
    // The setting is saved (debounced), the catalog of the new endpoint is fetched, the header follows.
    await eventually(() => modelButton().innerText(), (t) => t.includes('via proxy'), { what: 'the header to show the new endpoint’s name for the model' });
    // Close the Settings editor with the X of the modal it opens in (VS Code's default,
    // workbench.editor.useModal "some"): the modal takes the keyboard, so F1 opens no palette
    // while it is up (CI, three times), and Escape only clears its search box.
    const header = page.locator('.modal-editor-part .modal-editor-header');
    await header
      .locator('[aria-label^="Close"]')
      .first()
      .click({ timeout: 30_000 })
      .catch(async (e) => {
        throw new Error(`no Close in the modal's header: ${(await header.first().innerHTML().catch(() => 'no modal header')).slice(0, 1500)}`, { cause: e });
      });
    await eventually(() => page.locator('.settings-editor').isVisible(), (v) => v === false, { what: 'the Settings editor to close' });
    // About 40k tokens of conversation: more than a 32k window holds.
    await standin.enqueue([{ content: [{ type: 'text', text: 'Read it all.' }] }]);
    await send(`Please remember this: ${'the quick brown fox jumps over the lazy dog '.repeat(3600)}`);
    const frame = wb.chatFrame();
    await frame
      .locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Read it all.' })
      .waitFor({ state: 'attached', timeout: 60_000 })
      .catch(async (e) => {
        await wb.screenshot('models-big-message');
        throw e;
      });
    await standin.enqueue([{ content: [{ type: 'text', text: '<summary>The user asked me to remember a long text about a fox.</summary>' }] }]);
    await send('/model claude-tiny-1');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /no longer fits Claude Tiny 1's 32k window/);
    await dialog.locator('.monaco-button', { hasText: 'Compact, then Switch' }).click();
    await frame.locator('[data-testid="message"][data-kind="compaction"]').first().waitFor({ timeout: 60_000 });
    await eventually(statusText, (t) => /\/ 32k \(/.test(t), { what: 'the status bar to show the 32k window' });
    await eventually(() => modelButton().innerText(), (t) => t.includes('Tiny 1'), { what: 'the header to show the new model' });
    const summarising = (await standin.requests()).filter((r) => r.path.startsWith('/v1/messages') && !r.path.includes('count_tokens')).at(-1);
    assert.equal(summarising.body.model, 'claude-opus-5-5', 'compacted by the model whose window still held the conversation');
    const figure = /([\d.]+)(k?) \//.exec(await statusText());
    const used = Number(figure?.[1]) * (figure?.[2] ? 1000 : 1);
    assert.ok(used < 32_000, `the compacted conversation fits (${await statusText()})`);
  });
});
