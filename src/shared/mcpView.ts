// What the panel's MCP view and `threadline mcp list` show of each server. Host and webview both
// import this file, so it may depend on nothing but the language itself.

export type McpServerState = 'starting' | 'running' | 'failed' | 'disabled' | 'awaiting-approval' | 'stopped';

export interface McpServerView {
  name: string;
  /** Who defined it: flag (--mcp-config), local (your entry for this project), project (a file in the workspace), user. */
  scope: 'flag' | 'local' | 'project' | 'user';
  /** The file it was read from. */
  source: string;
  transport: 'stdio' | 'http' | 'sse';
  /** What it runs, as written (before variables are filled in, so no secret shows): a command line or a URL. */
  target: string;
  state: McpServerState;
  /** Why it is disabled or failed, or what it reported when it started. */
  detail: string;
  /** The last lines of what a local server wrote to stderr. */
  logTail?: string;
  /** Tools it offers (0 until it runs). */
  tools: number;
  /** Tokens its tool definitions take when all are sent. */
  tokens: number;
  /** Its definitions are deferred: the model sees their names and loads them through ToolSearch. */
  deferred?: boolean;
}
