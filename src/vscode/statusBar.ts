import * as vscode from 'vscode';
import type { AppState } from '../state/appState';
import { subscribeSelector, type Store } from '../shared/store';
import type { TokenView } from '../shared/viewState';
import { formatTokens } from '../shared/format';

export function statusText(t: TokenView): string {
  const percent = t.contextWindow > 0 ? Math.round((t.used / t.contextWindow) * 100) : 0;
  return `${formatTokens(t.used)} / ${formatTokens(t.contextWindow)} (${percent}%)`;
}

/** The context-use indicator; colours follow the token level computed in the store. */
export function createContextStatusItem(store: Store<AppState>): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('threadline.context', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Threadline Context';
  item.command = 'threadline.showContext';
  const render = (t: TokenView) => {
    const text = statusText(t);
    const icon = t.level === 'ok' ? '$(pulse)' : t.level === 'warning' ? '$(warning)' : '$(error)';
    item.text = `${icon} ${text}`;
    item.accessibilityInformation = { label: `Threadline context: ${text}`, role: 'button' };
    item.backgroundColor =
      t.level === 'warning'
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : t.level === 'error' || t.level === 'blocking'
          ? new vscode.ThemeColor('statusBarItem.errorBackground')
          : undefined;
    const tip = new vscode.MarkdownString(
      `**Threadline context**\n\n${text} of the window in use.\n\n` +
        `Warning at ${formatTokens(t.warningAt)}, auto-compact at ${formatTokens(t.autoCompactAt)}, ` +
        `new prompts blocked at ${formatTokens(t.blockingAt)}.\n\nClick to show what the context holds.`,
    );
    item.tooltip = tip;
  };
  render(store.getState().tokens);
  item.show();
  const unsubscribe = subscribeSelector(store, (s) => s.tokens, render);
  return new vscode.Disposable(() => {
    unsubscribe();
    item.dispose();
  });
}
