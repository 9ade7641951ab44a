import { createHash } from 'node:crypto';

/** The API's limit on a tool name (`^[a-zA-Z0-9_-]{1,64}$`). */
const MAX_TOOL_NAME = 64;
const HASH_CHARS = 8;

/** A server or tool name in the characters tool names may hold; anything else becomes `_`. */
export function normalizeName(name: string): string {
  const n = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return n || '_';
}

/**
 * Whether two server names are one name as far as tools and rules go: the same once normalised
 * (`my.db`, `my_db`: both answer `mcp__my_db__*` and the rule `mcp__my_db`), or one's tool
 * names read as the other's (`a` with a tool `b__c`, and `a__b` with a tool `c`, both give
 * `mcp__a__b__c`). The clash checks between configured servers ask this, never the raw names.
 */
export function serverNamesClash(a: string, b: string): boolean {
  const x = normalizeName(a);
  const y = normalizeName(b);
  return x === y || x.startsWith(`${y}__`) || y.startsWith(`${x}__`);
}

/** `mcp__server__tool`, as Claude Code names them, before any shortening. */
export function fullToolName(server: string, tool: string): string {
  return `mcp__${normalizeName(server)}__${normalizeName(tool)}`;
}

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_CHARS);
}

/**
 * The names the model sees for one server's tools. A name over 64 characters keeps as much of
 * its start as fits and ends in a hash of the server's and the tool's own names, so it is the
 * same in every session and never makes a request fail. Two tools whose names normalise alike
 * (`get.item`, `get_item`) are told apart the same way.
 */
export function toolNames(server: string, tools: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  // Sorted, so which of two colliding names keeps the plain form does not depend on list order.
  for (const tool of [...new Set(tools)].sort()) {
    const full = fullToolName(server, tool);
    let name = full.length <= MAX_TOOL_NAME ? full : `${full.slice(0, MAX_TOOL_NAME - HASH_CHARS - 1)}_${shortHash(server, tool)}`;
    if (taken.has(name)) name = `${full.slice(0, MAX_TOOL_NAME - HASH_CHARS - 1)}_${shortHash(server, tool)}`;
    taken.add(name);
    out.set(tool, name);
  }
  return out;
}

/** The server part of an `mcp__server…` name as rules write it (`mcp__server`, `mcp__server__*`), or undefined. */
export function serverOfRule(ruleTool: string): string | undefined {
  const m = /^mcp__([A-Za-z0-9_-]+?)(?:__\*)?$/.exec(ruleTool);
  if (!m) return undefined;
  // `mcp__a__b` names a tool, not a server: only the bare and the wildcard forms name servers.
  return ruleTool.endsWith('__*') || !m[1]!.includes('__') ? m[1] : undefined;
}

/** An allow rule and where it is written ("~/.claude/settings.json"). */
export interface NamedRule {
  rule: string;
  source: string;
}

/**
 * The rules that speak for tools of a server of this name, as the permission engine matches
 * them (mcpRuleCovers): `mcp__db`, `mcp__db__*` and `mcp__db__tool` all name tools of any server
 * called `db`, whichever folder the rule was written for.
 */
export function rulesNamingServer(server: string, rules: readonly NamedRule[]): NamedRule[] {
  const n = normalizeName(server);
  return rules.filter(({ rule }) => {
    // A pattern other than `*` never matches an MCP tool (they take none); `(*)` and `()` mean the whole tool.
    const m = /^([^()]*)(?:\(\*?\))?$/.exec(rule.trim());
    if (!m) return false;
    const tool = m[1]!;
    return serverOfRule(tool) === n || tool.startsWith(`mcp__${n}__`);
  });
}
