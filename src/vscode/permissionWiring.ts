import { dirname } from 'node:path';
import { Permissions } from '../agent/permissions';
import { formatRules, readClaudeSettings, type RuleSource } from '../agent/ruleSources';
import { createToolRegistry } from '../agent/tools';
import type { Host } from '../ports/host';
import type { ToolRegistry } from '../tools/registry';
import { readAdditionalDirectories, readPermissionSettings } from './settings';

export interface PermissionWiringOptions {
  cwd: string;
  /** The extension's global storage: the user's VS Code settings folder holds it. */
  globalStorageDir: string;
  /** Trust decides whether the project's own settings files count; a bad rule is told. */
  host: Pick<Host, 'isTrusted' | 'notify'>;
}

/**
 * One permission engine per session (its grants go with it); the open session's engine answers
 * Show Context's question about the rules in force.
 */
export class SessionPermissions {
  private current: Permissions | undefined;

  constructor(private readonly w: PermissionWiringOptions) {}

  /** A new session's engine and the tools whose searches it scopes. */
  forSession(): { permissions: Permissions; tools: ToolRegistry } {
    const made = permissionsAndTools(this.w);
    this.current = made.permissions;
    return made;
  }

  /** The open session's rules (none before its first agent). */
  describeRules(): ReturnType<Permissions['describeRules']> | undefined {
    return this.current?.describeRules();
  }

  /** The rules in force, for Show Context. */
  report(): string {
    return this.current ? permissionsReport(this.current) : '';
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
      ],
      // <user data>/User holds settings.json, keybindings and every extension's storage.
      protectedPaths: [dirname(dirname(w.globalStorageDir))],
    },
    warn,
  );
  return { permissions, tools: createToolRegistry({ searchScope: permissions }) };
}

function permissionsReport(permissions: Permissions): string {
  const d = permissions.describeRules();
  const mode = d.defaultMode ? `\nDefault mode: ${d.defaultMode.mode} (${d.defaultMode.source})` : '';
  return `${formatRules(d.rules, d.directories, d.withheld)}${mode}`;
}
