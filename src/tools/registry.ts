import type { MessageParam } from '../api/types';
import type { Tool, ToolTraits } from './types';

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Tool['inputSchema'];
}

/** The one question micro-compaction asks of a set of tool names (a live answer, not a snapshot). */
export interface NameSet {
  has(name: string): boolean;
}

/**
 * Tools that come and go while a session runs (MCP servers start, stop, change their lists).
 * The registry asks the source on every lookup and every request, so a server that became
 * ready between two requests is offered in the second.
 */
export interface ToolSource {
  /** Every tool it can run now, the ones whose definitions are not sent too. */
  tools(): readonly Tool[];
  /** A tool by name, also one not listed yet (a call to a server that is still starting). */
  get(name: string): Tool | undefined;
  /**
   * The definitions to send after the built-in ones, for a request with this history. The order
   * only ever grows at the end, so the cached prefix of earlier requests holds.
   */
  definitions(history: readonly MessageParam[], ctx: { contextWindow: number }): ToolDefinition[];
  /** The Context view's category for one of its definitions ("MCP tools: github"). */
  categoryOf(name: string): string | undefined;
  /** After one answer's tool calls ran: a source whose programs run workspace code hears of calls that may have changed it. */
  afterCalls?(calls: ReadonlyArray<{ tool: Tool }>): Promise<void>;
}

/**
 * The tools of one agent, in the order the model sees them, with questions about them answered
 * from each tool's traits. Adding a tool means adding it to the list its host builds; nothing
 * here or in the services names a tool. Sources (MCP) add tools that arrive while it runs.
 */
export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, Tool>;

  constructor(
    readonly builtins: readonly Tool[],
    private readonly sources: readonly ToolSource[] = [],
  ) {
    this.byName = new Map(builtins.map((t) => [t.name, t]));
    if (this.byName.size !== builtins.length) throw new Error('two tools share a name');
  }

  /** Every tool that can run now: the built-in ones, then what the sources have. */
  get tools(): readonly Tool[] {
    return this.sources.length ? [...this.builtins, ...this.sources.flatMap((s) => s.tools())] : this.builtins;
  }

  get(name: string): Tool | undefined {
    const own = this.byName.get(name);
    if (own) return own;
    for (const s of this.sources) {
      const t = s.get(name);
      if (t) return t;
    }
    return undefined;
  }

  has(trait: keyof ToolTraits, name: string): boolean {
    return Boolean(this.get(name)?.traits[trait]);
  }

  /** Names of the tools with this trait, asked at each use (tools from sources join later). */
  names(trait: keyof ToolTraits): NameSet {
    return { has: (name) => this.has(trait, name) };
  }

  /** A registry of the tools background agents may use: reading, and writing where their checks allow. */
  forBackground(): ToolRegistry {
    return new ToolRegistry(this.builtins.filter((t) => t.traits.background !== undefined));
  }

  /** The same registry with each built-in tool replaced by `fn`'s version of it; the sources stay. */
  mapBuiltins(fn: (tool: Tool) => Tool): ToolRegistry {
    return new ToolRegistry(this.builtins.map(fn), this.sources);
  }

  with(extra: readonly Tool[]): ToolRegistry {
    return new ToolRegistry([...this.builtins, ...extra], this.sources);
  }

  /** The same tools with another source after the others (the MCP servers of a session). */
  /** Tells every source what one answer's tool calls were (see ToolSource.afterCalls). */
  async afterCalls(calls: ReadonlyArray<{ tool: Tool }>): Promise<void> {
    for (const s of this.sources) await s.afterCalls?.(calls);
  }

  withSource(source: ToolSource): ToolRegistry {
    return new ToolRegistry(this.builtins, [...this.sources, source]);
  }

  definitions(history: readonly MessageParam[] = [], ctx: { contextWindow: number } = { contextWindow: 0 }): ToolDefinition[] {
    const own = this.builtins.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    return this.sources.length ? [...own, ...this.sources.flatMap((s) => s.definitions(history, ctx))] : own;
  }

  /** Which Context-view category a definition counts under: a source's own, else "Tools". */
  categoryOf(name: string): string {
    for (const s of this.sources) {
      const c = s.categoryOf(name);
      if (c) return c;
    }
    return 'Tools';
  }
}
