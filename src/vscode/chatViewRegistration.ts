import * as vscode from 'vscode';
import type { AppState } from '../state/appState';
import type { ChatHandlers, ViewSync } from '../state/viewSync';
import type { Store } from '../shared/store';
import { ChatViewProvider, CHAT_VIEW_ID } from './chatViewProvider';
import { watchPermissionAttention } from './permissionAttention';
import { readPermissionNotification } from './settings';

/** The chat view and what draws attention to it while it is hidden (a waiting permission request). */
export function registerChatView(extensionUri: vscode.Uri, sync: ViewSync, store: Store<AppState>, handlers: ChatHandlers): vscode.Disposable[] {
  const provider = new ChatViewProvider(extensionUri, sync);
  return [
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    provider,
    watchPermissionAttention({
      store,
      view: () => provider.current,
      onDidResolveView: provider.onDidResolveView,
      respond: (requestId, decision) => void handlers['permission/respond']({ requestId, decision }),
      notify: readPermissionNotification,
    }),
  ];
}
