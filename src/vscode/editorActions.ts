import * as vscode from 'vscode';
import type { EditorActions } from '../chat/chatController';
import { resolveOpenable } from '../chat/openablePath';

/** What the panel asks of the editor: open a file a tool card names, insert a code block at the cursor. */
export function createEditorActions(): EditorActions {
  return {
    async openFile(path, line) {
      const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
      const target = await resolveOpenable(roots, path);
      if (!target.ok) {
        void vscode.window.showInformationMessage(`Threadline: cannot open this file: ${target.reason}.`);
        return;
      }
      const at = line ? new vscode.Position(line - 1, 0) : undefined;
      await vscode.window.showTextDocument(vscode.Uri.file(target.file), { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
    },
    async insertText(text) {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (!editor) {
        void vscode.window.showInformationMessage('Threadline: open a file first, then Insert puts the code at its cursor.');
        return;
      }
      await editor.edit((edit) => {
        for (const selection of editor.selections) edit.replace(selection, text);
      });
    },
  };
}
