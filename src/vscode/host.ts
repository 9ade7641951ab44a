import * as vscode from 'vscode';
import type { Host, NoticeLevel } from '../ports/host';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { ApiKeyStore } from './apiKey';
import { approveExternalInclude } from './includeApprovals';
import { readMaxTurns } from './settings';

/** Writes where the value is set now: the workspace's settings if it sets one, else the user's. */
async function saveSetting(key: 'model' | 'thinking', value: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('threadline');
  const i = config.inspect(key);
  const inWorkspace = i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  await config.update(key, value, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
}

const show: Record<NoticeLevel, (text: string) => Thenable<unknown>> = {
  info: (t) => vscode.window.showInformationMessage(t),
  warning: (t) => vscode.window.showWarningMessage(t),
  error: (t) => vscode.window.showErrorMessage(t),
};

/**
 * VS Code as the core's host: Workspace Trust, the key in Secret Storage, the settings (the base
 * URL as the store holds it, so a change applies at once), notifications, and a modal question
 * for an include from outside the project (its answer kept in global state).
 */
export function createVsCodeHost(o: { apiKeys: ApiKeyStore; store: Store<AppState>; approvals: vscode.Memento }): Host {
  return {
    isTrusted: () => vscode.workspace.isTrusted,
    apiKey: () => o.apiKeys.get(),
    baseUrl: () => o.store.getState().settings.apiBaseUrl,
    settings: { maxTurns: readMaxTurns, save: saveSetting },
    notify: (level, text) => void show[level](`Threadline: ${text}`),
    approveExternal: approveExternalInclude(o.approvals),
  };
}
