import * as vscode from 'vscode';
import { rememberedApprovals } from '../context/includeApprovals';

// A new key: the old one held bare paths, approvals any project could reuse.
const KEY = 'threadline.approvedIncludesByFile';

/** Asks with a modal dialog; answers are kept in the editor's global state. */
export function approveExternalInclude(state: vscode.Memento): (path: string, from: string) => Promise<boolean> {
  return rememberedApprovals({ get: () => state.get<string[]>(KEY) ?? [], set: (keys) => Promise.resolve(state.update(KEY, [...keys])) }, async (path, from) => {
    const allow = 'Allow';
    const pick = await vscode.window.showWarningMessage(`Threadline: ${from} includes ${path}, which is outside this project. Use it as instructions?`, { modal: true }, allow);
    return pick === allow;
  });
}
