import type { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { ToolRegistry } from '../tools/registry';
import type { Tool } from '../tools/types';

/**
 * The session's tools with code checkpoints around them, decided by each tool's traits: a tool
 * that writes files keeps each file's content before it runs; a tool that runs commands runs
 * one command at a time, with what it changed in the workspace found afterwards. Everything
 * else about a tool (its schema, permissions, summary) is untouched.
 */
export function trackedTools(tools: ToolRegistry, checkpoints: SessionCheckpoints): ToolRegistry {
  // The built-in tools are wrapped; a source's tools (MCP) write nothing Threadline can track, and stay live.
  return tools.mapBuiltins((t) => tracked(t, checkpoints));
}

/** The same tool with another `call` (the tool stays the prototype, so a class's methods keep working). */
const withCall = (tool: Tool, call: Tool['call']): Tool => Object.assign(Object.create(tool) as Tool, { call });

function tracked(tool: Tool, checkpoints: SessionCheckpoints): Tool {
  if (tool.traits.writesFiles) {
    const by = tool.name === 'Write' || tool.name === 'Edit' ? tool.name : 'tool';
    return withCall(tool, (input, ctx) => {
      // Each path kept in turn, the call innermost: a copy that cannot be kept stops the call.
      const run = tool.paths(input, ctx.cwd).reduceRight<() => ReturnType<Tool['call']>>((inner, path) => () => checkpoints.track(path, by, inner), () => tool.call(input, ctx));
      return run();
    });
  }
  if (tool.traits.runsCommands) return withCall(tool, (input, ctx) => checkpoints.bash(() => tool.call(input, ctx)));
  return tool;
}
