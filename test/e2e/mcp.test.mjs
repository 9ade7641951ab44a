// MCP as a user meets it in real VS Code: a workspace whose .mcp.json defines a server. In
// Restricted Mode it does not start; the user trusts the folder, approves the server in the
// panel, the model calls one of its tools, the user allows the server with one click, the tool
// card shows, and the result is in the next request. The server's process ends with the editor.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanup, eventually, launchBrowser, makeSampleWorkspace, openWorkbench, startCodeServer } from './harness.mjs';

const SERVER = join(import.meta.dirname, '..', 'support', 'mcp', 'server.mjs');

function pidsWith(marker) {
  const out = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker)) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

describe('MCP servers in real VS Code', { timeout: 420_000 }, () => {
  let standin;
  let server;
  let browser;
  let wb;
  let workspace;
  const marker = `e2e-notes-${randomUUID()}`;

  before(async () => {
    const { startStandinProcess } = await import('./standinProcess.mjs');
    standin = await startStandinProcess();
    workspace = realpathSync(makeSampleWorkspace(mkdtempSync(join(tmpdir(), 'threadline-mcp-ws-'))));
    writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [SERVER, '--name', marker] } } }, null, 2));
    server = await startCodeServer({
      workspace,
      settings: { 'threadline.apiBaseUrl': standin.url, 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-standin-test' },
      workspaceTrust: true,
    });
    browser = await launchBrowser(server.tools);
    wb = await openWorkbench(browser, server.url);
    await wb.openThreadline();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await standin?.stop();
    if (server) cleanup(server.dirs.base);
    cleanup(workspace);
  });

  it('untrusted: the project server does not start; the list says why', async () => {
    const frame = wb.chatFrame();
    await frame.locator('[data-testid="mcp-button"]').click();
    const row = frame.locator('[data-testid="mcp-server"][data-name="notes"]');
    await row.waitFor();
    assert.equal(await row.getAttribute('data-state'), 'disabled');
    assert.match(await row.innerText(), /not trusted/);
    assert.equal(await frame.locator('[data-testid="mcp-approval"]').count(), 0, 'no approval is asked in Restricted Mode');
    assert.deepEqual(pidsWith(marker), [], 'nothing ran');
    await wb.screenshot('80-mcp-untrusted');
  });

  it('the user trusts the folder and approves the server; it starts', async () => {
    await wb.runCommand('Workspaces: Manage Workspace Trust');
    const trust = wb.page.locator('.workspace-trust-editor').getByRole('button', { name: /^Trust/ }).first();
    await trust.waitFor({ timeout: 60_000 });
    await trust.click();
    // The trust editor opens as a modal over the workbench: close it as a person does, with its ✕.
    const modal = wb.page.locator('.monaco-modal-editor-block');
    if (await modal.count()) {
      await wb.page.keyboard.press('Escape');
      if (await modal.count()) await modal.locator('.codicon-close, [aria-label^="Close"]').first().click();
      await modal.waitFor({ state: 'detached', timeout: 30_000 });
    }
    await wb.showThreadline();
    const frame = wb.chatFrame();
    const approval = frame.locator('[data-testid="mcp-approval"][data-name="notes"]');
    await approval.waitFor({ timeout: 60_000 });
    assert.match(await approval.innerText(), /\.mcp\.json defines the MCP server notes/);
    assert.match(await approval.innerText(), new RegExp(marker));
    await wb.screenshot('81-mcp-approval');
    await approval.locator('[data-testid="mcp-approve"]').click();
    await approval.waitFor({ state: 'detached' });
    await eventually(() => frame.locator('[data-testid="mcp-server"][data-name="notes"]').getAttribute('data-state'), (s) => s === 'running', { timeout: 60_000, what: 'the server to run' });
    assert.equal(pidsWith(marker).length > 0, true);
  });

  it("the model calls the server's tool: the prompt shows server, tool and arguments; Allow this server; the card shows and the result goes back", async () => {
    await standin.enqueue([
      { content: [{ type: 'text', text: 'Asking the notes server.' }, { type: 'tool_use', name: 'mcp__notes__echo', input: { text: 'from the e2e test' } }] },
      { content: [{ type: 'text', text: 'The server echoed it.' }] },
    ]);
    await wb.send('Echo something through the notes server');
    const frame = wb.chatFrame();
    const prompt = frame.locator('[data-testid="permission-prompt"]');
    await prompt.waitFor({ timeout: 60_000 });
    const details = frame.locator('[data-testid="permission-mcp"]');
    assert.match(await details.innerText(), /Tool echo of the MCP server notes/);
    assert.match(await details.innerText(), /from the e2e test/);
    await wb.screenshot('82-mcp-permission');
    await frame.locator('[data-testid="permission-allow-server"]').click();
    await frame.locator('[data-testid="message"][data-kind="assistant"]', { hasText: 'The server echoed it.' }).waitFor({ timeout: 60_000 });
    const card = frame.locator('[data-testid="tool-card"]').last();
    assert.equal(await card.getAttribute('data-status'), 'done');
    assert.match(await card.innerText(), /echo/);
    await wb.screenshot('83-mcp-tool-card');
    const last = (await standin.requests()).at(-1).body;
    const result = last.messages.at(-1).content.find((b) => b.type === 'tool_result');
    assert.notEqual(result.is_error, true);
    assert.equal(result.content, 'echo: from the e2e test');
    assert.ok(last.tools.some((t) => t.name === 'mcp__notes__echo'), 'the tool joined the tools of the request');
    // Remembered for this folder only: a rule in the user's settings would also cover another folder's server named "notes".
    const file = join(server.dirs.userData, 'User', 'settings.json');
    const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    assert.ok(!(settings['threadline.permissions.allow'] ?? []).includes('mcp__notes'), 'Allow this server wrote no user-scope rule');
  });

  it('the server process ends with the editor', async () => {
    await browser.close();
    browser = undefined;
    await server.stop();
    await eventually(() => pidsWith(marker), (p) => p.length === 0, { timeout: 15_000, what: 'the MCP server process to end' });
  });
});
