import { join } from 'node:path';
import * as vscode from 'vscode';
import { MEMORY_TYPES, type MemoryDir } from '../memory/memdir';

type Item = vscode.QuickPickItem & { file?: string; name?: string };

/**
 * "Open Memory": every memory grouped by type, to open (and edit) or delete; files with
 * broken frontmatter are listed too, never hidden.
 */
export async function showMemory(memdir: MemoryDir | undefined, enabled: boolean): Promise<void> {
  if (!memdir) {
    void vscode.window.showInformationMessage(enabled ? 'Threadline: memory is not ready yet.' : 'Threadline: auto memory is off (threadline.autoMemory).');
    return;
  }
  const deleteButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this memory' };
  const build = async (): Promise<Item[]> => {
    const { valid, invalid } = await memdir.list();
    const items: Item[] = [];
    for (const type of MEMORY_TYPES) {
      const of = valid.filter((m) => m.type === type);
      if (!of.length) continue;
      items.push({ label: type, kind: vscode.QuickPickItemKind.Separator });
      for (const m of of) items.push({ label: m.name, description: m.description, file: join(memdir.dir, m.file), name: m.name, buttons: [deleteButton] });
    }
    if (invalid.length) {
      items.push({ label: 'invalid (fix or delete)', kind: vscode.QuickPickItemKind.Separator });
      for (const m of invalid) items.push({ label: `$(warning) ${m.file}`, description: m.reason, file: join(memdir.dir, m.file) });
    }
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    items.push({ label: '$(folder-opened) Open the memory folder', description: memdir.dir, file: '' });
    return items;
  };
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Threadline: Memory';
  qp.placeholder = 'Open a memory to read or edit it; the trash button deletes it';
  qp.matchOnDescription = true;
  qp.items = await build();
  if (qp.items.filter((i) => i.name).length === 0) qp.placeholder = 'No memories yet: Threadline saves them as it learns your preferences';
  qp.onDidTriggerItemButton(async (e) => {
    if (!e.item.name) return;
    const ok = await vscode.window.showWarningMessage(`Delete the memory "${e.item.name}"?`, { modal: true }, 'Delete');
    if (ok === 'Delete') {
      await memdir.remove(e.item.name);
      qp.items = await build();
    }
  });
  qp.onDidAccept(async () => {
    const item = qp.selectedItems[0];
    qp.hide();
    if (!item || item.file === undefined) return;
    if (item.file === '') {
      await openFolder(memdir.dir);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(item.file));
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
}

/**
 * Shows the memory folder where this editor can: in the Explorer when it lies inside the
 * workspace, in the system's file manager on a local desktop; elsewhere (VS Code in a browser,
 * code-server, a remote window: no file manager of this machine to reveal it in, and the command
 * fails or does nothing) it says where the folder is, with Copy Path and Open in New Window.
 */
async function openFolder(dir: string): Promise<void> {
  const uri = vscode.Uri.file(dir);
  if (vscode.workspace.getWorkspaceFolder(uri)) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  let failure = '';
  if (vscode.env.uiKind === vscode.UIKind.Desktop && vscode.env.remoteName === undefined) {
    try {
      await vscode.commands.executeCommand('revealFileInOS', uri);
      return;
    } catch (err) {
      failure = ` (the file manager could not be opened: ${err instanceof Error ? err.message : String(err)})`;
    }
  }
  const choice = await vscode.window.showInformationMessage(`Threadline: the memory folder is ${dir}${failure}.`, 'Copy Path', 'Open in New Window');
  if (choice === 'Copy Path') await vscode.env.clipboard.writeText(dir);
  else if (choice === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
}
