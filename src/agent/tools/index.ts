import { bashTool } from './bash';
import { editTool } from './edit';
import { createGlobTool, globTool } from './glob';
import { createGrepTool, grepTool } from './grep';
import { readTool } from './read';
import type { Tool } from '../../tools/types';
import type { SearchScope } from '../../tools/walk';
import { writeTool } from './write';

export { bashTool, editTool, globTool, grepTool, readTool, writeTool };

/** Tools that never change anything: they may run in parallel and, by default, without asking. */
export const READ_ONLY_TOOL_NAMES: ReadonlySet<string> = new Set([readTool.name, grepTool.name, globTool.name]);

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
