// One session's view of the MCP tools: what each request offers. Definitions join in the order
// servers become ready and never move once sent, so the cached prefix of later requests holds.
// When all of them would take more than a tenth of the window, the session switches (once) to
// deferred loading: the model gets their names and ToolSearch, and the definitions it loads (or
// calls directly) join the list from then on, compaction or not.
import type { MessageParam } from '../api/types';
import type { IDisposable } from '../base/lifecycle';
import { estimateTokens } from '../conversation/tokens';
import type { ToolDefinition, ToolSource } from '../tools/registry';
import type { Tool } from '../tools/types';
import type { McpManager } from './manager';
import { normalizeName, toolNames } from './names';
import type { ResultLimits } from './results';
import { TOOL_SEARCH, toolSearchTool, type SearchDoc } from './search';
import type { McpServer } from './server';
import { describeTool, mcpTool, type McpInput } from './tool';

/** Above this share of the window, MCP definitions are deferred (sent as names plus ToolSearch). */
const DEFER_SHARE = 0.1;

export interface McpToolsetOptions {
  manager: McpManager;
  /** Where this session writes results too large for the conversation, and the cap. */
  limits(): ResultLimits;
  deferShare?: number;
  /** The session switched to deferred loading (the status view shows it). */
  onDeferred?(): void;
}

interface Entry {
  tool: Tool;
  def: ToolDefinition;
  server: McpServer;
  doc: SearchDoc;
}

export class McpToolset implements ToolSource, IDisposable {
  /** Names whose full definitions are sent, in the order they first were. */
  private offered: string[] = [];
  /** Tools the model loaded or called: kept when deferral starts, and through every compaction. */
  private readonly loaded = new Set<string>();
  private deferredMode = false;
  /** The last definition sent for each name, so a server that went away does not shrink the list. */
  private readonly lastDefs = new Map<string, ToolDefinition>();
  private entries: Map<string, Entry> | undefined;
  private readonly sub: IDisposable;
  private readonly search: Tool;

  constructor(private readonly opts: McpToolsetOptions) {
    this.sub = opts.manager.onDidChange(() => (this.entries = undefined));
    this.search = toolSearchTool({ docs: () => this.docs(), load: (names) => this.load(names) }) as unknown as Tool;
  }

  /** Whether this session has switched to names plus ToolSearch. */
  get deferred(): boolean {
    return this.deferredMode;
  }

  /** The tools of every server that has listed its tools, by request name (kept while one reconnects). */
  private current(): Map<string, Entry> {
    if (this.entries) return this.entries;
    const out = new Map<string, Entry>();
    const limits = () => this.opts.limits();
    for (const server of this.opts.manager.servers()) {
      if (server.state !== 'running' && !(server.state === 'failed' || server.state === 'starting')) continue;
      const names = toolNames(server.name, server.tools.map((t) => t.name));
      for (const info of [...server.tools].sort((a, b) => a.name.localeCompare(b.name))) {
        const name = names.get(info.name)!;
        // A project server loads code when a tool is called: what it runs is checked against its approval first (pass 96 H1, H3).
        const tool = mcpTool({ server, name, info, limits, toolTimeoutMs: this.opts.manager.toolTimeoutMs, beforeCall: () => this.opts.manager.recheck(server.name) }) as unknown as Tool;
        const def = { name, description: tool.description, input_schema: tool.inputSchema };
        out.set(name, { tool, def, server, doc: { name, server: normalizeName(server.name), tool: info.name, description: describeTool(info) } });
      }
    }
    return (this.entries = out);
  }

  private docs(): SearchDoc[] {
    return [...this.current().values()].map((e) => e.doc);
  }

  /** ToolSearch chose these: their definitions go out from the next request on. */
  load(names: readonly string[]): string[] {
    const fresh = names.filter((n) => !this.loaded.has(n));
    for (const n of fresh) this.loaded.add(n);
    return fresh;
  }

  tools(): readonly Tool[] {
    const tools = [...this.current().values()].map((e) => e.tool);
    return this.deferredMode ? [this.search, ...tools] : tools;
  }

  get(name: string): Tool | undefined {
    if (name === TOOL_SEARCH) return this.deferredMode ? this.search : undefined;
    const e = this.current().get(name);
    if (e) return e.tool;
    return this.pending(name);
  }

  /**
   * A call to a server that has not listed its tools yet (it is still starting, or reconnecting):
   * the first request went out without waiting for it, so the model may know the tool from an
   * earlier session. The call waits for the server, then finds the tool by its name.
   */
  private pending(name: string): Tool | undefined {
    const server = this.opts.manager.servers().find((s) => name.startsWith(`mcp__${normalizeName(s.name)}__`) && (s.state === 'starting' || s.state === 'failed'));
    if (!server) return undefined;
    const toolPart = name.slice(`mcp__${normalizeName(server.name)}__`.length);
    const find = () => this.current().get(name)?.tool;
    const tool: Tool<McpInput> = {
      name,
      description: '',
      inputSchema: { type: 'object' },
      traits: { compactable: true, mcp: { server: normalizeName(server.name), tool: toolPart, fullName: name } },
      parse: (input) => (typeof input === 'object' && input !== null && !Array.isArray(input) ? { ok: true, value: input as McpInput } : { ok: false, error: 'the input must be a JSON object' }),
      isReadOnly: () => false,
      summarize: (input) => `${toolPart} on ${server.name} ${JSON.stringify(input).slice(0, 100)}`,
      paths: () => [],
      call: async (input, ctx) => {
        await server.whenReady(this.opts.manager.connectTimeoutMs);
        this.entries = undefined;
        const real = find();
        if (!real) return { content: server.state === 'running' ? `MCP server "${server.name}" has no tool ${toolPart}.` : `MCP server "${server.name}" is not running: ${server.status().detail}`, isError: true };
        const parsed = real.parse(input);
        if (!parsed.ok) return { content: `Invalid input for ${name}: ${parsed.error}`, isError: true };
        return real.call(parsed.value, ctx);
      },
    };
    return tool as unknown as Tool;
  }

  definitions(history: readonly MessageParam[], ctx: { contextWindow: number }): ToolDefinition[] {
    const current = this.current();
    // A tool the model called (also from before a resume) counts as loaded.
    for (const m of history) {
      if (m.role !== 'assistant' || typeof m.content === 'string') continue;
      for (const b of m.content) if (b.type === 'tool_use' && current.has(b.name)) this.loaded.add(b.name);
    }
    if (!this.deferredMode && ctx.contextWindow > 0) {
      const all = estimateTokens([...current.values()].map((e) => e.def));
      if (all > (this.opts.deferShare ?? DEFER_SHARE) * ctx.contextWindow) {
        this.deferredMode = true;
        // The switch rewrites the cached prefix once; what was never used goes with it.
        this.offered = this.offered.filter((n) => this.loaded.has(n));
        this.opts.onDeferred?.();
      }
    }
    const joining = this.deferredMode ? [...this.loaded] : [...current.keys()];
    for (const n of joining) if (!this.offered.includes(n) && current.has(n)) this.offered.push(n);
    const defs: ToolDefinition[] = [];
    for (const n of this.offered) {
      const def = current.get(n)?.def ?? this.lastDefs.get(n);
      if (!def) continue;
      this.lastDefs.set(n, def);
      defs.push(def);
    }
    if (!this.deferredMode) return defs;
    return [{ name: TOOL_SEARCH, description: this.search.description, input_schema: this.search.inputSchema }, ...defs];
  }

  categoryOf(name: string): string | undefined {
    if (name === TOOL_SEARCH) return 'MCP tool search (deferred tool names)';
    const server = this.current().get(name)?.server.name ?? (this.lastDefs.has(name) ? name.split('__')[1] : undefined);
    return server ? `MCP tools: ${server}` : undefined;
  }

  /** A call that may have changed the workspace (a write, a command) has running project servers checked again. */
  async afterCalls(calls: ReadonlyArray<{ tool: Tool }>): Promise<void> {
    // Another server's tool may write the workspace too (an fs server's write).
    if (calls.some((c) => c.tool.traits.writesFiles || c.tool.traits.runsCommands || c.tool.traits.mcp)) await this.opts.manager.workspaceChanged();
  }

  dispose(): void {
    this.sub.dispose();
  }
}
