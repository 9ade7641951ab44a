import { resolve } from 'node:path';

import type { Tool } from './types';

class ToolPathError extends Error {}

/**
 * The model's path made absolute and normalized: relative paths resolve against the workspace.
 * `~` is not expanded (a shell would, a file API does not); NUL bytes are refused. Where the path
 * really is, and whether that is inside anything, is the file-system gate's question (src/fs/).
 */
export function resolveToolPath(cwd: string, p: string): string {
  if (p.includes('\0') || cwd.includes('\0')) throw new ToolPathError('the path contains a NUL byte');
  return resolve(cwd, p);
}

/** The paths a call touches; a tool that cannot say (bad input) touches none. */
export function toolPaths(tool: Tool, input: unknown, cwd: string): string[] {
  try {
    return tool.paths(input, cwd);
  } catch {
    return [];
  }
}
