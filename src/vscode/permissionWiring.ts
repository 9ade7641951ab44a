import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { Permissions } from '../agent/permissions';
import { formatRules, readClaudeSettings, type RuleSource } from '../agent/ruleSources';
import { createToolRegistry } from '../agent/tools';
import type { ToolRegistry, ToolSource } from '../tools/registry';
import { readAdditionalDirectories, readPermissionSettings } from './settings';

export interface PermissionWiring {
  cwd: string;
  /** The extension's global storage: the user's VS Code settings folder holds it. */
  globalStorageDir: string;
  warn(message: string): void;
  /** The window's MCP servers: this session's tools from them, reads of results written aside, "Allow this server". */
  mcp?: { toolsetFor(sessionId: () => string): ToolSource; resultsRoot: string; saveUserRule(rule: string): Promise<void> };
  /** The session the tools are for (its results written aside are kept under its id). */
  sessionId?(): string;
}

/**
 * One permission engine per session (its grants go with it), with Threadline's user settings,
 * Claude Code's settings files (read once per session; project files only while trusted) and
 * the tools whose searches it scopes.
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
        ...(w.mcp ? [{ label: 'MCP results written aside', additionalDirectories: [w.mcp.resultsRoot] }] : []),
      ],
      // <user data>/User holds settings.json, keybindings and every extension's storage.
      protectedPaths: [dirname(dirname(w.globalStorageDir))],
      ...(w.mcp ? { saveUserRule: w.mcp.saveUserRule } : {}),
    },
    w.warn,
  );
  const tools = createToolRegistry({ searchScope: permissions });
  return { permissions, tools: w.mcp ? tools.withSource(w.mcp.toolsetFor(w.sessionId ?? (() => 'session'))) : tools };
}

/** The rules in force, for Show Context. */
export function permissionsReport(permissions: Permissions): string {
  const d = permissions.describeRules();
  const mode = d.defaultMode ? `\nDefault mode: ${d.defaultMode.mode} (${d.defaultMode.source})` : '';
  return `${formatRules(d.rules, d.directories)}${mode}`;
}
