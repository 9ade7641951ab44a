import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { knownStateFolders, rememberStateFolder } from '../sessions/stateFolders';
import { readDeniedBy } from '../agent/deniedFileResults';
import { Permissions } from '../permissions/permissions';
import { formatRules, readClaudeSettings, type RuleSource } from '../permissions/ruleSources';
import { createToolRegistry } from '../tools/builtin';
import type { Host } from '../ports/host';
import type { ToolRegistry, ToolSource } from '../tools/registry';
import { readAdditionalDirectories, readPermissionSettings } from './settings';
import { SERVER_RULES_LABEL } from './mcpWiring';

export interface PermissionWiringOptions {
  cwd: string;
  /** The extension's global storage: the user's VS Code settings folder holds it. */
  globalStorageDir: string;
  /** Trust decides whether the project's own settings files count; a bad rule is told. */
  host: Pick<Host, 'isTrusted' | 'notify'>;
  /** The window's MCP servers: this session's tools from them, reads of results written aside, "Allow this server". */
  mcp?: { toolsetFor(sessionId: () => string): ToolSource; resultsRoot: string; saveServerRule(rule: string): Promise<void>; serverRules(): string[] };
  /** The session the tools are for (its results written aside are kept under its id). */
  sessionId?(): string;
}

/**
 * One permission engine per session (its grants go with it); the open session's engine answers
 * Show Context's question about the rules in force.
 */
export class SessionPermissions {
  private current: { permissions: Permissions; tools: ToolRegistry } | undefined;

  constructor(private readonly w: PermissionWiringOptions) {}

  /** A new session's engine and the tools whose searches it scopes. */
  forSession(): { permissions: Permissions; tools: ToolRegistry } {
    const made = permissionsAndTools(this.w);
    this.current = made;
    return made;
  }

  /** Whether the open session's Read deny rules cover `path` (none before its first agent). */
  readDenied(path: string): boolean {
    return this.current ? readDeniedBy(this.current.permissions, this.current.tools)(path) : false;
  }

  /** The open session's rules (none before its first agent). */
  describeRules(): ReturnType<Permissions['describeRules']> | undefined {
    return this.current?.permissions.describeRules();
  }

  /** The rules in force, for Show Context. */
  report(): string {
    return this.current ? permissionsReport(this.current.permissions) : '';
  }
}

/**
 * A permission engine with Threadline's user settings, Claude Code's settings files (read once
 * per session; the project's files restrict always and grant only while VS Code trusts the
 * workspace, which is otherwise in Restricted Mode: nothing writes or executes) and the tools
 * whose searches it scopes.
 */
function permissionsAndTools(w: PermissionWiringOptions): { permissions: Permissions; tools: ToolRegistry } {
  let claude: RuleSource[] | undefined;
  // Listed where every Threadline looks, so that each denies reads of this one's checkpoint copies.
  void rememberStateFolder(w.globalStorageDir, homedir());
  const warn = (message: string) => w.host.notify('warning', `a permission rule in settings is ignored: ${message}`);
  const permissions = new Permissions(
    {
      cwd: w.cwd,
      rules: readPermissionSettings,
      rulesLabel: 'threadline.permissions (user settings)',
      trusted: () => w.host.isTrusted(),
      sources: () => [
        ...(claude ??= readClaudeSettings({ cwd: w.cwd, warn })),
        { label: 'threadline.additionalDirectories', additionalDirectories: readAdditionalDirectories() },
        ...(w.mcp ? [{ label: 'MCP results written aside', additionalDirectories: [w.mcp.resultsRoot] }, { label: SERVER_RULES_LABEL, allow: w.mcp.serverRules() }] : []),
      ],
      // <user data>/User holds settings.json, keybindings and every extension's storage.
      protectedPaths: [dirname(dirname(w.globalStorageDir))],
      stateFolders: () => knownStateFolders(homedir()),
      ...(w.mcp ? { saveServerRule: w.mcp.saveServerRule } : {}),
    },
    warn,
  );
  const tools = createToolRegistry({ searchScope: permissions });
  return { permissions, tools: w.mcp ? tools.withSource(w.mcp.toolsetFor(w.sessionId ?? (() => 'session'))) : tools };
}

function permissionsReport(permissions: Permissions): string {
  const d = permissions.describeRules();
  const mode = d.defaultMode ? `\nDefault mode: ${d.defaultMode.mode} (${d.defaultMode.source})` : '';
  return `${formatRules(d.rules, d.directories, d.withheld)}${mode}`;
}
