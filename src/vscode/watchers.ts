import * as vscode from 'vscode';
import type { Agent } from '../agent/agent';
import type { ContextService } from '../context/contextService';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { ApiKeyStore } from './apiKey';
import { readSettings } from './settings';

/** Keeps the store in step with what VS Code owns: the stored key, Workspace Trust, settings. */
export function watchKeyAndSettings(deps: { store: Store<AppState>; apiKeys: ApiKeyStore; contextService: ContextService; agent(): Agent }): vscode.Disposable[] {
  const { store, apiKeys, contextService } = deps;
  const refreshKey = async () => {
    const present = Boolean(await apiKeys.get());
    store.setState((s) => (s.apiKeySet === present ? s : { ...s, apiKeySet: present }));
  };
  void refreshKey();
  return [
    apiKeys.onDidChange(async () => {
      await refreshKey();
      if (await apiKeys.get()) deps.agent().keyArrived();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      // Project instruction files were withheld while untrusted; read them now.
      contextService.clear();
      store.setState((s) => ({ ...s, workspaceTrusted: true }));
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('threadline')) return;
      const settings = readSettings();
      store.setState((s) => ({ ...s, settings, model: settings.model }));
      // A switched model (or window) moves the thresholds and the meter at once.
      deps.agent().publishTokens();
    }),
  ];
}
