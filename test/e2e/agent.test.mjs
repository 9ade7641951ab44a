// The agent as a user meets it: real VS Code, the real SDK in the extension host, talking over
// HTTP to the Messages API stand-in (which rejects any request the real API would reject).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, openPanel } from './harness.mjs';

describe('the agent in real VS Code against the Messages API stand-in', { timeout: 300_000 }, () => {
  let env;
  let standin;
  let wb;
  let workspace;

  before(async () => {
    // An allow rule for echo, read as the user set it: Bash rules are judged by the bundled shell parser.
    ({ env, standin, wb } = await openPanel({ settings: { 'threadline.permissions.allow': ['Bash(echo:*)'] } }));
    ({ workspace } = env);
  });

  after(() => env?.close());

  const send = (text) => wb.send(text);

  it('streams a markdown answer with a highlighted code block', async () => {
    await standin.enqueue([
      {
        content: [{ type: 'text', text: 'Here is **the function**:\n\n```js\nexport function add(a, b) {\n  return a + b;\n}\n```\n\nThat is all.' }],
        // Slow enough (about 2 s in all) that the page is seen mid-stream.
        chunkChars: 4,
        chunkDelayMs: 60,
      },
    ]);
    await send('Write an add function');
    const frame = wb.chatFrame();
    const answer = frame.locator('[data-testid="message"][data-kind="assistant"]').last();
    // Seen while streaming, then finished.
    await frame.locator('[data-testid="message"][data-kind="assistant"].streaming').first().waitFor();
    await answer.locator('text=That is all.').waitFor();
    await eventually(() => answer.getAttribute('class'), (c) => !c.includes('streaming'), { what: 'the answer to finish streaming' });
    assert.equal(await answer.locator('strong', { hasText: 'the function' }).count(), 1);
    const code = answer.locator('pre code');
    assert.match(await code.innerText(), /return a \+ b;/);
    assert.ok((await code.locator('span[class^="hljs-"]').count()) > 0, 'the code block is highlighted');
    await wb.screenshot('10-streamed-markdown');
    const reqs = await standin.requests();
    const last = reqs.at(-1);
    assert.equal(last.status, 200);
    assert.equal(last.apiKey, 'sk-ant-standin-test');
    assert.equal(last.body.stream, true);
    assert.ok(last.body.tools.some((t) => t.name === 'Write'), 'the tools are sent');
  });

  it('asks before a Write, and the file appears once allowed', async () => {
    await standin.enqueue([
      { content: [{ type: 'text', text: 'I will create the file.' }, { type: 'tool_use', name: 'Write', input: { file_path: 'notes/hello.txt', content: 'hi from threadline\n' } }] },
      { content: [{ type: 'text', text: 'Created notes/hello.txt.' }] },
    ]);
    await send('Create notes/hello.txt');
    const frame = wb.chatFrame();
    const prompt = frame.locator('[data-testid="permission-prompt"]');
    await prompt.waitFor();
    assert.match(await prompt.innerText(), /Write/);
    assert.equal(existsSync(join(workspace, 'notes', 'hello.txt')), false, 'nothing is written before the user allows it');
    await wb.screenshot('11-permission-prompt');
    await frame.locator('[data-testid="permission-allow-once"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Created notes/hello.txt.' }).waitFor();
    assert.equal(readFileSync(join(workspace, 'notes', 'hello.txt'), 'utf8'), 'hi from threadline\n');
    const card = frame.locator('[data-testid="tool-card"]').last();
    assert.equal(await card.getAttribute('data-status'), 'done');
    await card.locator('.tool-toggle').click();
    await card.locator('.tool-body', { hasText: 'notes/hello.txt' }).waitFor();
    await wb.screenshot('12-tool-card');
    // The follow-up request carried the tool result for the Write call.
    const followUp = (await standin.requests()).at(-1).body;
    const results = followUp.messages.at(-1).content.filter((b) => b.type === 'tool_result');
    assert.equal(results.length, 1);
    assert.notEqual(results[0].is_error, true);
  });

  it('a denied call goes back to the model as an error result', async () => {
    await standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch should-not-exist' } }] },
      { content: [{ type: 'text', text: 'Understood, I will not run it.' }] },
    ]);
    await send('Run touch');
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="permission-deny"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'I will not run it' }).waitFor();
    assert.equal(existsSync(join(workspace, 'should-not-exist')), false);
    const last = (await standin.requests()).at(-1).body;
    const result = last.messages.at(-1).content.find((b) => b.type === 'tool_result');
    assert.equal(result.is_error, true);
    assert.match(JSON.stringify(result.content), /denied/i);
  });

  it('an allowed Bash command runs without asking; the same command writing a file asks', async () => {
    await standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: "echo 'ran by rule' 2>&1 | echo $'ran\\x20by rule'" } }] },
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo pwned > pwned.txt' } }] },
      { content: [{ type: 'text', text: 'Both tried.' }] },
    ]);
    await send('Run the echoes');
    const frame = wb.chatFrame();
    const prompt = frame.locator('[data-testid="permission-prompt"]');
    await prompt.waitFor();
    await prompt.locator('button', { hasText: 'Show details' }).click();
    await prompt.locator('.permission-detail', { hasText: 'output redirected to a file' }).waitFor();
    // The first command ran without a prompt: its result went back before this one was asked.
    const first = (await standin.requests()).at(-1).body.messages.at(-1).content.find((b) => b.type === 'tool_result');
    assert.notEqual(first.is_error, true);
    assert.match(JSON.stringify(first.content), /ran by rule/);
    await frame.locator('[data-testid="permission-deny"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Both tried.' }).waitFor();
    assert.equal(existsSync(join(workspace, 'pwned.txt')), false);
  });

  it('Stop mid-answer keeps the partial text, and Continue picks up with a valid history', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    await standin.enqueue([
      { content: [{ type: 'text', text: long }], chunkChars: 5, chunkDelayMs: 40 },
      { content: [{ type: 'text', text: 'Continuing where I stopped.' }] },
    ]);
    await send('Tell me a long story');
    const frame = wb.chatFrame();
    const answer = frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'word3' }).last();
    await answer.waitFor();
    await frame.locator('[data-testid="stop-button"]').click();
    await frame.locator('[data-testid="continue-button"]').waitFor();
    const partial = await answer.innerText();
    assert.ok(!partial.includes('word199'), 'the answer was cut short');
    await wb.screenshot('13-stopped');
    await frame.locator('[data-testid="continue-button"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Continuing where I stopped.' }).waitFor();
    // The stand-in answers 400 to any history the real API would refuse; the continuation
    // was accepted, and it carried the partial answer.
    const reqs = await standin.requests();
    const cont = reqs.at(-1);
    assert.equal(cont.status, 200);
    const assistantTexts = cont.body.messages.filter((m) => m.role === 'assistant').map((m) => JSON.stringify(m.content));
    assert.ok(assistantTexts.some((t) => t.includes('word3')), 'the partial answer stays in the history');
    assert.equal((await frame.locator('[data-testid="prompt-input"]').getAttribute('placeholder')).includes('working'), false);
  });

  it('an API error is shown in the conversation with a Retry that works', async () => {
    await standin.enqueue([
      { content: [{ type: 'text', text: 'x' }], fault: { kind: 'http', status: 400, message: 'scripted failure for the test' } },
      { content: [{ type: 'text', text: 'Worked on retry.' }] },
    ]);
    await send('This will fail once');
    const frame = wb.chatFrame();
    const notice = frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: 'scripted failure' });
    await notice.waitFor();
    await wb.screenshot('14-api-error');
    await notice.locator('[data-testid="notice-action"]', { hasText: 'Retry' }).click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Worked on retry.' }).waitFor();
  });

  it('Restore conversation drops that exchange from the panel and from what the model sees', async () => {
    await standin.enqueue([{ content: [{ type: 'text', text: 'Banana it is.' }] }]);
    await send('Say banana');
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Banana it is.' }).waitFor();
    const msg = frame.locator('[data-testid="message"][data-kind="user"]', { hasText: 'Say banana' });
    // Restore conversation, from the message's menu.
    await msg.hover();
    await msg.locator('[data-testid="message-menu"]').click();
    await msg.locator('[data-testid="message-rewind"]', { hasText: 'Restore conversation' }).click();
    await frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: 'Files on disk were not changed' }).waitFor();
    await eventually(() => frame.locator('[data-testid="message"]', { hasText: 'Say banana' }).count(), (n) => n === 0, { what: 'the rewound message to leave the panel' });
    await standin.enqueue([{ content: [{ type: 'text', text: 'Apple it is.' }] }]);
    await send('Say apple');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Apple it is.' }).waitFor();
    assert.doesNotMatch(JSON.stringify((await standin.requests()).at(-1).body.messages), /Say banana|Banana it is/);
    await wb.screenshot('15-rewound');
  });
});
