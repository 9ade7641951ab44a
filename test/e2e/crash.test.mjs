// The editor killed in the middle of a turn: real code-server and every process under it get
// SIGKILL (no deactivate runs, nothing is flushed), the editor is started again on the same
// folder and profile, and the conversation must be back on screen with every step that had
// completed, and go out with the next prompt. Real Chromium, the real SDK against the stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crashCodeServer, eventually, openPanel, openWorkbench, restartCodeServer } from './harness.mjs';

const STEPS = 12;
const FILES = ['README.md', 'src/greet.js'];

/**
 * A 12-step turn: eleven Read calls, then the answer. With `stallAt`, the request of that step
 * starts and never finishes, so a kill lands there, after the steps before it completed.
 */
function twelveSteps(tag, stallAt) {
  const turns = [];
  for (let i = 1; i < STEPS; i++) {
    turns.push({
      content: [{ type: 'text', text: `${tag} step ${i}.` }, { type: 'tool_use', id: `toolu_${tag}${i}`, name: 'Read', input: { file_path: FILES[i % 2] } }],
      ...(i === stallAt ? { fault: { kind: 'stall', afterEvents: 0 } } : {}),
    });
  }
  turns.push({ content: [{ type: 'text', text: `All ${STEPS} ${tag} steps are done.` }] });
  return turns;
}

/** The tool calls and results a request carries, by id, and the texts of its user messages. */
function carried(body) {
  const calls = [];
  const results = [];
  const texts = [];
  for (const m of body.messages) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type === 'tool_use') calls.push(b.id);
      if (b.type === 'tool_result') results.push(b.tool_use_id);
      if (b.type === 'text' && m.role === 'user') texts.push(b.text);
    }
  }
  return { calls, results, texts: texts.join('\n') };
}

describe('a crash of the editor mid-turn', { timeout: 600_000 }, () => {
  let env;
  let wb;

  before(async () => {
    ({ env, wb } = await openPanel());
  });
  after(() => env?.close());

  const frame = () => wb.chatFrame();

  /** SIGKILL of the whole editor, then the same editor again, and its panel. */
  async function crashAndRestart(shot) {
    await wb.screenshot(`${shot}-before-kill`);
    const killed = await crashCodeServer(env.server);
    assert.ok(killed >= 3, `code-server, its server and the extension host were killed (${killed} processes)`);
    await wb.context.close();
    await restartCodeServer(env);
    wb = await openWorkbench(env.browser, env.server.url);
    await wb.showThreadline();
  }

  it('keeps the prompt and the 4 completed steps, on screen and in the next request', async () => {
    await env.standin.reset();
    await env.standin.enqueue(twelveSteps('mid', 5));
    const prompt = 'Run the twelve steps, then stop halfway';
    await wb.send(prompt);
    // The fifth request goes out once the fourth step's result is in: four steps are complete.
    await eventually(() => env.standin.requests(), (reqs) => reqs.length >= 5, { timeout: 60_000, what: 'the fifth request' });
    await crashAndRestart('60-mid-turn');

    await frame().locator('[data-testid="message"][data-kind="user"]', { hasText: prompt }).waitFor({ timeout: 60_000 });
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'mid step 4.' }).waitFor({ timeout: 30_000 });
    await eventually(() => frame().locator('[data-testid="tool-card"][data-status="done"]').count(), (n) => n === 4, { what: 'the four finished tool cards back' });
    await wb.screenshot('61-mid-turn-after-restart');

    // The kill came before the rest of the script was asked for: the stand-in says so at reset,
    // and that is the point of this test, not a wrong script.
    await env.standin.reset().then(
      () => assert.fail('the steps after the kill were never asked for, so the stand-in should name them'),
      (err) => assert.match(String(err.message), /scripted turns? no request matched: \\?"mid step 6\./),
    );
    await env.standin.enqueue([{ content: [{ type: 'text', text: 'Picking up after the crash.' }] }]);
    await wb.send('Where were we?');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Picking up after the crash.' }).waitFor({ timeout: 30_000 });
    const [next] = await env.standin.requests();
    const got = carried(next.body);
    assert.match(got.texts, new RegExp(prompt), 'the prompt went out again');
    assert.match(got.texts, /Where were we\?/);
    const steps = ['toolu_mid1', 'toolu_mid2', 'toolu_mid3', 'toolu_mid4'];
    assert.deepEqual(got.calls, steps, 'the four completed tool calls');
    assert.deepEqual(got.results, steps, 'and their results');
  });

  it('control: killed 5 s after the turn ended, everything comes back', async () => {
    await wb.runCommand('Threadline: New Session');
    await frame().locator('[data-testid="empty-state"]').waitFor({ timeout: 30_000 });
    await env.standin.reset();
    await env.standin.enqueue(twelveSteps('done'));
    const prompt = 'Run all twelve steps';
    await wb.send(prompt);
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: `All ${STEPS} done steps are done.` }).waitFor({ timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 5000));
    await crashAndRestart('62-after-turn');

    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: `All ${STEPS} done steps are done.` }).waitFor({ timeout: 60_000 });
    // The list shows the latest rows: the prompt is at the top, as a reader wheeling up finds it.
    // (A scroll set from a script right after the list's last height change is not the reader's,
    // and the panel, still following, took it back on Chromium 156.)
    const asked = frame().locator('[data-testid="message"][data-kind="user"]', { hasText: prompt });
    await frame().locator('[data-testid="message-list"]').hover();
    for (let i = 0; i < 40 && !(await asked.isVisible()); i++) await wb.page.mouse.wheel(0, -800);
    await asked.waitFor({ timeout: 30_000 });
    await wb.screenshot('63-after-turn-after-restart');
    // Back down to the latest message, as the reader does before writing again.
    await frame().locator('[data-testid="jump-to-bottom"]').click();
    await frame().locator('[data-testid="jump-to-bottom"]').waitFor({ state: 'detached', timeout: 10_000 });
    await env.standin.reset();
    await env.standin.enqueue([{ content: [{ type: 'text', text: 'All there.' }] }]);
    await wb.send('Anything left?');
    await frame().locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'All there.' }).waitFor({ timeout: 30_000 });
    const [next] = await env.standin.requests();
    const got = carried(next.body);
    assert.match(got.texts, new RegExp(prompt));
    const steps = Array.from({ length: STEPS - 1 }, (_, i) => `toolu_done${i + 1}`);
    assert.deepEqual(got.calls, steps, 'all eleven tool calls');
    assert.deepEqual(got.results, steps);
  });
});
