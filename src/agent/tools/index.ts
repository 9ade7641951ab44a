import { ToolRegistry } from '../../tools/registry';
import type { Tool } from '../../tools/types';
import { bashTool } from './bash';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { readTool } from './read';
import { writeTool } from './write';

export { bashTool, editTool, globTool, grepTool, readTool, writeTool };

/** The agent's tools in the order the model sees them. Each is typed on its own input; the list erases that. */
export function createTools(): Tool[] {
  return [readTool, writeTool, editTool, bashTool, grepTool, globTool] as unknown as Tool[];
}

/** The built-in tools as a registry: a new tool is a file in this folder and a line above. */
export function createToolRegistry(): ToolRegistry {
  return new ToolRegistry(createTools());
}
