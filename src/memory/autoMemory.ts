import { resolve } from 'node:path';
import type { MessageParam } from '../api/types';
import { within } from '../fs/paths';
import { coveredCount, markerFor, type CoverageMarker } from '../compact/coverage';
import type { MemoryDir } from './memdir';
import { readMarker, writeMarker } from './notesCoverage';

const WRITE_TOOLS = new Set(['Write', 'Edit']);
export const EXTRACTION_MAX_TURNS = 5;
export { memoryForkPermission } from './forkPermissions';

function filePathOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const p = (input as { file_path?: unknown }).file_path;
  return typeof p === 'string' ? p : undefined;
}

/** True when an assistant message after `fromIndex` wrote into the memory folder itself. */
function wroteToMemorySince(messages: readonly MessageParam[], fromIndex: number, memoryDir: string, cwd: string): boolean {
  for (let i = Math.max(0, fromIndex); i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_use' || !WRITE_TOOLS.has(b.name)) continue;
      const p = filePathOf(b.input);
      if (p && within(memoryDir, resolve(cwd, p))) return true;
    }
  }
  return false;
}

export const EXTRACTION_PROMPT = `Look back over the conversation above and decide whether anything in it should be remembered in future conversations, following the memory instructions in the system prompt (kinds, what not to save, how to save). Most conversations hold nothing worth saving; then reply "nothing to save" and stop. Otherwise write or update the topic files in the memory folder. Do not do anything else.`;

/**
 * Prompts a standalone extraction waits for when session notes are kept (after the session's
 * first): the extraction otherwise rides along with the next notes update, in the same request.
 * What the main agent is asked to remember it writes itself (its prompt has the memory rules).
 */
export const EXTRACT_EVERY_PROMPTS = 3;

export interface AutoMemoryDeps {
  memdir: MemoryDir;
  cwd: string;
  enabled(): boolean;
  /** Where this session records how far extraction has read (next to its notes); none: kept in memory. */
  coveragePath?: string;
  /** Prompts a standalone extraction waits for (1: after every complete loop). */
  everyPrompts?: number;
  onSaved?(names: string[]): void;
  onError?(err: unknown): void;
}

/**
 * Distils durable memories from the conversation in the background, in a fork run by the
 * caller (TurnEndWork). This class decides when one is worth running and reads what it did.
 * Skipped when the main agent already wrote to memory since the last extraction.
 */
export class AutoMemoryService {
  /** The history the last finished extraction read; the coverage record before that. */
  private seen: CoverageMarker | undefined;
  private loaded = false;
  private rebuilding: Promise<void> | undefined;

  constructor(private readonly deps: AutoMemoryDeps) {}

  get dir(): string {
    return this.deps.memdir.dir;
  }

  /**
   * At the end of a complete loop: whether an extraction is worth running now. `ridesAlong`:
   * a notes update goes out anyway, so the extraction costs only its instruction and answer.
   */
  async isDue(messages: readonly MessageParam[], ridesAlong: boolean): Promise<boolean> {
    if (!this.deps.enabled()) return false;
    const from = await this.from(messages);
    if (wroteToMemorySince(messages, from, this.deps.memdir.dir, this.deps.cwd)) {
      this.seen = markerFor(messages);
      await this.save();
      this.rebuilding = this.deps.memdir.rebuildIndex().catch((e: unknown) => this.deps.onError?.(e));
      return false;
    }
    const prompts = userPrompts(messages, from);
    // A session's first extraction runs at once, so a one-prompt session is read too.
    return prompts > 0 && (ridesAlong || this.seen === undefined || prompts >= (this.deps.everyPrompts ?? 1));
  }

  /** The valid memories before a run, to tell what it saved. */
  async snapshot(): Promise<Set<string>> {
    return new Set((await this.deps.memdir.list()).valid.map(key));
  }

  /** True when a call wrote inside the memory folder. */
  isMemoryWrite(name: string, input: unknown): boolean {
    const p = filePathOf(input);
    return WRITE_TOOLS.has(name) && p !== undefined && within(this.deps.memdir.dir, resolve(this.deps.cwd, p));
  }

  /**
   * After a run: `done` when the fork answered (whatever it wrote or said, it has read these
   * messages); otherwise, a request that failed, the next extraction reads them again.
   */
  async record(messages: readonly MessageParam[], before: Set<string>, done: boolean): Promise<void> {
    if (done) {
      this.seen = markerFor(messages);
      await this.save();
    }
    await this.deps.memdir.rebuildIndex();
    const saved = (await this.deps.memdir.list()).valid.filter((m) => !before.has(key(m))).map((m) => m.name);
    if (saved.length) this.deps.onSaved?.(saved);
  }

  async drain(): Promise<void> {
    await this.rebuilding;
  }

  private async from(messages: readonly MessageParam[]): Promise<number> {
    if (!this.loaded) {
      this.loaded = true;
      this.seen ??= this.deps.coveragePath ? await readMarker(this.deps.coveragePath) : undefined;
    }
    return this.seen ? coveredCount(messages, this.seen) : 0;
  }

  private async save(): Promise<void> {
    if (this.deps.coveragePath && this.seen) await writeMarker(this.deps.coveragePath, this.seen).catch((e: unknown) => this.deps.onError?.(e));
  }
}

const key = (m: { name: string; description: string; body: string }) => `${m.name}\u0000${m.description}\u0000${m.body}`;

/** User messages with text of their own (prompts, not tool results or reminders) from `from` on. */
function userPrompts(messages: readonly MessageParam[], from: number): number {
  let n = 0;
  for (let i = Math.max(0, from); i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string' ? m.content.trim() : m.content.some((b) => b.type === 'text' && b.text.trim() && !b.text.startsWith('<system-reminder'))) n++;
  }
  return n;
}
