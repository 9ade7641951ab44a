// How permission rules speak for tools from MCP servers, as Claude Code writes them:
//   mcp__server           every tool of the server
//   mcp__server__*        the same, written as a wildcard
//   mcp__server__tool     one tool (by the name requests carry, or its full name if that was shortened)
// A rule with a pattern (`mcp__x__y(...)`) never matches: MCP tools take no patterns.
import { serverOfRule } from '../mcp/names';
import type { Tool } from '../tools/types';

/** Whether a rule naming `ruleTool` covers this MCP tool; undefined when the tool is not an MCP tool. */
export function mcpRuleCovers(ruleTool: string, tool: Tool): boolean | undefined {
  const mcp = tool.traits.mcp;
  if (!mcp) return undefined;
  return ruleTool === tool.name || ruleTool === mcp.fullName || serverOfRule(ruleTool) === mcp.server;
}

/** The rule "Allow this server" writes: every tool of the tool's server. */
export function serverRule(tool: Tool): string | undefined {
  return tool.traits.mcp ? `mcp__${tool.traits.mcp.server}` : undefined;
}

/** Why an MCP call asks by default: its server decides what it does, whatever it claims. */
export function mcpAskReason(tool: Tool): string {
  const mcp = tool.traits.mcp!;
  return `${mcp.tool} is a tool of the MCP server ${mcp.server}, which can do whatever that server does; it asks unless a rule allows it.`;
}

/** What a headless run names to allow it. */
export function mcpAllowHint(tool: Tool, rule: (r: string) => string): string {
  const mcp = tool.traits.mcp!;
  return `allow it with ${rule(tool.name)}, or every tool of that server with ${rule(`mcp__${mcp.server}`)}`;
}
