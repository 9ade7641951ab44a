// What a face builds once and hands to its sessions: the servers (one manager for the host
// session), a tool source per chat session, and where large results go.
import { join } from 'node:path';
import { newId } from '../base/ids';
import type { IDisposable } from '../base/lifecycle';
import type { McpServerView } from '../shared/mcpView';
import { writeResultFile } from './files';
import { McpManager, type McpManagerOptions } from './manager';
import { DEFAULT_MAX_RESULT_TOKENS } from './results';
import { McpToolset } from './toolset';

export interface McpServicesOptions extends McpManagerOptions {
  /** The folder of this workspace's session storage; results written aside go under it, per session. */
  resultsRoot: string;
  /** The cap on one result, in tokens (default 25,000; `MAX_MCP_OUTPUT_TOKENS` or the setting). */
  maxResultTokens?(): number;
}

/** `MAX_MCP_OUTPUT_TOKENS`, as Claude Code reads it; anything but a positive whole number is ignored. */
export function maxResultTokensFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const n = Number(env.MAX_MCP_OUTPUT_TOKENS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `MCP_TIMEOUT` (connect) and `MCP_TOOL_TIMEOUT` (one call), in milliseconds, as Claude Code reads them. */
export function timeoutsFromEnv(env: NodeJS.ProcessEnv): { connectTimeoutMs?: number; toolTimeoutMs?: number } {
  const ms = (v: string | undefined) => {
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  };
  const connect = ms(env.MCP_TIMEOUT);
  const tool = ms(env.MCP_TOOL_TIMEOUT);
  return { ...(connect ? { connectTimeoutMs: connect } : {}), ...(tool ? { toolTimeoutMs: tool } : {}) };
}

export class McpServices implements IDisposable {
  readonly manager: McpManager;
  private readonly toolsets = new Set<McpToolset>();

  constructor(private readonly opts: McpServicesOptions) {
    this.manager = new McpManager(opts);
  }

  /** Where results written aside live: the Read tool may read here without asking. */
  get resultsRoot(): string {
    return this.opts.resultsRoot;
  }

  /** The MCP tools of one chat session; `sessionId` names its folder of results written aside. */
  toolset(sessionId: () => string, onDeferred?: () => void): McpToolset {
    const set = new McpToolset({
      manager: this.manager,
      ...(onDeferred ? { onDeferred } : {}),
      limits: () => ({
        maxTokens: this.opts.maxResultTokens?.() ?? DEFAULT_MAX_RESULT_TOKENS,
        writeAside: (text) => writeResultFile(join(this.opts.resultsRoot, sessionId()), newId('mcp'), text),
      }),
    });
    this.toolsets.add(set);
    const dispose = set.dispose.bind(set);
    set.dispose = () => {
      this.toolsets.delete(set);
      dispose();
    };
    return set;
  }

  /** Each server as the status view shows it; `deferred` as the given session sees it. */
  status(session?: McpToolset): McpServerView[] {
    return this.manager.status().map((s) => (session?.deferred && s.state === 'running' ? { ...s, deferred: true } : s));
  }

  dispose(): void {
    for (const t of [...this.toolsets]) t.dispose();
    this.manager.dispose();
  }

  /** Ends every server and waits for their processes to go (the CLI, before it exits). */
  async shutdown(): Promise<void> {
    for (const t of [...this.toolsets]) t.dispose();
    await this.manager.shutdown();
  }
}
