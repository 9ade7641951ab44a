import * as vscode from 'vscode';
import type { AppState } from '../state/appState';
import { subscribeSelector, type Store } from '../shared/store';
import type { PermissionDecision, PermissionPromptView } from '../shared/viewState';

export interface AttentionDeps {
  store: Store<AppState>;
  /** The chat view, once VS Code has resolved it (it carries the badge). */
  view(): vscode.WebviewView | undefined;
  /** Fires when the chat view is resolved again (the badge must be put back on the new one). */
  onDidResolveView: vscode.Event<vscode.WebviewView>;
  /** Answers a request the way the panel's buttons do. */
  respond(requestId: string, decision: PermissionDecision): void;
  /** `threadline.permissionNotification`: also ask in a notification while the panel is hidden. */
  notify(): boolean;
}

/** What the badge, the status bar and the notification say about a waiting request. */
function attentionText(p: PermissionPromptView): string {
  const what = p.summary.length > 80 ? `${p.summary.slice(0, 79)}…` : p.summary;
  return `Threadline is waiting for permission: ${p.toolName}${what && what !== p.toolName ? ` ${what}` : ''}`;
}

/**
 * A waiting permission request is seen even when the panel is hidden: a badge on the Threadline
 * view, a status-bar item that opens the panel, and (opt-in) a notification with Allow and Deny.
 * All of it goes as soon as the request is answered, from wherever.
 */
export function watchPermissionAttention(deps: AttentionDeps): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('threadline.permission', vscode.StatusBarAlignment.Right, 101);
  item.name = 'Threadline Permission';
  item.command = 'threadline.chat.focus';
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  /** The request last drawn: a notification is for a request first seen while the panel is hidden. */
  let seen: string | undefined;

  const render = (p: PermissionPromptView | null) => {
    const view = deps.view();
    if (!p) {
      if (view) view.badge = undefined;
      item.hide();
      return;
    }
    const text = attentionText(p);
    if (view) view.badge = { value: 1, tooltip: text };
    item.text = `$(shield) Allow ${p.toolName}?`;
    item.tooltip = `${text}. Click to answer in the Threadline panel.`;
    item.accessibilityInformation = { label: text, role: 'button' };
    item.show();
    const isNew = seen !== p.requestId;
    seen = p.requestId;
    // Only when it arrives unseen: hiding the panel on a request already shown must not pop a toast.
    if (isNew && deps.notify() && !view?.visible) {
      void vscode.window.showWarningMessage(text, 'Allow once', 'Deny', 'Show').then((pick) => {
        // The request may have been answered in the panel meanwhile; respond() ignores a stale id.
        if (pick === 'Allow once') deps.respond(p.requestId, 'allow-once');
        else if (pick === 'Deny') deps.respond(p.requestId, 'deny');
        else if (pick === 'Show') void vscode.commands.executeCommand('threadline.chat.focus');
      });
    }
  };

  render(deps.store.getState().permission);
  const unsubscribe = subscribeSelector(deps.store, (s) => s.permission, render);
  const resolved = deps.onDidResolveView(() => render(deps.store.getState().permission));
  return new vscode.Disposable(() => {
    unsubscribe();
    resolved.dispose();
    item.dispose();
  });
}
