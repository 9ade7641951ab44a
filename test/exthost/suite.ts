// Runs inside VS Code's extension host (code-server's remote host), against the installed
// packaged extension: what can only be checked through the VS Code API. The e2e test
// test/e2e/exthost.test.mjs starts it and reads the result file this writes.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';

const EXTENSION_ID = 'threadline.threadline';
const COMMANDS = ['newSession', 'compact', 'resumeSession', 'showContext', 'showContextMarkdown', 'openMemory', 'setApiKey'].map((c) => `threadline.${c}`);

interface Outcome {
  name: string;
  ok: boolean;
  error?: string;
}

const cases: Array<[string, () => Promise<void>]> = [
  [
    'the packaged extension is installed and activates',
    async () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is installed`);
      await ext.activate();
      assert.equal(ext.isActive, true);
    },
  ],
  [
    'every palette command is contributed under the Threadline category and registered',
    async () => {
      const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: Array<{ command: string; category?: string; title: string }> } };
      for (const id of COMMANDS) {
        const c = pkg.contributes.commands.find((x) => x.command === id);
        assert.ok(c, `${id} is contributed`);
        assert.equal(c.category, 'Threadline', `${id} is in the Threadline category`);
      }
      const registered = new Set(await vscode.commands.getCommands(true));
      for (const id of COMMANDS) assert.ok(registered.has(id), `${id} is registered by activate()`);
    },
  ],
  [
    'settings live under threadline.* with their documented defaults',
    async () => {
      const c = vscode.workspace.getConfiguration('threadline');
      assert.equal(c.inspect('model')?.defaultValue, 'sonnet');
      assert.equal(c.inspect('thinking')?.defaultValue, 'adaptive');
      assert.equal(c.inspect('apiBaseUrl')?.defaultValue, '');
      assert.equal(c.inspect('autoCompact')?.defaultValue, true);
      assert.equal(c.inspect('microCompact')?.defaultValue, true);
      assert.equal(c.inspect('contextWindow')?.defaultValue, 0);
    },
  ],
  [
    'Show Context as Markdown opens a read-only report of the context window',
    async () => {
      await vscode.commands.executeCommand('threadline.showContextMarkdown');
      const doc = vscode.window.activeTextEditor?.document;
      assert.ok(doc, 'a document is shown');
      assert.equal(doc.uri.scheme, 'threadline-context');
      assert.equal(doc.languageId, 'markdown');
      const text = doc.getText();
      assert.match(text, /# Threadline context/);
      // The default model is an alias; its window comes from the Models API or the table.
      assert.match(text, /Context window \| \d+(\.\d+)?[kM] \|/);
      assert.match(text, /Auto-compact at/);
    },
  ],
  [
    'New Session runs and the report shows a fresh session',
    async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('threadline.newSession');
      await vscode.commands.executeCommand('threadline.showContextMarkdown');
      const text = vscode.window.activeTextEditor!.document.getText();
      assert.match(text, /Messages in the conversation: 0/);
    },
  ],
  [
    'the chat view is contributed and can be focused',
    async () => {
      await vscode.commands.executeCommand('threadline.chat.focus');
    },
  ],
  [
    'a changed setting reaches the extension (Show Context reports the new model)',
    async () => {
      const c = vscode.workspace.getConfiguration('threadline');
      // update() can resolve before the change event reaches this host's listeners; the
      // extension's listener, registered at activation, runs before this one in the same event.
      const seen = new Promise<void>((resolve) => {
        const sub = vscode.workspace.onDidChangeConfiguration((e) => {
          if (!e.affectsConfiguration('threadline.model')) return;
          sub.dispose();
          resolve();
        });
      });
      await c.update('model', 'claude-opus-4-1', vscode.ConfigurationTarget.Global);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no configuration change event for threadline.model within 10 s')), 10_000);
      });
      await Promise.race([seen, deadline]).finally(() => clearTimeout(timer));
      try {
        await vscode.commands.executeCommand('threadline.showContextMarkdown');
        assert.match(vscode.window.activeTextEditor!.document.getText(), /Model: claude-opus-4-1/);
      } finally {
        await c.update('model', undefined, vscode.ConfigurationTarget.Global);
      }
    },
  ],
  [
    'the memory folder cannot be set by a workspace (machine scope)',
    async () => {
      const c = vscode.workspace.getConfiguration('threadline');
      if (!vscode.workspace.workspaceFolders?.length) return;
      await assert.rejects(
        Promise.resolve(c.update('memoryDirectory', '/tmp/evil-memory', vscode.ConfigurationTarget.Workspace)),
        /user settings|machine|Unable to write/i,
      );
      assert.equal(vscode.workspace.getConfiguration('threadline').inspect('memoryDirectory')?.workspaceValue, undefined);
    },
  ],
];

export async function run(): Promise<void> {
  const out = process.env.THREADLINE_EXTHOST_RESULTS;
  const outcomes: Outcome[] = [];
  for (const [name, fn] of cases) {
    try {
      await fn();
      outcomes.push({ name, ok: true });
    } catch (e) {
      outcomes.push({ name, ok: false, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
    }
  }
  if (out) writeFileSync(out, JSON.stringify({ outcomes }, null, 2));
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length) throw new Error(`${failed.length} extension-host test(s) failed`);
}
