import * as vscode from 'vscode';

const KEY = 'threadline.approvedIncludes';

/**
 * An instruction file pulling in a file from outside the project is a way to smuggle
 * instructions in: ask once per file, remember the answer in global state.
 */
export function approveExternalInclude(state: vscode.Memento): (path: string, from: string) => Promise<boolean> {
  const approved = new Set(state.get<string[]>(KEY) ?? []);
  return async (path, from) => {
    if (approved.has(path)) return true;
    const allow = 'Allow';
    const pick = await vscode.window.showWarningMessage(`Threadline: ${from} includes ${path}, which is outside this project. Use it as instructions?`, { modal: true }, allow);
    if (pick !== allow) return false;
    approved.add(path);
    await state.update(KEY, [...approved]);
    return true;
  };
}
