// The syntax of a permission rule, as Claude Code writes them, so users' rules carry over.

export interface ParsedRule {
  tool: string;
  /** undefined: every call of the tool. */
  pattern: string | undefined;
  source: string;
  /** Session grants name one exact command or path, never a pattern. */
  exact?: boolean;
  /** Where the rule was written: a settings file, a flag. */
  origin?: string;
  /** What a `/path` pattern is relative to (default: the workspace). */
  root?: string;
}

export class RuleSyntaxError extends Error {}

// `mcp__server__*` is the one name with a wildcard (every tool of an MCP server).
const RULE = /^([A-Za-z_][\w-]*(?:__\*)?)(?:\((.*)\))?$/s;

/** `Tool` or `Tool(pattern)`. */
export function parseRule(source: string): ParsedRule {
  const m = RULE.exec(source.trim());
  if (!m) throw new RuleSyntaxError(`not a permission rule: ${JSON.stringify(source)} (expected Tool or Tool(pattern))`);
  const pattern = m[2]?.trim();
  return { tool: m[1]!, pattern: pattern === '' || pattern === '*' ? undefined : pattern, source };
}
