// The MCP services of one CLI run: servers from --mcp-config and the files users have, the
// folder's trust (the run's host decides it, as for project settings), approvals in the user's
// state folder, results under the folder's sessions.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { printable } from '../base/printable';
import { readMcpConfig, type McpConfigResult } from '../mcp/config/sources';
import { maxResultTokensFromEnv, McpServices, timeoutsFromEnv } from '../mcp/services';
import { FileOAuthStore } from '../mcp/oauthStore';
import { FileApprovalStore, serverGrants } from '../mcp/trust';
import type { WithheldGrant } from '../permissions/projectTrust';
import { activeAllowRules, readClaudeSettings } from '../permissions/ruleSources';
import type { Host } from '../ports/host';
import { cliSessionsDir, cliStateDir } from '../sessions/paths';
import { childEnv } from '../tools/childEnv';
import type { McpToolset } from '../mcp/toolset';
import type { McpServerView } from '../shared/mcpView';
import type { McpArgs } from './args';
import type { CliIo } from './io';

/** How to trust a folder from the CLI, for the messages of servers held back. */
const CLI_TRUST_HINT = 'threadline trust, or --trust for one run';

const approvalsFor = (env: NodeJS.ProcessEnv) => new FileApprovalStore(join(cliStateDir(env), 'mcp-approvals.json'));

/** Every server this run could use, read once: its flags' files and the files users already have. */
export function readCliMcpConfig(cwd: string, mcp: McpArgs, env: NodeJS.ProcessEnv): Promise<McpConfigResult> {
  return readMcpConfig({ cwd, home: env.HOME || homedir(), env, flagConfigs: mcp.configs, strict: mcp.strict });
}

/** The folder's own servers that trusting it would start: part of what the trust question and notice name. */
export function mcpTrustGrants(cwd: string, config: McpConfigResult, env: NodeJS.ProcessEnv): Promise<WithheldGrant[]> {
  return serverGrants(config.servers, approvalsFor(env), cwd);
}

/**
 * The run's servers. `config` is the read the run already made (for its trust question): the
 * first start uses it instead of reading the files again; later reloads read them afresh.
 */
export function cliMcpServices(cwd: string, mcp: McpArgs, env: NodeJS.ProcessEnv, version: string, host: Pick<Host, 'isTrusted'>, io?: CliIo, config?: McpConfigResult): McpServices {
  const home = env.HOME || homedir();
  const oauth = new FileOAuthStore(join(cliStateDir(env), 'mcp-oauth.json'), cwd);
  let first = config;
  // Claude Code's settings files, whose allow rules a project server's approval names when they cover its tools.
  const claude = readClaudeSettings({ cwd, env, home });
  return new McpServices({
    cwd,
    home,
    env: childEnv({}, env),
    clientVersion: version,
    readConfig: () => {
      const read = first;
      first = undefined;
      return read ? Promise.resolve(read) : readCliMcpConfig(cwd, mcp, env);
    },
    trust: host,
    approvals: approvalsFor(env),
    approveHint: (name) => `threadline mcp approve ${name}`,
    trustHint: CLI_TRUST_HINT,
    resultsRoot: join(cliSessionsDir(cwd, env), 'tool-results'),
    // A terminal has no browser to open: the sign-in page is printed, and the server waits for it.
    oauth: { load: (s) => oauth.load(s), save: (s, st) => oauth.save(s, st), open: (url, server) => io?.err(`threadline: MCP server "${printable(server)}" asks you to sign in; open ${printable(url.href)}\n`) },
    maxResultTokens: () => maxResultTokensFromEnv(env) ?? 25_000,
    allowRules: () => activeAllowRules(claude, host.isTrusted()),
    ...timeoutsFromEnv(env),
  });
}

/** Starts the run's servers (not waiting for them) and says on stderr what will not start, and why. */
export async function startCliMcp(services: McpServices, io: CliIo, after?: Promise<unknown>): Promise<void> {
  await services.manager.start(after ? { after } : {});
  // Names and messages come from config files: printable, so a newline in a name cannot forge a line.
  for (const p of services.manager.problems()) io.err(`threadline: MCP config ${printable(p.source)}: ${printable(p.message)}\n`);
  for (const s of services.manager.status()) {
    if (s.state === 'awaiting-approval' || s.state === 'disabled') io.err(`threadline: MCP server "${printable(s.name)}" is not started: ${printable(s.detail)}\n`);
  }
}

/**
 * Opens when the answer to the run's first request begins (so the request is out), or after two
 * seconds whatever happens: the servers spawn while the model thinks, instead of taking CPU
 * from the request's own start. A call to a server before then waits for it, as for any server
 * still starting.
 */
export function firstRequestGate(): { after: Promise<void>; open(): void } {
  let open!: () => void;
  const after = new Promise<void>((resolve) => (open = resolve));
  setTimeout(open, 2000).unref();
  return { after, open: () => open() };
}

/** Results written aside live outside the workspace: Read may open them without asking. */
export function mcpResultsSource(services: McpServices): { label: string; additionalDirectories: string[] } {
  return { label: 'MCP results written aside', additionalDirectories: [services.resultsRoot] };
}

/** Bad --mcp-config files are a usage error: the run says which and stops before sending anything. */
export function usage(errors: readonly string[], io: CliIo): number {
  for (const e of errors) io.err(`threadline: ${printable(e)} (see --help)\n`);
  return 2;
}

/**
 * For reports (`threadline context`): the servers started and waited for (each within its
 * connect timeout), a session's view of their tools, and `close()`, which ends them and returns
 * their status as it was.
 */
export async function settledMcp(services: McpServices, io: CliIo): Promise<{ tools: McpToolset; close(): Promise<McpServerView[]> }> {
  await startCliMcp(services, io);
  await services.manager.settled(services.manager.connectTimeoutMs + 1000);
  const tools = services.toolset(() => 'context');
  return {
    tools,
    close: async () => {
      const status = services.status(tools);
      await services.shutdown();
      return status;
    },
  };
}
