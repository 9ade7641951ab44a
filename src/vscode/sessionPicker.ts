import * as vscode from 'vscode';
import type { ClaudeSessionSummary } from '../sessions/claudeCode';
import { counted, formatTokens, formatWhen } from '../shared/format';
import { sessionToMarkdown, type SessionStore, type SessionSummary } from '../sessions/sessionStore';


type Item = vscode.QuickPickItem & { id: string; claudeFile?: string };

export type Picked = { kind: 'threadline'; id: string } | { kind: 'claude'; file: string };

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const EXPORT: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('markdown'), tooltip: 'Export as Markdown' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete (can be undone)' };

export interface PickerHooks {
  /** A session was renamed (the panel's title follows when it is the current one). */
  onRenamed?(id: string, title: string): void;
}

/**
 * This workspace's sessions, newest first, searchable by title and when; each can be renamed,
 * exported as Markdown or deleted (with Undo). Resolves with the id to resume, if any.
 */
export async function pickSession(store: SessionStore, hooks: PickerHooks = {}, claude: readonly ClaudeSessionSummary[] = []): Promise<Picked | undefined> {
  let list: SessionSummary[] = await store.list();
  // A lost or corrupt index is rebuilt from the transcripts rather than showing nothing.
  if (!list.length) list = await store.rebuildIndex();
  if (!list.length && !claude.length) {
    void vscode.window.showInformationMessage('Threadline: no earlier sessions in this workspace yet.');
    return undefined;
  }
  const claudeItems: Item[] = claude.length
    ? [
        { label: 'Claude Code sessions in this folder (opened as a new Threadline session)', kind: vscode.QuickPickItemKind.Separator, id: '' },
        ...claude.map((c) => ({ label: c.title, description: `Claude Code · ${formatWhen(c.updatedAt)}`, detail: c.id, id: '', claudeFile: c.file })),
      ]
    : [];
  const toItems = (l: SessionSummary[]): Item[] => [
    ...l.map((s) => ({
      label: s.title,
      description: `${formatWhen(s.updatedAt)} · ${counted(s.messageCount, 'message')}${s.branch ? ` · ${s.branch}` : ''}`,
      detail: s.preview ? s.preview.slice(0, 160) : `${s.model} · ${formatTokens(s.tokens)} tokens`,
      id: s.id,
      buttons: [RENAME, EXPORT, DELETE],
    })),
    ...claudeItems,
  ];
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Threadline: Resume Session';
  qp.placeholder = 'Search sessions; the buttons rename, export or delete';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  // The chat webview may take focus as it loads; the pick must not vanish with it.
  qp.ignoreFocusOut = true;
  qp.items = toItems(list);
  const refresh = async () => {
    qp.items = toItems(await store.list());
  };
  return new Promise<Picked | undefined>((resolve) => {
    let chosen: Picked | undefined;
    qp.onDidTriggerItemButton(async ({ item, button }) => {
      try {
        if (button === RENAME) {
          const title = await vscode.window.showInputBox({ title: 'Rename session', value: item.label, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A title cannot be empty') });
          if (title === undefined) return;
          await store.rename(item.id, title);
          hooks.onRenamed?.(item.id, title.trim());
          await refresh();
        } else if (button === EXPORT) {
          const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: sessionToMarkdown(await store.load(item.id)) });
          qp.hide();
          await vscode.window.showTextDocument(doc);
        } else if (button === DELETE) {
          await store.delete(item.id);
          await refresh();
          void vscode.window.showInformationMessage(`Threadline: deleted "${item.label}".`, 'Undo').then(async (pick) => {
            if (pick === 'Undo') await store.restore(item.id);
          });
        }
      } catch (err) {
        void vscode.window.showErrorMessage(`Threadline: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      chosen = item?.claudeFile ? { kind: 'claude', file: item.claudeFile } : item?.id ? { kind: 'threadline', id: item.id } : undefined;
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(chosen);
    });
    qp.show();
  });
}
