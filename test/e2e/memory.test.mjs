// Auto memory as the user meets it: the extraction fork saves a memory after an answer, the
// chat says so quietly, and "Threadline: Open Memory" lists it by type.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openWorkbench, startEnvironment } from './harness.mjs';

/** The folder the extension keys this repository's memory on (see src/memory/paths.ts). */
function memoryDirFor(userData, repoRoot) {
  const tail = repoRoot.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
  const hash = createHash('sha256').update(repoRoot).digest('hex').slice(0, 10);
  return join(userData, 'User', 'globalStorage', 'threadline.threadline', 'memory', `${tail}-${hash}`);
}

describe('auto memory in real VS Code', { timeout: 300_000 }, () => {
  let env;
  let standin;
  let server;
  let browser;
  let workspace;

  before(async () => {
    env = await startEnvironment({ settings: { 'threadline.autoMemory': true } });
    ({ standin, server, browser, workspace } = env);
  });

  after(() => env?.close());

  it('saves a memory after the answer, says so in the chat, and lists it in Open Memory', async () => {
    const dir = memoryDirFor(server.dirs.userData, workspace);
    const file = join(dir, 'feedback_no_summaries.md');
    await standin.enqueue([
      { when: 'Stop adding summaries', content: [{ type: 'text', text: 'Understood, no summaries.' }] },
      {
        when: 'remembered in future conversations',
        content: [{ type: 'tool_use', name: 'Write', input: { file_path: file, content: '---\nname: feedback_no_summaries\ndescription: No summaries at the end of answers\ntype: feedback\n---\nThe user reads the diff.\n' } }],
      },
      { when: 'feedback_no_summaries', content: [{ type: 'text', text: 'Saved.' }] },
    ]);
    const wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
    const frame = wb.chatFrame();
    const input = frame.locator('[data-testid="prompt-input"]');
    await input.fill('Stop adding summaries at the end, I read the diff.');
    await input.press('Enter');
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'Understood, no summaries.' }).waitFor();
    const notice = frame.locator('[data-testid="message"][data-kind="notice"]', { hasText: 'Saved to memory: feedback_no_summaries' });
    await notice.waitFor({ timeout: 60_000 });
    assert.ok(existsSync(file));
    assert.ok(existsSync(join(dir, 'MEMORY.md')));
    await wb.screenshot('40-memory-saved');

    await wb.runCommand('Threadline: Open Memory');
    const item = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'feedback_no_summaries' });
    await item.waitFor();
    await wb.page.locator('.quick-input-list', { hasText: 'feedback' }).first().waitFor();
    await wb.screenshot('41-open-memory');
    await item.click();
    await wb.page.locator('.view-lines', { hasText: 'The user reads the diff.' }).first().waitFor();
    // The extraction fork ran with its own prompt and was allowed only the memory folder.
    const forkReq = (await standin.requests()).find((r) => JSON.stringify(r.body.messages.at(-1)).includes('remembered in future conversations'));
    assert.ok(forkReq, 'an extraction request was made');
    assert.match(JSON.stringify(forkReq.body.system), /# Memory/);
  });

  it('"Open the memory folder" in code-server, where there is no file manager to reveal it in, says where the folder is', async () => {
    const wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
    await wb.runCommand('Threadline: Open Memory');
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open the memory folder' });
    await row.waitFor();
    await row.click();
    const dir = memoryDirFor(server.dirs.userData, workspace);
    const toast = wb.toasts().filter({ hasText: 'the memory folder is' });
    await toast.waitFor({ timeout: 30_000 });
    assert.ok((await toast.innerText()).includes(dir), await toast.innerText());
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Copy Path' }).first().waitFor();
    await wb.screenshot('42-memory-folder');
  });
});
