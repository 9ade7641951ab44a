import { resolve } from 'node:path';
import type { MessageParam } from '../api/types';
import { isWithin } from '../tools/paths';
import type { PermissionOutcome, Tool } from '../tools/types';
import { memoryForkPermission } from './forkPermissions';
import { createExtractionScheduler, type ExtractionScheduler } from './extractionScheduler';
import type { MemoryDir } from './memdir';

const WRITE_TOOLS = new Set(['Write', 'Edit']);
export const EXTRACTION_MAX_TURNS = 5;
export { memoryForkPermission } from './forkPermissions';

function filePathOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const p = (input as { file_path?: unknown }).file_path;
  return typeof p === 'string' ? p : undefined;
}

/** True when an assistant message after `fromIndex` wrote into the memory folder itself. */
export function wroteToMemorySince(messages: readonly MessageParam[], fromIndex: number, memoryDir: string, cwd: string): boolean {
  for (let i = Math.max(0, fromIndex); i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_use' || !WRITE_TOOLS.has(b.name)) continue;
      const p = filePathOf(b.input);
      if (p && isWithin(memoryDir, resolve(cwd, p))) return true;
    }
  }
  return false;
}

export const EXTRACTION_PROMPT = `Look back over the conversation above and decide whether anything in it should be remembered in future conversations, following the memory instructions in the system prompt (kinds, what not to save, how to save). Most conversations hold nothing worth saving; then reply "nothing to save" and stop. Otherwise write or update the topic files in the memory folder. Do not do anything else.`;

export interface AutoMemoryDeps {
  memdir: MemoryDir;
  cwd: string;
  enabled(): boolean;
  /** Runs the extraction fork over the conversation; resolves when it has finished. */
  runExtraction(messages: MessageParam[], canUseTool: (tool: Tool, input: unknown) => PermissionOutcome): Promise<void>;
  onSaved?(names: string[]): void;
  onError?(err: unknown): void;
}

/**
 * Distils durable memories at the end of each complete query loop, in the background.
 * Skipped when the main agent already wrote to memory since the last extraction.
 */
export class AutoMemoryService {
  private cursor = 0;
  private rebuilding: Promise<void> | undefined;
  private readonly scheduler: ExtractionScheduler<MessageParam[]>;

  constructor(private readonly deps: AutoMemoryDeps) {
    this.scheduler = createExtractionScheduler((messages) => this.extract(messages), deps.onError);
  }

  /** Called after each complete loop with the whole history. */
  onLoopComplete(messages: readonly MessageParam[]): void {
    if (!this.deps.enabled()) return;
    if (wroteToMemorySince(messages, this.cursor, this.deps.memdir.dir, this.deps.cwd)) {
      this.cursor = messages.length;
      this.rebuilding = this.deps.memdir.rebuildIndex().catch((e: unknown) => this.deps.onError?.(e));
      return;
    }
    this.scheduler.request([...messages]);
  }

  async drain(): Promise<void> {
    await Promise.all([this.scheduler.drain(), this.rebuilding]);
  }

  get running(): boolean {
    return this.scheduler.running;
  }

  private async extract(messages: MessageParam[]): Promise<void> {
    const before = new Set((await this.deps.memdir.list()).valid.map((m) => `${m.name}\u0000${m.description}\u0000${m.body}`));
    await this.deps.runExtraction(messages, memoryForkPermission(this.deps.memdir.dir, this.deps.cwd));
    this.cursor = messages.length;
    await this.deps.memdir.rebuildIndex();
    const after = (await this.deps.memdir.list()).valid;
    const saved = after.filter((m) => !before.has(`${m.name}\u0000${m.description}\u0000${m.body}`)).map((m) => m.name);
    if (saved.length) this.deps.onSaved?.(saved);
  }
}
