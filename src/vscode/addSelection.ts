import * as vscode from 'vscode';
import { addAttachment } from '../chat/attachments';
import type { AppState } from '../state/appState';
import type { Store } from '../shared/store';

/**
 * "Add Selection to Threadline": the active editor's selection (the cursor's line when nothing is
 * selected) goes to the composer as a chip, with its path and lines; the panel comes forward.
 */
export function registerAddSelection(store: Store<AppState>): vscode.Disposable {
  return vscode.commands.registerCommand('threadline.addSelection', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Threadline: select some code in an editor first.');
      return;
    }
    const sel = editor.selection;
    // A selection that ends at the start of a line does not include that line.
    const endLine = sel.end.line > sel.start.line && sel.end.character === 0 ? sel.end.line - 1 : sel.end.line;
    const range = sel.isEmpty ? editor.document.lineAt(sel.active.line).range : new vscode.Range(sel.start.line, 0, endLine, editor.document.lineAt(endLine).text.length);
    const text = editor.document.getText(sel.isEmpty ? range : sel);
    const refused = addAttachment(store, {
      kind: 'selection',
      path: vscode.workspace.asRelativePath(editor.document.uri, false),
      startLine: range.start.line + 1,
      endLine: range.end.line + 1,
      text,
    });
    if (refused) void vscode.window.showWarningMessage(`Threadline: not attached: ${refused}.`);
    await vscode.commands.executeCommand('threadline.chat.focus');
  });
}
