import * as vscode from 'vscode';
import type { HistoryActions } from '../chat/chatController';
import type { SessionDriver } from '../sessions/sessionDriver';
import type { SessionAgent } from '../sessions/sessionAgent';
import { sessionToMarkdown, type SessionStore } from '../sessions/sessionStore';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';

/** Opens the panel on its history list, filled once the sessions are read. */
export async function showHistoryPanel(manager: Pick<SessionDriver<SessionAgent>, 'list'>, store: Store<AppState>): Promise<void> {
  store.setState((st) => ({ ...st, history: [] }));
  const items = await manager.list();
  store.setState((st) => ({ ...st, history: items }));
  await vscode.commands.executeCommand('threadline.chat.focus');
}

/** The panel's history list, with VS Code's own input box, toasts and editors for the actions. */
export function historyActions(manager: Pick<SessionDriver<SessionAgent>, 'list' | 'resume' | 'rename' | 'sessionId'>, sessions: SessionStore, store: Store<AppState>): HistoryActions {
  const refresh = async () => {
    if (store.getState().history === null) return;
    const items = await manager.list();
    store.setState((s) => ({ ...s, history: items }));
  };
  return {
    list: () => manager.list(),
    resume: async (id) => {
      try {
        await manager.resume(id);
      } catch (err) {
        void vscode.window.showErrorMessage(`Threadline: could not open that session: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    rename: async (id) => {
      const current = (await sessions.list()).find((e) => e.id === id);
      const title = await vscode.window.showInputBox({ title: 'Rename session', value: current?.title ?? '', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A title cannot be empty') });
      if (title === undefined) return;
      await manager.rename(id, title.trim());
      await refresh();
    },
    remove: async (id) => {
      if (id === manager.sessionId) {
        void vscode.window.showInformationMessage('Threadline: this is the open session; start a new session before deleting it.');
        return;
      }
      const title = (await sessions.list()).find((e) => e.id === id)?.title ?? id;
      await sessions.delete(id);
      await refresh();
      void vscode.window.showInformationMessage(`Threadline: deleted "${title}".`, 'Undo').then(async (pick) => {
        if (pick !== 'Undo') return;
        await sessions.restore(id);
        await refresh();
      });
    },
    exportMarkdown: async (id) => {
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: sessionToMarkdown(await sessions.load(id)) });
      await vscode.window.showTextDocument(doc, { preview: false });
    },
  };
}
