import { ToolRegistry } from '../registry';
import type { Tool } from '../types';
import type { SearchScope } from '../walk';
import { bashTool } from './bash';
import { editTool } from './edit';
import { createGlobTool, globTool } from './glob';
import { createGrepTool, grepTool } from './grep';
import { readTool } from './read';
import { writeTool } from './write';

export { bashTool, globTool, grepTool, readTool };

export interface ToolOptions {
  /** Which files Grep and Glob may show (the permission engine's read rules); default: only under the searched folder. */
  searchScope?: SearchScope;
}

/** The agent's tools in the order the model sees them. Each is typed on its own input; the list erases that. */
export function createTools(opts: ToolOptions = {}): Tool[] {
  const scope = opts.searchScope;
  const grep = scope ? createGrepTool(scope) : grepTool;
  const glob = scope ? createGlobTool(scope) : globTool;
  return [readTool, writeTool, editTool, bashTool, grep, glob] as unknown as Tool[];
}

/** The built-in tools as a registry: a new tool is a file in this folder and a line above. */
export function createToolRegistry(opts: ToolOptions = {}): ToolRegistry {
  return new ToolRegistry(createTools(opts));
}
