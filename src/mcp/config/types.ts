// What a configured MCP server is, wherever it was written. Kept free of Node and the SDK so
// the status view's types and the tests can use it alone.

/**
 * Who wrote the server down, highest precedence first. `flag`: --mcp-config (the user named the
 * file); `local`: the user's own per-project entry in ~/.claude.json; `project`: a file in the
 * workspace (.mcp.json, .vscode/mcp.json), which the workspace's author wrote; `user`: the
 * user's own settings (Threadline's setting, ~/.claude.json).
 */
export type McpScope = 'flag' | 'local' | 'project' | 'user';

export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** One server as its file defines it, strings not yet expanded. */
export interface McpServerSpec {
  transport: McpTransportKind;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** `"disabled": true` (Cline, Roo): listed, never started. */
  disabled?: boolean;
  /** A remote server's OAuth client registered beforehand (Claude Code's `oauth`), instead of registering one. */
  oauth?: { clientId?: string; clientSecret?: string; callbackPort?: number };
}

export interface McpServerConfig {
  /** The name the file gives it (shown as written; tool names carry its normalised form). */
  name: string;
  scope: McpScope;
  /** Where it was read: ".mcp.json", "~/.claude.json", "--mcp-config servers.json". */
  source: string;
  spec: McpServerSpec;
  /** The definition as written (sha-256 of its JSON): an approval holds for this exact definition. */
  hash: string;
  /** Entries of lower precedence with the same name, which this one replaced whole. */
  shadows: string[];
  /** The entry cannot be used, and why (it still takes its name). */
  invalid?: string;
}

/** A file that could not be used, said once where the servers are listed. */
export interface McpConfigProblem {
  source: string;
  message: string;
}

export interface McpConfigSet {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
}

/** A server's spec with every `${…}` replaced: what is started. */
export interface ResolvedSpec extends McpServerSpec {
  transport: McpTransportKind;
}

/** Scopes whose servers the workspace grants itself: they start only in a trusted folder. */
export function needsTrust(scope: McpScope): boolean {
  return scope === 'project' || scope === 'local';
}

/** Scopes whose servers also need the user's approval of that server, once. */
export function needsApproval(scope: McpScope): boolean {
  return scope === 'project';
}

/**
 * The folder a stdio server starts in when its entry names none. Only a server the workspace
 * grants itself (trusted, and approved for a project file) runs in the workspace. One the user
 * brought (their settings, --mcp-config) starts in their home folder: started in a clone, `npx`
 * would take the clone's node_modules and .npmrc, and `python -m` the clone's modules, so
 * opening a repository would run its code through the user's own servers.
 */
export function startFolder(scope: McpScope, folders: { workspace: string; home: string }): string {
  return needsTrust(scope) ? folders.workspace : folders.home;
}
