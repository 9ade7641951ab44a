import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MessageParam } from '../api/types';
import { writeFileAtomic } from '../base/atomicFile';
import { sequential } from '../base/sequential';
import type { PermissionOutcome, Tool } from '../tools/types';
import { DEFAULT_SESSION_MEMORY_CONFIG, SESSION_MEMORY_TEMPLATE, shouldUpdateSessionMemory, type SessionMemoryConfig } from './sessionMemoryPolicy';

export const SESSION_MEMORY_FILE = 'session-memory.md';

export function sessionMemoryPath(workspaceStorageDir: string, sessionId: string): string {
  return join(workspaceStorageDir, 'sessions', sessionId, SESSION_MEMORY_FILE);
}

/** The session-memory fork may edit exactly one file and nothing else. */
export function sessionMemoryPermission(path: string, cwd: string) {
  const target = resolve(path);
  return (tool: Tool, input: unknown): PermissionOutcome => {
    const p = typeof input === 'object' && input !== null ? (input as { file_path?: unknown }).file_path : undefined;
    if (tool.name === 'Edit' && typeof p === 'string' && resolve(cwd, p) === target) return { allowed: true };
    return { allowed: false, reason: `only Edit on ${target} is allowed` };
  };
}

export const SESSION_MEMORY_PROMPT = (path: string) =>
  `Update the session notes in ${path} so that they describe this conversation as it stands now: the current task, the files in play, decisions, errors and fixes, next steps. Use the Edit tool on that file only, replacing the placeholder lines or earlier notes. Keep it factual and under about 2,000 words. Do not reply with anything else.`;

export interface SessionMemoryDeps {
  path: string;
  cwd: string;
  config?: SessionMemoryConfig;
  runUpdate(messages: MessageParam[], canUseTool: (tool: Tool, input: unknown) => PermissionOutcome): Promise<void>;
  onError?(err: unknown): void;
}

/**
 * Per-session running notes, refreshed in the background by a fork when enough has
 * happened. Compaction reads them instead of paying for a summary.
 */
export class SessionMemory {
  private tokensAtLastUpdate: number | undefined;
  private toolCallsSince = 0;
  private lastUpdatedAt: number | undefined;
  private readonly update: (messages: MessageParam[], tokens: number) => Promise<void>;

  constructor(private readonly deps: SessionMemoryDeps) {
    this.update = sequential(async (messages: MessageParam[], tokens: number) => {
      await this.ensureFile();
      await deps.runUpdate(messages, sessionMemoryPermission(deps.path, deps.cwd));
      this.tokensAtLastUpdate = tokens;
      this.toolCallsSince = 0;
      this.lastUpdatedAt = Date.now();
    });
  }

  /** After each model turn: count tool calls and start an update when the policy says so. */
  onTurn(args: { messages: readonly MessageParam[]; tokens: number; toolCalls: number }): Promise<void> | undefined {
    this.toolCallsSince += args.toolCalls;
    const go = shouldUpdateSessionMemory(
      { tokens: args.tokens, tokensAtLastUpdate: this.tokensAtLastUpdate, toolCallsSinceLastUpdate: this.toolCallsSince, naturalBreak: args.toolCalls === 0 },
      this.deps.config ?? DEFAULT_SESSION_MEMORY_CONFIG,
    );
    if (!go) return undefined;
    return this.update([...args.messages], args.tokens).catch((e: unknown) => this.deps.onError?.(e));
  }

  /** The notes if they hold more than the template, else undefined (empty or stale). */
  async read(): Promise<string | undefined> {
    const text = await fs.readFile(this.deps.path, 'utf8').catch(() => undefined);
    if (!text || text.trim() === SESSION_MEMORY_TEMPLATE.trim()) return undefined;
    return text;
  }

  get updatedAt(): number | undefined {
    return this.lastUpdatedAt;
  }

  private async ensureFile(): Promise<void> {
    try {
      await fs.access(this.deps.path);
    } catch {
      await writeFileAtomic(this.deps.path, SESSION_MEMORY_TEMPLATE);
    }
  }
}
