import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { contextWindowOverride } from '../conversation/thresholds';
import { getDefaultSettings, type AppSettings } from '../state/appState';
import { USER_ONLY_SETTINGS } from './userOnlySettings';

export interface PermissionSettings {
  allow: string[];
  ask: string[];
  deny: string[];
}

type UserOnly = (typeof USER_ONLY_SETTINGS)[number];

/** The user's own value of a user-only setting (globalValue of inspect()), else its default. */
function userValue<T>(key: UserOnly): T | undefined {
  const i = vscode.workspace.getConfiguration('threadline').inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue;
}

export function readSettings(): AppSettings {
  const c = vscode.workspace.getConfiguration('threadline');
  const d = getDefaultSettings();
  const base = userValue<unknown>('apiBaseUrl');
  return {
    model: c.get<string>('model')?.trim() || d.model,
    apiBaseUrl: typeof base === 'string' ? base.trim() : d.apiBaseUrl,
    contextWindow: contextWindowOverride(c.get<unknown>('contextWindow')),
    autoCompact: c.get<boolean>('autoCompact') ?? d.autoCompact,
    microCompact: c.get<boolean>('microCompact') ?? d.microCompact,
    thinking: c.get<string>('thinking') === 'off' ? 'off' : d.thinking,
  };
}

/** `threadline.permissionNotification`: ask in a notification too while the panel is hidden. */
export function readPermissionNotification(): boolean {
  return userValue<unknown>('permissionNotification') === true;
}

/** `threadline.reviewEdits`: open a pending Write/Edit in the diff editor at once, or only offer it. */
export function readReviewEdits(): 'open' | 'offer' {
  return vscode.workspace.getConfiguration('threadline').get<string>('reviewEdits') === 'offer' ? 'offer' : 'open';
}

function stringList(key: UserOnly): string[] {
  const v = userValue<unknown>(key);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function readPermissionSettings(): PermissionSettings {
  return { allow: stringList('permissions.allow'), ask: stringList('permissions.ask'), deny: stringList('permissions.deny') };
}

/** `threadline.additionalDirectories`: absolute folders (or `~/…`); others are ignored. */
export function readAdditionalDirectories(): string[] {
  return stringList('additionalDirectories')
    .map((d) => d.trim())
    .map((d) => (d === '~' || d.startsWith('~/') ? join(homedir(), d.slice(1)) : d))
    .filter((d) => isAbsolute(d));
}

/** `threadline.mcpServers`: the user's own MCP servers, in Claude Code's form (user settings only: they run programs). */
export function readMcpUserServers(): unknown {
  return userValue<unknown>('mcpServers');
}

export function readMaxTurns(): number {
  return Math.max(1, vscode.workspace.getConfiguration('threadline').get<number>('maxTurns') ?? 50);
}

export function readMemorySettings(): { enabled: boolean; directory: string; sessionMemory: boolean } {
  const c = vscode.workspace.getConfiguration('threadline');
  const dir = userValue<unknown>('memoryDirectory');
  const enabled = userValue<unknown>('autoMemory');
  return {
    enabled: typeof enabled === 'boolean' ? enabled : true,
    directory: typeof dir === 'string' ? dir.trim() : '',
    sessionMemory: c.get<boolean>('sessionMemory') ?? true,
  };
}
