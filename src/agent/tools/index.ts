import { bashTool } from './bash';
import { editTool } from './edit';
import { globTool } from './globTool';
import { grepTool } from './grep';
import { readTool } from './read';
import type { Tool } from './types';
import { writeTool } from './write';

export const READ_ONLY_TOOL_NAMES: ReadonlySet<string> = new Set(['Read', 'Grep', 'Glob']);

/** The agent's tools, as one list; each is typed on its own input, erased here. */
export function createTools(): Tool[] {
  return [readTool, writeTool, editTool, bashTool, grepTool, globTool] as unknown as Tool[];
}
