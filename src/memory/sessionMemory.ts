import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MessageParam } from '../api/types';
import { writeFileAtomic } from '../base/atomicFile';
import { sequential } from '../base/sequential';
import { coveredCount, markerFor } from '../compact/coverage';
import type { PermissionOutcome, Tool } from '../tools/types';
import { sessionNotesPermission } from './forkPermissions';
import { notesEditOutcome, readNotesCoverage, writeNotesCoverage } from './notesCoverage';
import { DEFAULT_SESSION_MEMORY_CONFIG, SESSION_MEMORY_TEMPLATE, shouldUpdateSessionMemory, type SessionMemoryConfig } from './sessionMemoryPolicy';

export const SESSION_MEMORY_FILE = 'session-memory.md';

export function sessionMemoryPath(workspaceStorageDir: string, sessionId: string): string {
  return join(workspaceStorageDir, 'sessions', sessionId, SESSION_MEMORY_FILE);
}

/** The session-notes fork may Read and Edit exactly one file and nothing else. */
export { sessionNotesPermission as sessionMemoryPermission } from './forkPermissions';

/**
 * The notes agent's instructions, with the notes as they are now: it edits by exact text, so
 * it must see that text (a real model guessing the template's wording fails its edits).
 */
export const SESSION_MEMORY_PROMPT = (path: string, notes: string) =>
  [
    `Update the session notes in ${path} so that they describe this conversation as it stands now: the current task, the files in play, decisions, errors and fixes, next steps.`,
    'The file as it is now is between the <current-notes> tags below. Change it with the Edit tool on that file only: old_string must be copied exactly from that text and occur in it once; replace the placeholder lines or earlier notes. You may Read the file to check it.',
    'Keep it factual and under about 2,000 words. Do not reply with anything else.',
    '',
    `<current-notes path="${path}">`,
    notes,
    '</current-notes>',
  ].join('\n');

/** What the notes fork did: its own history (tool calls and their results) and how it ended. */
export interface NotesForkOutcome {
  messages: MessageParam[];
  outcome: string;
}

export interface SessionMemoryDeps {
  path: string;
  cwd: string;
  config?: SessionMemoryConfig;
  runUpdate(messages: MessageParam[], notes: string, canUseTool: (tool: Tool, input: unknown) => PermissionOutcome): Promise<NotesForkOutcome | void>;
  onError?(err: unknown): void;
}

export class NotesUpdateError extends Error {}

/**
 * Per-session running notes, refreshed in the background by a fork when enough has happened.
 * Compaction reads them instead of paying for a summary, but only as far as the last
 * successful update reached (its coverage marker); a failed update leaves them untrusted.
 */
export class SessionMemory {
  private tokensAtLastUpdate: number | undefined;
  private toolCallsSince = 0;
  private lastUpdatedAt: number | undefined;
  private readonly update: (messages: MessageParam[], tokens: number) => Promise<void>;

  constructor(private readonly deps: SessionMemoryDeps) {
    this.update = sequential(async (messages: MessageParam[], tokens: number) => {
      await this.ensureFile();
      const notes = await fs.readFile(deps.path, 'utf8');
      const out = await deps.runUpdate(messages, notes, sessionNotesPermission(deps.path, deps.cwd));
      this.tokensAtLastUpdate = tokens;
      this.toolCallsSince = 0;
      if (!out) return; // the fork did not run (no API key): nothing changed
      const target = resolve(deps.path);
      const { succeeded, failed } = notesEditOutcome(out.messages, target, (p) => resolve(deps.cwd, p));
      if (failed.length || out.outcome === 'error') {
        const why = failed[0] ?? `the update request failed (${out.outcome})`;
        await writeNotesCoverage(deps.path, { v: 1, failed: why, at: Date.now() });
        throw new NotesUpdateError(`The session notes update failed (${why.slice(0, 200)}); the notes are not used for compaction until an update succeeds.`);
      }
      if (succeeded > 0) {
        await writeNotesCoverage(deps.path, { v: 1, marker: markerFor(messages), updatedAt: Date.now() });
        this.lastUpdatedAt = Date.now();
      }
    });
  }

  /**
   * After each model turn: `toolCalls` made by that turn, `naturalBreak` when it made none
   * (the model finished a piece of work). Starts an update when the policy says so.
   */
  onTurn(args: { messages: readonly MessageParam[]; tokens: number; toolCalls: number; naturalBreak: boolean }): Promise<void> | undefined {
    this.toolCallsSince += args.toolCalls;
    const go = shouldUpdateSessionMemory(
      { tokens: args.tokens, tokensAtLastUpdate: this.tokensAtLastUpdate, toolCallsSinceLastUpdate: this.toolCallsSince, naturalBreak: args.naturalBreak },
      this.deps.config ?? DEFAULT_SESSION_MEMORY_CONFIG,
    );
    if (!go) return undefined;
    // The count is taken now, not when the update runs: tokens keep growing meanwhile.
    this.tokensAtLastUpdate = args.tokens;
    return this.update([...args.messages], args.tokens).catch((e: unknown) => this.deps.onError?.(e));
  }

  /** The notes if they hold more than the template, else undefined. */
  async read(): Promise<string | undefined> {
    const text = await fs.readFile(this.deps.path, 'utf8').catch(() => undefined);
    if (!text || text.trim() === SESSION_MEMORY_TEMPLATE.trim()) return undefined;
    return text;
  }

  /** How many leading messages of `history` the notes cover (0: none they can be trusted for). */
  async covered(history: readonly MessageParam[]): Promise<number> {
    const record = await readNotesCoverage(this.deps.path);
    return record && 'marker' in record ? coveredCount(history, record.marker) : 0;
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
