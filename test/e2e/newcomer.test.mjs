// What a newcomer trips over, driven as a person does it (typing, clicking, keys): the key set
// while a message waits, the `@` picker, attachments as chips, the `/` menu, Rewind and Fork, the
// header at narrow widths, tool cards, the recent list, a prompt too big for the window, and a
// permission left waiting over Reload Window. Real code-server, real Chromium, the stand-in.
// Functions passed to evaluate() run in the page, where these are defined.
/* global document, getComputedStyle */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

describe("a newcomer's first sessions in real VS Code", { timeout: 900_000 }, () => {
  let env;
  let wb;
  let frame;

  before(async () => {
    // No key anywhere: the first thing a newcomer does is send a message and be asked for one.
    ({ env, wb, frame } = await openPanel({ env: { ANTHROPIC_API_KEY: '' } }));
  });
  after(() => env?.close());

  const input = () => frame.locator('[data-testid="prompt-input"]');
  const assistant = (text) => frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: text });
  const notices = (text) => frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: text });
  const idle = () => eventually(() => frame.locator('[data-testid="send-button"]').count(), (n) => n === 1, { what: 'the panel to be idle' });
  /** Clicks into the box and types, key by key, as a person does. */
  const type = async (text) => {
    await input().click();
    await wb.page.keyboard.type(text);
  };
  const clearBox = async () => {
    await input().click();
    await wb.page.keyboard.press('Control+A');
    await wb.page.keyboard.press('Backspace');
  };
  it('Set API Key while a message waits leaves one notice, which sends the message', async () => {
    await type('hello there');
    await wb.page.keyboard.press('Enter');
    await notices('Set an Anthropic API key').waitFor();
    await wb.runCommand('Threadline: Set API Key');
    const box = wb.page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor();
    await wb.page.keyboard.type('sk-ant-standin-test');
    await wb.page.keyboard.press('Enter');
    await notices('API key saved').waitFor();
    // The store and the secret both report the change: give a second notice time to arrive.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await notices('API key saved').count(), 1, 'one "API key saved" notice');
    assert.equal(await notices('Set an Anthropic API key').count(), 0, 'the warning became the offer, not a second notice beside it');
    assert.equal(await frame.locator('[data-testid="notice-action"]', { hasText: 'Set API Key' }).count(), 0, 'no Set API Key button left asking again');
    await env.standin.enqueue([{ content: [{ type: 'text', text: 'Hello to you.' }] }]);
    await notices('API key saved').locator('[data-testid="notice-action"]', { hasText: 'Retry' }).click();
    await assistant('Hello to you.').waitFor();
    await wb.screenshot('50-key-set-one-notice');
  });

  it('@ opens the file picker with the keyboard in it: what is typed after the @ filters the list', async () => {
    await wb.newSession();
    await type('Explain @gre');
    const picker = frame.locator('[data-testid="file-picker-input"]');
    await picker.waitFor();
    assert.equal(await picker.inputValue(), 'gre', 'the letters after @ went to the filter');
    assert.equal(await input().inputValue(), 'Explain ', 'and not into the message');
    await eventually(() => frame.locator('[data-testid="file-choice"]').first().innerText(), (t) => t === 'src/greet.js', { what: 'the filtered list' });
    await wb.page.keyboard.press('Enter');
    await frame.locator('[data-testid="attachment-chip"]', { hasText: 'src/greet.js' }).waitFor();
    // The keyboard is back in the message box.
    await wb.page.keyboard.type('please');
    assert.equal(await input().inputValue(), 'Explain please');
  });

  it('the sent message shows what was typed with the file as a chip; the title is the words, not XML', async () => {
    await env.standin.enqueue([{ content: [{ type: 'text', text: 'It greets by name.' }] }]);
    await wb.page.keyboard.press('Enter');
    await assistant('It greets by name.').waitFor();
    const user = frame.locator('[data-testid="message"][data-kind="user"]').last();
    assert.equal((await user.locator('.user-text').innerText()).trim(), 'Explain please');
    assert.doesNotMatch(await user.innerText(), /<file|<\/file>/);
    await user.locator('[data-testid="sent-attachment"]', { hasText: 'src/greet.js' }).waitFor();
    assert.equal(await frame.locator('[data-testid="session-title"]').innerText(), 'Explain please');
    const sent = JSON.stringify((await env.standin.requests()).at(-1).body.messages.at(-1));
    assert.match(sent, /<file path=\\"src\/greet\.js\\">/, 'the model still gets the file');
    await wb.screenshot('51-attachment-chip');
  });

  it('/ offers the commands with a line each; typing narrows them, Tab takes one, Esc closes', async () => {
    await type('/');
    const menu = frame.locator('[data-testid="slash-menu"]');
    await menu.waitFor();
    const items = menu.locator('[data-testid="slash-command"]');
    assert.ok((await items.count()) >= 5, 'the commands are offered');
    for (const name of ['compact', 'model', 'think']) assert.match(await menu.locator(`[data-name="${name}"]`).innerText(), new RegExp(`/${name}.*\\S{3,}`, 's'));
    await wb.screenshot('52-slash-menu');
    await wb.page.keyboard.type('th');
    assert.equal(await items.count(), 1);
    await wb.page.keyboard.press('Tab');
    assert.equal(await input().inputValue(), '/think ');
    await menu.waitFor({ state: 'detached' });
    await clearBox();
    await wb.page.keyboard.type('/co');
    assert.equal(await items.count(), 2);
    await wb.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await input().inputValue(), '/co', 'Esc closes the menu and keeps the text');
    await clearBox();
  });

  it('Rewind is a menu first; it puts the message back in the box with its chip, and Undo brings the exchange back', async () => {
    const user = frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Explain please' });
    await user.hover();
    await user.locator('[data-testid="message-menu"]').click();
    const rewind = user.locator('[data-testid="message-rewind"]');
    await rewind.waitFor();
    assert.match(await user.locator('[data-testid="message-menu-list"]').innerText(), /Restore conversation[\s\S]*back into the box[\s\S]*Fork from here/);
    // Nothing happened on the first click; Esc closes the menu and changes nothing.
    await wb.page.keyboard.press('Escape');
    await rewind.waitFor({ state: 'detached' });
    assert.equal(await assistant('It greets by name.').count(), 1);
    await user.locator('[data-testid="message-menu"]').click();
    await rewind.click();
    await eventually(() => frame.locator('[data-testid="message"][data-kind="user"]').count(), (n) => n === 0, { what: 'the rewound message to leave the list' });
    await eventually(() => input().inputValue(), (v) => v === 'Explain please', { what: 'the message back in the box' });
    await frame.locator('[data-testid="attachment-chip"]', { hasText: 'src/greet.js' }).waitFor();
    await wb.screenshot('53-rewound-into-box');
    await notices('Rewound to before').locator('[data-testid="notice-action"]', { hasText: 'Undo' }).click();
    await assistant('It greets by name.').waitFor();
    await frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Explain please' }).waitFor();
    await clearBox();
    await frame.locator('[data-testid="attachment-remove"]').click();
  });

  it('Fork from the first message opens a new session with that message in its box', async () => {
    const first = frame.locator('[data-testid="message"][data-kind="user"]').first();
    const text = (await first.locator('.user-text').innerText()).trim();
    await first.hover();
    await first.locator('[data-testid="message-menu"]').click();
    await first.locator('[data-testid="message-fork"]').click();
    await eventually(() => frame.locator('[data-testid="session-title"]').innerText(), (t) => t.startsWith('Fork of'), { what: 'the fork' });
    await eventually(() => input().inputValue(), (v) => v === text, { what: 'the message in the fork\'s box' });
    assert.equal(await frame.locator('[data-testid="message"][data-kind="user"]').count(), 0);
    await clearBox();
  });

  it('the header keeps the model\'s name readable from 200 to 400 px, nothing overlapping', async () => {
    for (const px of [200, 250, 300, 400]) {
      const width = await wb.panelWidth(px);
      const m = await frame.locator('body').evaluate(() => {
        const name = document.querySelector('.model-name');
        const kids = [...document.querySelector('.header').children].filter((k) => getComputedStyle(k).display !== 'none').map((k) => k.getBoundingClientRect());
        let overlap = 0;
        for (let i = 1; i < kids.length; i++) overlap = Math.max(overlap, kids[i - 1].right - kids[i].left);
        const inside = [...document.querySelectorAll('.model-button > *')].filter((c) => getComputedStyle(c).display !== 'none').every((c) => c.getBoundingClientRect().right <= document.querySelector('.model-button').getBoundingClientRect().right + 1);
        return { text: name.textContent, clipped: name.scrollWidth > name.clientWidth + 1, overlap, inside };
      });
      await wb.screenshot(`54-header-${px}px`);
      assert.equal(m.clipped, false, `${width} px: "${m.text}" is shown whole`);
      assert.ok(m.overlap <= 0.5, `${width} px: header items overlap by ${m.overlap} px`);
      assert.ok(m.inside, `${width} px: nothing of the model button spills onto the meter`);
    }
    await wb.panelWidth(300);
  });

  it('cards show a change and a command once, a running command shows its output, and "allow for this session" says what it covers', async () => {
    await wb.newSession();
    await env.standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo first line && sleep 4 && echo second line', description: 'Print two lines' } }] },
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'README.md', old_string: 'A tiny project', new_string: 'A small project' } }] },
      { content: [{ type: 'text', text: 'Both done.' }] },
    ]);
    await type('Print and edit');
    await wb.page.keyboard.press('Enter');
    const prompt = frame.locator('[data-testid="permission-prompt"]');
    await prompt.waitFor();
    assert.equal(await prompt.locator('[data-testid="permission-allow-session"]').innerText(), 'Allow this command for this session');
    await prompt.locator('[data-testid="permission-allow-once"]').click();
    const bash = frame.locator('[data-testid="tool-card"][data-tool="Bash"]');
    await eventually(() => bash.locator('[data-testid="tool-live"]').innerText().catch(() => ''), (t) => t.includes('first line'), { what: 'the running command\'s output so far' });
    assert.equal(await bash.getAttribute('data-status'), 'running', 'shown while it runs');
    await wb.screenshot('55-bash-live-output');
    await eventually(() => prompt.locator('[data-testid="permission-allow-session"]').innerText().catch(() => ''), (t) => t === 'Allow all edits for this session', { what: 'the Edit prompt', timeout: 60_000 });
    assert.match(await prompt.locator('[data-testid="permission-scope"]').innerText(), /Write and Edit/);
    await prompt.locator('[data-testid="permission-allow-session"]').click();
    await assistant('Both done.').waitFor();
    await idle();
    await bash.locator('.tool-toggle').click();
    const bashText = await bash.innerText();
    assert.equal(bashText.split('echo first line').length - 1, 1, `the command once in the open card:\n${bashText}`);
    assert.match(bashText, /second line/);
    const edit = frame.locator('[data-testid="tool-card"][data-tool="Edit"]');
    await edit.locator('.tool-toggle').click();
    const editText = await edit.innerText();
    assert.equal(editText.split('A small project').length - 1, 1, `the change once in the open card:\n${editText}`);
    await wb.screenshot('56-cards-open');
    // The session grant on an Edit covers a Write too.
    await env.standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'notes/later.txt', content: 'later\n' } }] },
      { content: [{ type: 'text', text: 'Wrote it without asking.' }] },
    ]);
    await type('Write a note');
    await wb.page.keyboard.press('Enter');
    await assistant('Wrote it without asking.').waitFor();
    assert.ok(existsSync(join(env.workspace, 'notes', 'later.txt')));
  });

  it('the jump-to-bottom button never covers a code block\'s Copy or Insert', async () => {
    await wb.panelWidth(250);
    const blocks = Array.from({ length: 8 }, (_, i) => `Step ${i}: run this.\n\n\`\`\`sh\necho step ${i}\n\`\`\``).join('\n\n');
    await env.standin.enqueue([{ content: [{ type: 'text', text: blocks }] }]);
    await type('Show me the steps');
    await wb.page.keyboard.press('Enter');
    await assistant('Step 7').waitFor();
    await idle();
    const list = frame.locator('[data-testid="message-list"]');
    await list.hover();
    await wb.page.mouse.wheel(0, -300);
    const jump = frame.locator('[data-testid="jump-to-bottom"]');
    await jump.waitFor();
    const hits = await frame.locator('body').evaluate(() => {
      const j = document.querySelector('[data-testid="jump-to-bottom"]').getBoundingClientRect();
      return [...document.querySelectorAll('.code-head button')].map((b) => b.getBoundingClientRect()).filter((r) => r.right > j.left && r.left < j.right && r.bottom > j.top && r.top < j.bottom).length;
    });
    await wb.screenshot('57-jump-button-narrow');
    assert.equal(hits, 0, 'no code action under the jump button');
    const columns = await frame.locator('body').evaluate(() => {
      const j = document.querySelector('[data-testid="jump-to-bottom"]').getBoundingClientRect();
      return [...document.querySelectorAll('.code-head button')].some((b) => {
        const r = b.getBoundingClientRect();
        return r.right > j.left && r.left < j.right;
      });
    });
    assert.equal(columns, false, 'not even in the same column, wherever the list is scrolled');
    await jump.click();
    await wb.panelWidth(300);
  });

  it('the empty state lists a recent session with its title above its time and count', async () => {
    await wb.newSession();
    const item = frame.locator('[data-testid="recent-session"]').first();
    await item.waitFor();
    const m = await item.evaluate((el) => {
      const t = el.querySelector('.recent-title').getBoundingClientRect();
      const meta = el.querySelector('.recent-meta');
      return { titleBottom: t.bottom, metaTop: meta.getBoundingClientRect().top, meta: meta.textContent };
    });
    assert.ok(m.titleBottom <= m.metaTop + 0.5, `title and time on their own lines (${m.titleBottom} / ${m.metaTop})`);
    assert.match(m.meta, /^\S.* · \d+ messages?$/);
    assert.doesNotMatch(m.meta, /\b1 messages\b/);
  });

  it('a Write waiting for permission, then Reload Window: the session comes back with Continue, and Continue continues', async () => {
    await wb.newSession();
    await env.standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'notes/reload.txt', content: 'after reload\n' } }] },
      { content: [{ type: 'text', text: 'Picked up after the reload.' }] },
    ]);
    await type('Write the reload note');
    await wb.page.keyboard.press('Enter');
    await frame.locator('[data-testid="permission-prompt"]').waitFor();
    await wb.runCommand('Developer: Reload Window');
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await wb.showThreadline();
    frame = wb.chatFrame();
    await frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Write the reload note' }).waitFor({ timeout: 60_000 });
    await notices('Press Continue').waitFor();
    const cont = frame.locator('[data-testid="continue-button"]');
    await cont.waitFor();
    await wb.screenshot('59-continue-after-reload');
    await cont.click();
    // The Write asks again (it never ran); allowing it lets the turn finish.
    const prompt = frame.locator('[data-testid="permission-prompt"]');
    await prompt.or(assistant('Picked up after the reload.')).first().waitFor({ timeout: 60_000 });
    if (await prompt.isVisible()) await prompt.locator('[data-testid="permission-allow-once"]').click();
    await assistant('Picked up after the reload.').waitFor({ timeout: 60_000 });
  });
});

describe('a first prompt too big for the window, in real VS Code', { timeout: 300_000 }, () => {
  let env;
  let wb;
  let frame;

  before(async () => {
    // The smallest window there is, so a pasted log is too big for any conversation.
    ({ env, wb, frame } = await openPanel({ settings: { 'threadline.contextWindow': 8192 } }));
  });
  after(() => env?.close());

  it('comes back to the box whole, with what to do instead, and nothing is sent', async () => {
    const input = frame.locator('[data-testid="prompt-input"]');
    await eventually(() => frame.locator('[data-testid="context-button"]').innerText(), (t) => /\/8\.2k/.test(t), { what: 'the 8k window in the header' });
    const big = Array.from({ length: 1200 }, (_, i) => `log line ${i}: something happened here`).join('\n');
    // A paste, as a person brings a log in: the box is on screen, so fill() is a paste into it.
    await input.fill(big);
    await input.press('Enter');
    const notice = frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: 'back in the box' });
    await notice.waitFor();
    assert.match(await notice.innerText(), /shorten it[\s\S]*bigger window/);
    assert.doesNotMatch(await notice.innerText(), /Compact the conversation/);
    await notice.locator('[data-testid="notice-action"]', { hasText: 'Select Model' }).waitFor();
    assert.equal(await frame.locator('[data-testid="message"][data-kind="user"]').count(), 0, 'not in the conversation');
    await eventually(() => input.inputValue(), (v) => v === big, { what: 'the whole prompt back in the box' });
    assert.equal((await env.standin.requests()).length, 0, 'no request was made');
    await wb.screenshot('58-too-big-handed-back');
  });
});
