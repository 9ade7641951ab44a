// The syntax of a permission rule, as Claude Code writes them, so users' rules carry over.
import { GlobSyntaxError, globToRegExp } from '../tools/glob';

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
  const tool = TOOL_ALIASES[m[1]!] ?? m[1]!;
  // A file rule's pattern is compiled here, so that one no glob can be made of is said at load
  // (and skipped, as a typo is), not thrown at the first file judged (pass 33 A4).
  if (pattern && FILE_TOOLS.has(tool)) {
    try {
      globToRegExp(pattern.replace(/^(\/\/|~\/|\/)/, '') || '**');
    } catch (err) {
      if (err instanceof GlobSyntaxError) throw new RuleSyntaxError(`${source}: ${err.message}; the rule is ignored`);
      throw err;
    }
  }
  return { tool, pattern: pattern === '' || pattern === '*' ? undefined : pattern, source };
}

/**
 * Claude Code's names for tools that Threadline's Edit and Read do the work of: a rule written for
 * them (`MultiEdit(config/**)` in a deny list) holds for those, rather than being listed and
 * matching no tool (pass 64 L3).
 */
const TOOL_ALIASES: Readonly<Record<string, string>> = { MultiEdit: 'Edit', NotebookEdit: 'Edit', NotebookRead: 'Read' };

/** Tools whose rules name files by a glob. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['Read', 'Edit', 'Write', 'Grep', 'Glob', 'NotebookEdit', 'MultiEdit']);
