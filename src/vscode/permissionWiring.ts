import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { Permissions } from '../agent/permissions';
import { formatRules, readClaudeSettings, type RuleSource } from '../agent/ruleSources';
import { createToolRegistry } from '../agent/tools';
import type { ToolRegistry } from '../tools/registry';
import { readAdditionalDirectories, readPermissionSettings } from './settings';

export interface PermissionWiring {
  cwd: string;
  /** The extension's global storage: the user's VS Code settings folder holds it. */
  globalStorageDir: string;
  warn(message: string): void;
}

/**
 * One permission engine per session (its grants go with it), with Threadline's user settings,
 * Claude Code's settings files (read once per session; the project's files restrict always and
 * grant only while VS Code trusts the workspace) and the tools whose searches it scopes. An
 * untrusted workspace is also in Restricted Mode: nothing writes or executes.
 */
export function permissionsAndTools(w: PermissionWiring): { permissions: Permissions; tools: ToolRegistry } {
  let claude: RuleSource[] | undefined;
  const permissions = new Permissions(
    {
      cwd: w.cwd,
      rules: readPermissionSettings,
      rulesLabel: 'threadline.permissions (user settings)',
      trusted: () => vscode.workspace.isTrusted,
      sources: () => [
        ...(claude ??= readClaudeSettings({ cwd: w.cwd, warn: w.warn })),
        { label: 'threadline.additionalDirectories', additionalDirectories: readAdditionalDirectories() },
      ],
      // <user data>/User holds settings.json, keybindings and every extension's storage.
      protectedPaths: [dirname(dirname(w.globalStorageDir))],
    },
    w.warn,
  );
  return { permissions, tools: createToolRegistry({ searchScope: permissions }) };
}

/** The rules in force, for Show Context. */
export function permissionsReport(permissions: Permissions): string {
  const d = permissions.describeRules();
  const mode = d.defaultMode ? `\nDefault mode: ${d.defaultMode.mode} (${d.defaultMode.source})` : '';
  return `${formatRules(d.rules, d.directories, d.withheld)}${mode}`;
}
