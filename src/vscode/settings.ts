import * as vscode from 'vscode';
import { getDefaultSettings, type AppSettings } from '../state/appState';

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
    thinking: c.get<string>('thinking') === 'off' ? 'off' : d.thinking,
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

export function readMemorySettings(): { enabled: boolean; directory: string; sessionMemory: boolean } {
  const c = vscode.workspace.getConfiguration('threadline');
  return {
    enabled: c.get<boolean>('autoMemory') ?? true,
    directory: c.get<string>('memoryDirectory')?.trim() ?? '',
    sessionMemory: c.get<boolean>('sessionMemory') ?? true,
  };
}
