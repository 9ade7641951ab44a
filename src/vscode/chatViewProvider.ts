import * as vscode from 'vscode';
import { Emitter } from '../base/event';
import type { ViewSync } from '../state/viewSync';
import { renderWebviewHtml } from './webviewHtml';

export const CHAT_VIEW_ID = 'threadline.chat';

/**
 * Hosts the chat panel. The webview is not retained when hidden: it is rebuilt on show,
 * says `view/ready`, and gets a fresh snapshot, so hidden views cost nothing and a reload
 * restores exactly what the store holds.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly resolved = new Emitter<vscode.WebviewView>();
  /** Fires with each newly resolved view (for what sits on the view itself: its badge). */
  readonly onDidResolveView = this.resolved.event;
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sync: ViewSync,
  ) {}

  /** The chat view while VS Code holds one (visible or hidden). */
  get current(): vscode.WebviewView | undefined {
    return this.view;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview')],
    };
    const attachment = this.sync.attach({ postMessage: (m) => view.webview.postMessage(m) });
    const listener = view.webview.onDidReceiveMessage((raw: unknown) => void this.sync.receive(raw));
    this.view = view;
    view.onDidDispose(() => {
      listener.dispose();
      attachment.dispose();
      if (this.view === view) this.view = undefined;
    });
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri);
    this.resolved.fire(view);
  }

  dispose(): void {
    this.resolved.dispose();
  }
}
