// MCP in the VS Code face: the window's servers (started after activation, never waited for),
// the host's trust (Workspace Trust) as the folder's trust, approvals in the extension's global storage, `inputs`
// secrets in SecretStorage, "Allow this server" for this folder in the extension's global state, and the status the
// panel shows. Every server process ends with the window.
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { killProcessGroups } from '../base/processGroups';
import type { McpActions } from '../chat/chatController';
import { readMcpConfig, type McpInputSpec } from '../mcp/config/sources';
import { maxResultTokensFromEnv, McpServices, timeoutsFromEnv } from '../mcp/services';
import type { McpOAuthHost, McpOAuthState } from '../mcp/connection';
import type { McpToolset } from '../mcp/toolset';
import { authorizationPageProblem } from '../mcp/oauthPage';
import { FileApprovalStore, folderKey } from '../mcp/trust';
import { activeAllowRules, readClaudeSettings } from '../permissions/ruleSources';
import type { Host } from '../ports/host';
import type { Logger } from '../ports/logger';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import { childEnv } from '../tools/childEnv';
import { readMcpUserServers, readPermissionSettings } from './settings';
import { parseJson } from '../fs/jsonText';

export interface McpWiringDeps {
  context: vscode.ExtensionContext;
  cwd: string;
  store: Store<AppState>;
  log: Logger;
  /** Its Workspace Trust is the folder's trust, as for project settings. */
  host: Pick<Host, 'isTrusted'>;
  /** This folder's session storage: results written aside go in `tool-results/` there. */
  sessionsDir: string;
}

export interface VscodeMcp {
  services: McpServices;
  /** The MCP tools of the session being created (the previous session's view is let go). */
  toolsetFor(sessionId: () => string): McpToolset;
  actions: McpActions;
  /**
   * Remembers `rule` ("Allow this server") for this folder only: a rule names a server by its
   * name, so one in the user's settings would also let a clone's own server of that name run
   * its tools unasked.
   */
  saveServerRule(rule: string): Promise<void>;
  /** The rules "Allow this server" remembered for this folder. */
  serverRules(): string[];
  resultsRoot: string;
}

function inputAsker(context: vscode.ExtensionContext, cwd: string) {
  const folder = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
  return async (id: string, spec: McpInputSpec | undefined): Promise<string | undefined> => {
    const key = `threadline.mcp.input.${folder}.${id}`;
    const kept = await context.secrets.get(key);
    if (kept !== undefined) return kept;
    const value = await vscode.window.showInputBox({ title: `Threadline: an MCP server in .vscode/mcp.json asks for "${id}"`, prompt: spec?.description ?? id, password: spec?.password ?? true, ignoreFocusOut: true });
    if (value !== undefined) await context.secrets.store(key, value);
    return value;
  };
}

/** Signing in to a remote server: its page opens in the browser; what it saves goes to SecretStorage. */
function oauthHost(context: vscode.ExtensionContext, cwd: string): McpOAuthHost {
  const folder = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
  const key = (server: string) => `threadline.mcp.oauth.${folder}.${server}`;
  return {
    load: async (server) => {
      const v = await context.secrets.get(key(server));
      return v ? (parseJson(v) as McpOAuthState) : undefined;
    },
    save: async (server, state) => context.secrets.store(key(server), JSON.stringify(state)),
    open: async (url, server) => {
      // The provider refused other pages already; opening is the one step that must never see one.
      if (authorizationPageProblem(url)) return;
      void vscode.window.showInformationMessage(`Threadline: MCP server "${server}" asks you to sign in; its page opened in your browser.`);
      await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
    },
  };
}

/** The label rules of "Allow this server" carry in messages and in the approval. */
export const SERVER_RULES_LABEL = 'Allow this server (this folder)';

export function createMcpWiring(d: McpWiringDeps): VscodeMcp {
  const resultsRoot = join(d.sessionsDir, 'tool-results');
  const serverRulesKey = `threadline.mcp.allowedServers.${createHash('sha256').update(folderKey(d.cwd)).digest('hex').slice(0, 16)}`;
  const serverRules = () => d.context.globalState.get<string[]>(serverRulesKey) ?? [];
  const services = new McpServices({
    cwd: d.cwd,
    home: homedir(),
    env: childEnv({}),
    clientVersion: String((d.context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
    readConfig: () => readMcpConfig({ cwd: d.cwd, home: homedir(), env: process.env, userSetting: readMcpUserServers(), userSettingLabel: 'threadline.mcpServers (user settings)' }),
    trust: d.host,
    approvals: new FileApprovalStore(join(d.context.globalStorageUri.fsPath, 'mcp-approvals.json')),
    input: inputAsker(d.context, d.cwd),
    oauth: oauthHost(d.context, d.cwd),
    approveHint: () => 'approve it in the Threadline panel',
    trustHint: 'trust the folder to allow it',
    resultsRoot,
    maxResultTokens: () => vscode.workspace.getConfiguration('threadline').get<number>('mcp.maxResultTokens') || maxResultTokensFromEnv(process.env) || 25_000,
    ...timeoutsFromEnv(process.env),
    log: d.log,
    allowRules: () =>
      activeAllowRules([{ label: 'threadline.permissions (user settings)', ...readPermissionSettings() }, ...readClaudeSettings({ cwd: d.cwd }), { label: SERVER_RULES_LABEL, allow: serverRules() }], d.host.isTrusted()),
  });
  let current: McpToolset | undefined;
  let published = '';
  const publish = () => {
    const view = services.status(current);
    const json = JSON.stringify(view);
    if (json === published) return;
    published = json;
    d.store.setState((s) => ({ ...s, mcpServers: view }));
  };
  let reloadTimer: NodeJS.Timeout | undefined;
  const reloadSoon = () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => void services.manager.reload(), 300);
  };
  const files = new vscode.RelativePattern(d.cwd, '{.mcp.json,.vscode/mcp.json}');
  const watcher = vscode.workspace.createFileSystemWatcher(files);
  // The host may exit without waiting for deactivate: the servers' process groups go with it.
  const onExit = () => killProcessGroups('SIGKILL');
  process.once('exit', onExit);
  d.context.subscriptions.push(
    services,
    watcher,
    watcher.onDidChange(reloadSoon),
    watcher.onDidCreate(reloadSoon),
    watcher.onDidDelete(reloadSoon),
    { dispose: services.manager.onDidChange(publish).dispose },
    { dispose: () => process.removeListener('exit', onExit) },
    vscode.workspace.onDidGrantWorkspaceTrust(() => void services.manager.reload()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('threadline.mcpServers')) reloadSoon();
    }),
  );
  d.context.subscriptions.push(
    vscode.commands.registerCommand('threadline.resetMcpApprovals', () => resetMcpApprovals(services)),
    vscode.commands.registerCommand('threadline.showMcpServers', async () => {
      await vscode.commands.executeCommand('threadline.chat.focus');
      d.store.setState((s) => ({ ...s }));
    }),
  );
  // After activation, never before the first prompt: nothing waits for a server.
  setTimeout(() => void services.manager.start().then(publish, (err: unknown) => d.log.error('MCP servers could not start', err)), 0);
  const act = (what: string, fn: () => Promise<unknown>) =>
    fn().then(
      () => publish(),
      (err: unknown) => void vscode.window.showErrorMessage(`Threadline: could not ${what}: ${err instanceof Error ? err.message : String(err)}`),
    );
  return {
    services,
    resultsRoot,
    toolsetFor(sessionId) {
      current?.dispose();
      current = services.toolset(sessionId, () => publish());
      return current;
    },
    actions: {
      approve: (name) => act(`approve ${name}`, () => services.manager.decide(name, 'approved')),
      deny: (name) => act(`deny ${name}`, () => services.manager.decide(name, 'denied')),
      restart: (name) => act(`restart ${name}`, () => services.manager.restart(name)),
    },
    serverRules,
    async saveServerRule(rule) {
      const now = serverRules();
      if (!now.includes(rule)) await d.context.globalState.update(serverRulesKey, [...now, rule]);
    },
  };
}

/** Threadline: Reset MCP Server Approvals — the folder's project servers ask again. */
async function resetMcpApprovals(services: McpServices): Promise<void> {
  const n = await services.manager.resetApprovals();
  void vscode.window.showInformationMessage(n ? `Threadline: forgot ${n} MCP server answer${n === 1 ? '' : 's'} for this folder; those servers ask again.` : 'Threadline: no MCP server answers were remembered for this folder.');
}
