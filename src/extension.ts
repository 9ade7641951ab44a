import * as vscode from 'vscode';
import { createChatHandlers } from './chat/chatController';
import { getDefaultAppState, type AppState } from './state/appState';
import { RuntimeState } from './state/runtimeState';
import { createStore } from './state/store';
import { ViewSync } from './state/viewSync';
import { ApiKeyStore } from './vscode/apiKey';
import { ChatViewProvider, CHAT_VIEW_ID } from './vscode/chatViewProvider';
import { registerCommands, runActionCommand } from './vscode/commands';
import { readSettings } from './vscode/settings';
import { createContextStatusItem } from './vscode/statusBar';
import { createOutputLogger } from './vscode/log';

// The composition root: build the core, adapt it to VS Code, register. Nothing else here.
export function activate(context: vscode.ExtensionContext): void {
  const log = createOutputLogger();
  context.subscriptions.push(log);
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>({
    ...getDefaultAppState({ sessionId: runtime.sessionId, settings: readSettings() }),
    workspaceTrusted: vscode.workspace.isTrusted,
  });

  const apiKeys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(apiKeys);
  const refreshKey = async () => {
    const present = Boolean(await apiKeys.get());
    store.setState((s) => (s.apiKeySet === present ? s : { ...s, apiKeySet: present }));
  };
  void refreshKey();
  context.subscriptions.push(apiKeys.onDidChange(() => void refreshKey()));

  const handlers = createChatHandlers({
    store,
    log,
    hasApiKey: async () => Boolean(await apiKeys.get()),
    runCommand: runActionCommand,
  });
  const sync = new ViewSync(store, handlers, log);
  context.subscriptions.push(sync);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, new ChatViewProvider(context.extensionUri, sync)));
  context.subscriptions.push(createContextStatusItem(store));

  registerCommands(context, {
    store,
    apiKeys,
    newSession: () => {
      runtime.startSession();
      const fresh = getDefaultAppState({ sessionId: runtime.sessionId, settings: store.getState().settings });
      store.setState((s) => ({ ...fresh, apiKeySet: s.apiKeySet, workspaceTrusted: s.workspaceTrusted }));
    },
  });

  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => store.setState((s) => ({ ...s, workspaceTrusted: true }))),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('threadline')) {
        const settings = readSettings();
        store.setState((s) => ({ ...s, settings, model: settings.model }));
      }
    }),
  );
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
