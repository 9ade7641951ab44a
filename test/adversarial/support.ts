// Helpers for the adversarial findings: real tools, real permissions, real bash, real files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions, type PermissionRules } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool, ToolResult } from '../../src/tools/types';
import type { SearchScope } from '../../src/tools/walk';

export const bashTool = createTools().find((t) => t.name === 'Bash') as Tool;

export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `tl-adv-${tag}-`));
}

/** A workspace with `src/` beside a home holding a key (`.ssh/id_rsa`) and a `.bashrc`: what deny rules guard. */
export function workspaceWithHome(tag: string): { root: string; ws: string; home: string } {
  const root = realpathSync(tempDir(tag));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n');
  writeFileSync(join(home, '.bashrc'), 'mine\n');
  return { root, ws, home };
}

/** The permission engine as the agent builds it, with its own shell parser; the CLI's, in a trusted folder unless told. */
export function bashEngine(cwd: string, rules: Partial<PermissionRules>, checker = new BashChecker(), { trusted = true, home }: { trusted?: boolean; home?: string } = {}) {
  const permissions = new Permissions({ cwd, rules: () => ({ allow: [], ask: [], deny: [], ...rules }), trusted: () => trusted, restrictedMode: () => false, bash: checker, ...(home ? { home } : {}) });
  return {
    permissions,
    decide: (command: string) => permissions.decide({ tool: bashTool, input: { command } }),
  };
}

let parser: Promise<BashChecker> | undefined;
/** One shell parser for a test file's engines, loaded once. */
export function loadedChecker(): Promise<BashChecker> {
  return (parser ??= (async () => {
    const checker = new BashChecker();
    await checker.ready();
    return checker;
  })());
}

/**
 * The engine as the agent's broker uses it: parser loaded and `ready()` awaited before it decides
 * (in an untrusted folder that is when it looks for nested repositories).
 */
export async function readyEngine(cwd: string, rules: Partial<PermissionRules>, opts: { trusted?: boolean } = {}) {
  const engine = bashEngine(cwd, rules, await loadedChecker(), opts);
  await engine.permissions.ready();
  return engine;
}

/** Runs a command with the real Bash tool, as the agent would once a call is allowed. */
export async function runBash(cwd: string, command: string): Promise<ToolResult> {
  const parsed = bashTool.parse({ command });
  if (!parsed.ok) throw new Error(parsed.error);
  return bashTool.call(parsed.value, { cwd, signal: new AbortController().signal });
}

/** What one built-in tool answers, parsed and called as the agent does, with `scope` judging what searches find. */
export async function callTool(scope: SearchScope, name: string, input: unknown, cwd: string): Promise<string> {
  const tool = createTools({ searchScope: scope }).find((t) => t.name === name)!;
  const parsed = tool.parse(input);
  if (!parsed.ok) throw new Error(parsed.error);
  return (await tool.call(parsed.value, { cwd, signal: new AbortController().signal })).content;
}

/** Whether a program is installed here: a test that shows a danger for real runs only where it can. */
export function hasProgram(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
