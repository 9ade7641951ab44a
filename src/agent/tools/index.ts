import { bashTool } from './bash';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { readTool } from './read';
import type { Tool } from '../../tools/types';
import { writeTool } from './write';

export { bashTool, editTool, globTool, grepTool, readTool, writeTool };

/** Tools that never change anything: they may run in parallel and, by default, without asking. */
export const READ_ONLY_TOOL_NAMES: ReadonlySet<string> = new Set([readTool.name, grepTool.name, globTool.name]);

/** The agent's tools in the order the model sees them. Each is typed on its own input; the list erases that. */
export function createTools(): Tool[] {
  return [readTool, writeTool, editTool, bashTool, grepTool, globTool] as unknown as Tool[];
}
