import * as vscode from 'vscode';
import { getDefaultSettings, type AppSettings } from '../state/appState';
import { userLevelSetting } from '../memory/paths';

export interface PermissionSettings {
  allow: string[];
  ask: string[];
  deny: string[];
}

export function readSettings(): AppSettings {
  const c = vscode.workspace.getConfiguration('threadline');
  const d = getDefaultSettings();
  return {
    model: c.get<string>('model')?.trim() || d.model,
    apiBaseUrl: c.get<string>('apiBaseUrl')?.trim() ?? d.apiBaseUrl,
    contextWindow: Math.max(0, c.get<number>('contextWindow') ?? 0),
    autoCompact: c.get<boolean>('autoCompact') ?? d.autoCompact,
    microCompact: c.get<boolean>('microCompact') ?? d.microCompact,
  };
}

export function readPermissionSettings(): PermissionSettings {
  const c = vscode.workspace.getConfiguration('threadline.permissions');
  const list = (key: string) => (c.get<unknown[]>(key) ?? []).filter((x): x is string => typeof x === 'string');
  return { allow: list('allow'), ask: list('ask'), deny: list('deny') };
}

export function readMaxTurns(): number {
  return Math.max(1, vscode.workspace.getConfiguration('threadline').get<number>('maxTurns') ?? 50);
}

export function readMemorySettings(): { enabled: boolean; directory: string; ignoredWorkspaceDirectory: boolean; sessionMemory: boolean } {
  const c = vscode.workspace.getConfiguration('threadline');
  // The user's own value only (the setting is machine-scoped, and a workspace value is never
  // read even if an older VS Code lets one through): a background agent writes there.
  const dir = userLevelSetting(c.inspect<string>('memoryDirectory'));
  return {
    enabled: c.get<boolean>('autoMemory') ?? true,
    directory: dir.value,
    ignoredWorkspaceDirectory: dir.ignoredWorkspaceValue,
    sessionMemory: c.get<boolean>('sessionMemory') ?? true,
  };
}
