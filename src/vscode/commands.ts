import * as vscode from 'vscode';
import type { ContextPreview } from '../context/breakdown';
import { renderContextReport } from '../context/contextReport';
import type { AppState } from '../state/appState';
import type { Store } from '../shared/store';
import type { ActionCommand } from '../shared/viewState';
import type { ApiKeyStore } from './apiKey';

export interface CommandDeps {
  store: Store<AppState>;
  apiKeys: ApiKeyStore;
  newSession(): void;
  compact(focus: string | undefined): Promise<void>;
  previewContext(): Promise<ContextPreview>;
  /** The permission rules in force and where each came from. */
  permissionsReport(): string;
  resumeSession(): Promise<void>;
  compactPreview(): string;
  openMemory(): Promise<void>;
  showHistory(): Promise<void>;
  /** Opens the panel's Context view (Show Context Markdown opens the report as a document). */
  showContextView(): Promise<void>;
  /** Every file the open session changed, against its first snapshot, in the changes view. */
  showSessionChanges(): Promise<void>;
}

const CONTEXT_SCHEME = 'threadline-context';

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const contextDocs = new (class implements vscode.TextDocumentContentProvider {
    readonly changed = new vscode.EventEmitter<vscode.Uri>();
    readonly onDidChange = this.changed.event;
    async provideTextDocumentContent(): Promise<string> {
      let preview: ContextPreview | undefined;
      try {
        preview = await deps.previewContext();
      } catch {
        // The report still shows the thresholds and usage without the breakdown.
      }
      const rules = deps.permissionsReport();
      return `${renderContextReport(deps.store.getState(), preview)}${rules ? `\n\n## Permissions\n\n\`\`\`\n${rules}\n\`\`\`\n` : ''}`;
    }
  })();
  const contextUri = vscode.Uri.from({ scheme: CONTEXT_SCHEME, path: '/Threadline Context.md' });

  const register = (id: string, fn: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(CONTEXT_SCHEME, contextDocs), contextDocs.changed);

  register('threadline.newSession', () => deps.newSession());
  register('threadline.setApiKey', async () => {
    if (await deps.apiKeys.promptAndStore()) void vscode.window.showInformationMessage('Threadline: API key saved.');
  });
  register('threadline.compact', async () => {
    if (!deps.store.getState().messages.some((m) => m.kind === 'assistant')) {
      void vscode.window.showInformationMessage('Threadline: there is nothing to compact yet (Compact Conversation).');
      return;
    }
    const focus = await vscode.window.showInputBox({
      title: 'Threadline: Compact Conversation',
      prompt: `${deps.compactPreview()} Optional: what the summary should focus on.`.trim(),
      ignoreFocusOut: true,
    });
    if (focus === undefined) return;
    await deps.compact(focus.trim() || undefined);
  });
  register('threadline.resumeSession', () => deps.resumeSession());
  register('threadline.showHistory', () => deps.showHistory());
  register('threadline.openMemory', () => deps.openMemory());
  register('threadline.showSessionChanges', () => deps.showSessionChanges());
  register('threadline.showContext', async () => {
    await vscode.commands.executeCommand('threadline.chat.focus');
    return deps.showContextView();
  });
  register('threadline.showContextMarkdown', async () => {
    contextDocs.changed.fire(contextUri);
    const doc = await vscode.workspace.openTextDocument(contextUri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true });
  });
}

/** Maps the panel's action buttons onto commands. */
export function runActionCommand(command: ActionCommand): void {
  const map: Partial<Record<ActionCommand, string>> = {
    setApiKey: 'threadline.setApiKey',
    compact: 'threadline.compact',
    newSession: 'threadline.newSession',
    openMemory: 'threadline.openMemory',
    selectModel: 'threadline.selectModel',
    showContextMarkdown: 'threadline.showContextMarkdown',
  };
  if (command === 'openSettings') {
    void vscode.commands.executeCommand('workbench.action.openSettings', 'threadline');
    return;
  }
  const id = map[command];
  if (id) void vscode.commands.executeCommand(id);
}
