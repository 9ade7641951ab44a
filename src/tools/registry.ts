import type { Tool, ToolTraits } from './types';

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Tool['inputSchema'];
}

/**
 * The tools of one agent, in the order the model sees them, with questions about them answered
 * from each tool's traits. Adding a tool means adding it to the list its host builds; nothing
 * here or in the services names a tool.
 */
export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, Tool>;

  constructor(readonly tools: readonly Tool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    if (this.byName.size !== tools.length) throw new Error('two tools share a name');
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  has(trait: keyof ToolTraits, name: string): boolean {
    return Boolean(this.byName.get(name)?.traits[trait]);
  }

  /** Names of the tools with this trait (for the services that only see names in history). */
  names(trait: keyof ToolTraits): ReadonlySet<string> {
    return new Set(this.tools.filter((t) => t.traits[trait]).map((t) => t.name));
  }

  /** A registry of the tools background agents may use: reading, and writing where their checks allow. */
  forBackground(): ToolRegistry {
    return new ToolRegistry(this.tools.filter((t) => t.traits.background !== undefined));
  }

  with(extra: readonly Tool[]): ToolRegistry {
    return new ToolRegistry([...this.tools, ...extra]);
  }

  definitions(): ToolDefinition[] {
    return this.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  }
}
