import * as vscode from 'vscode';
import type { ViewSync } from '../state/viewSync';
import { renderWebviewHtml } from './webviewHtml';

export const CHAT_VIEW_ID = 'threadline.chat';

/**
 * Hosts the chat panel. The webview is not retained when hidden: it is rebuilt on show,
 * says `view/ready`, and gets a fresh snapshot, so hidden views cost nothing and a reload
 * restores exactly what the store holds.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sync: ViewSync,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview')],
    };
    const attachment = this.sync.attach({ postMessage: (m) => view.webview.postMessage(m) });
    const listener = view.webview.onDidReceiveMessage((raw: unknown) => void this.sync.receive(raw));
    view.onDidDispose(() => {
      listener.dispose();
      attachment.dispose();
    });
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri);
  }
}
