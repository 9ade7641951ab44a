import * as vscode from 'vscode';
import type { AppState } from '../state/appState';
import { subscribeSelector, type Store } from '../shared/store';
import type { ModelView, TokenView } from '../shared/viewState';
import { formatTokens } from '../shared/format';

function statusText(t: TokenView): string {
  const percent = t.contextWindow > 0 ? Math.round((t.used / t.contextWindow) * 100) : 0;
  return `${formatTokens(t.used)} / ${formatTokens(t.contextWindow)} (${percent}%)`;
}

/** The context-use indicator; colours follow the token level computed in the store. */
export function createContextStatusItem(store: Store<AppState>): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('threadline.context', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Threadline Context';
  item.command = 'threadline.showContext';
  const render = (t: TokenView, m: ModelView) => {
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
    // The full id: an alias alone does not say which model answers.
    const requested = m.requested !== m.id ? ` (setting: \`${m.requested}\`)` : '';
    const retires = m.lifecycle === 'deprecated' ? `, deprecated${m.retiresAt ? `, retires on ${m.retiresAt.slice(0, 10)}` : ''}` : '';
    const tip = new vscode.MarkdownString(
      `**Threadline context**\n\nModel: ${m.displayName}, \`${m.id}\`${requested}${retires}; thinking ${m.thinking ? 'on' : 'off'}.\n\n` +
        `${text} of the window in use.\n\n` +
        `Warning at ${formatTokens(t.warningAt)}, auto-compact at ${formatTokens(t.autoCompactAt)}, ` +
        `new prompts blocked at ${formatTokens(t.blockingAt)}.\n\nClick to show what the context holds.`,
    );
    item.tooltip = tip;
  };
  render(store.getState().tokens, store.getState().modelView);
  item.show();
  const unsubscribe = subscribeSelector(
    store,
    (s) => ({ tokens: s.tokens, model: s.modelView }),
    ({ tokens, model }) => render(tokens, model),
    (a, b) => a.tokens === b.tokens && a.model === b.model,
  );
  return new vscode.Disposable(() => {
    unsubscribe();
    item.dispose();
  });
}
