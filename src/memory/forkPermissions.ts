import { basename, extname, isAbsolute, resolve } from 'node:path';
import { isInside, relativeWithin } from '../fs/paths';
import { isLinkSync } from '../fs/stat';
import { toolPaths } from '../tools/paths';
import type { PermissionOutcome, Tool } from '../tools/types';

/** Names every agent (ours and the reference) reads as instructions, in any folder. */
const INSTRUCTION_NAMES = new Set(['claude.md', 'claude.local.md', 'agents.md']);

/**
 * Whether a path is one that later sessions obey: CLAUDE.md, CLAUDE.local.md or AGENTS.md
 * anywhere, or anything under a `.claude` folder. `below` limits the `.claude` test to the part
 * of the path under that folder (the memory folder itself may sit in ~/.claude/projects/…).
 */
export function isInstructionPath(path: string, below?: string): boolean {
  if (INSTRUCTION_NAMES.has(basename(path).toLowerCase())) return true;
  const part = (below ? relativeWithin(below, path) : undefined) ?? path;
  return part.split(/[\\/]/).some((s) => s.toLowerCase() === '.claude');
}

function stringField(input: unknown, key: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const v = (input as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

/** A glob or pattern that could reach outside the folder it is searched from. */
function escapes(pattern: string | undefined): boolean {
  return pattern !== undefined && (isAbsolute(pattern) || pattern.startsWith('~') || pattern.split(/[\\/]/).includes('..'));
}

const isLink = isLinkSync;

const READ_TOOLS = new Set(['Read', 'Grep', 'Glob']);
const WRITE_TOOLS = new Set(['Write', 'Edit']);

/**
 * The extraction fork's whole world is its memory folder: it reads there (a search must name
 * the folder, and its pattern may not climb out), and writes markdown files there, judged by
 * where they really are, never an instruction file. It asks no one: it allows or denies.
 */
export function memoryForkPermission(memoryDir: string, cwd: string) {
  const dir = resolve(memoryDir);
  return (tool: Tool, input: unknown): PermissionOutcome => {
    if (READ_TOOLS.has(tool.name)) {
      const paths = toolPaths(tool, input, cwd);
      if (tool.name !== 'Read' && stringField(input, 'path') === undefined) return { allowed: false, reason: `memory extraction searches only inside ${dir}: give it as path` };
      if (escapes(stringField(input, 'pattern')) || escapes(stringField(input, 'glob'))) return { allowed: false, reason: 'memory extraction may not search outside its folder' };
      if (paths.length && paths.every((p) => isInside(dir, p))) return { allowed: true };
      return { allowed: false, reason: `memory extraction may only read inside ${dir}` };
    }
    if (WRITE_TOOLS.has(tool.name)) {
      const p = stringField(input, 'file_path');
      if (!p) return { allowed: false, reason: 'no file_path' };
      const abs = resolve(cwd, p);
      if (!isInside(dir, abs)) return { allowed: false, reason: `memory extraction may only write inside ${dir}` };
      // A link (dangling ones too: the write would create its target) leads somewhere else.
      if (isLink(abs)) return { allowed: false, reason: `${abs} is a link; memory files are plain files` };
      if (isInstructionPath(abs, dir)) return { allowed: false, reason: `${abs} is an instruction file (CLAUDE.md, AGENTS.md or under .claude/): no background agent writes one` };
      if (extname(abs).toLowerCase() !== '.md') return { allowed: false, reason: 'memory extraction writes markdown (.md) files only' };
      return { allowed: true };
    }
    return { allowed: false, reason: `memory extraction may not use ${tool.name}` };
  };
}

/**
 * The session-notes fork may Read and Edit exactly one file, the notes, and only while that
 * path is the file itself (not a link to somewhere else) and not an instruction file.
 */
export function sessionNotesPermission(path: string, cwd: string) {
  const target = resolve(path);
  return (tool: Tool, input: unknown): PermissionOutcome => {
    const p = stringField(input, 'file_path');
    const allowedTool = tool.name === 'Edit' || tool.name === 'Read';
    if (!allowedTool || p === undefined || resolve(cwd, p) !== target) return { allowed: false, reason: `only Read and Edit on ${target} are allowed` };
    if (isInstructionPath(target)) return { allowed: false, reason: `${target} is an instruction file: no background agent writes one` };
    // A link swapped in for the notes file would send the edit elsewhere.
    if (isLink(target)) return { allowed: false, reason: `${target} is a link; the notes are not edited through it` };
    return { allowed: true };
  };
}
