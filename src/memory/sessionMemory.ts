import { dirname, resolve } from 'node:path';
import type { MessageParam } from '../api/types';
import { readStateFile, readStateText } from '../fs/read';
import { exists } from '../fs/stat';
import { markPrivate, writeFileAtomic } from '../fs/write';
import { coveredCount, markerFor, type CoverageMarker } from '../compact/coverage';
import { estimateTokens } from '../conversation/tokens';
import { notesEditOutcome, readNotesCoverage, writeNotesCoverage } from './notesCoverage';
import { DEFAULT_SESSION_MEMORY_CONFIG, notesGrowthFor, SESSION_MEMORY_TEMPLATE, shouldUpdateSessionMemory, type SessionMemoryConfig } from './sessionMemoryPolicy';



/** The session-notes fork may Read and Edit exactly one file and nothing else. */

/**
 * The notes agent's instructions, with the notes as they are now: it edits by exact text, so
 * it must see that text (a real model guessing the template's wording fails its edits).
 */
export const SESSION_MEMORY_PROMPT = (path: string, notes: string) =>
  [
    `Update the session notes in ${path} so that they describe this conversation as it stands now: the current task, the files in play, decisions, errors and fixes, next steps.`,
    'The file as it is now is between the <current-notes> tags below. Change it with the Edit tool on that file only: old_string must be copied exactly from that text and occur in it once; replace the placeholder lines or earlier notes. You may Read the file to check it.',
    ONE_REPLY,
    'Keep it factual and under about 2,000 words.',
    '',
    `<current-notes path="${path}">`,
    notes,
    '</current-notes>',
  ].join('\n');

/** Why a background agent gets no turn after its writes: that turn would re-read the whole conversation. */
export const ONE_REPLY = 'Make every change in this one reply, all tool calls at once: the work ends as soon as they succeed, and nothing you write after them is read.';

/** What the notes fork did: its own history (tool calls and their results) and how it ended. */
export interface NotesForkOutcome {
  messages: MessageParam[];
  outcome: string;
}

export interface SessionMemoryDeps {
  path: string;
  cwd: string;
  config?: SessionMemoryConfig;
  /** The verbatim tail a notes compaction may keep now (it follows the window); sets how far the notes may lag. */
  keepMaxTokens?(): number;
  onError?(err: unknown): void;
}

class NotesUpdateError extends Error {}

/** How an update went: `missing` when the fork made no edit to the notes at all. */
export type NotesResult = 'updated' | 'missing' | 'failed' | 'not-run';

/**
 * Per-session running notes, refreshed in the background by a fork when enough has happened.
 * Compaction reads them instead of paying for a summary, but only as far as the last
 * successful update reached (its coverage marker); a failed update leaves them untrusted.
 * The fork itself is run by the caller (TurnEndWork), which may fold it into one request with
 * memory extraction; this class decides when it is due and reads what it did.
 */
export class SessionMemory {
  private toolCallsSince = 0;
  /** The history the last update attempt saw (in this process); the coverage record before that. */
  private seen: CoverageMarker | undefined;
  private lastUpdatedAt: number | undefined;

  constructor(private readonly deps: SessionMemoryDeps) {
    // A running account of the conversation: the user's alone, whoever edits it (the notes fork too).
    markPrivate(dirname(deps.path));
  }

  get path(): string {
    return this.deps.path;
  }

  /** After each model turn: the tool calls it made count towards the next update. */
  countToolCalls(n: number): void {
    this.toolCallsSince += n;
  }

  /** Whether an update is due now (the refresh thresholds, over the conversation the notes have not seen). */
  async isDue(p: { messages: readonly MessageParam[]; tokens: number; naturalBreak: boolean }): Promise<boolean> {
    const config = this.deps.config ?? DEFAULT_SESSION_MEMORY_CONFIG;
    // Cheap gates first: the unseen count hashes the history.
    if (p.tokens < config.minTokensToInit) return false;
    if (!p.naturalBreak && this.toolCallsSince < config.toolCallsBetweenUpdates) return false;
    const unseenTokens = await this.unseenTokens(p.messages);
    return shouldUpdateSessionMemory(
      { tokens: p.tokens, unseenTokens, toolCallsSinceLastUpdate: this.toolCallsSince, naturalBreak: p.naturalBreak, minGrowth: notesGrowthFor(this.deps.keepMaxTokens?.(), config) },
      config,
    );
  }

  /** The notes as the fork will see them (the template on first use). */
  async prepare(): Promise<string> {
    await this.ensureFile();
    const read = await readStateFile(this.deps.path);
    if (!read.ok) throw new Error(`cannot read the session notes ${this.deps.path}: ${read.message}`);
    return read.text;
  }

  /** True when the call is this session's notes file (Read or Edit of it). */
  isNotes(input: unknown): boolean {
    const p = (input as { file_path?: unknown } | null)?.file_path;
    return typeof p === 'string' && resolve(this.deps.cwd, p) === resolve(this.deps.path);
  }

  /**
   * Reads what an update did and records it: coverage on success, an untrusted record on a
   * failed edit (reported). An update that answered counts as having seen the history it was
   * shown, whatever it did: one that made no edit (a model with nothing to add answers with
   * text, or nothing) leaves the notes as they were, and the next update waits for new growth,
   * in this run and in a continued one. Only a request that failed is asked again.
   */
  async record(messages: readonly MessageParam[], out: NotesForkOutcome | void): Promise<NotesResult> {
    this.toolCallsSince = 0;
    const saw = markerFor(messages);
    this.seen = saw;
    if (!out) return 'not-run'; // the fork did not run (no API key): nothing changed
    const target = resolve(this.deps.path);
    const { succeeded, failed } = notesEditOutcome(out.messages, target, (p) => resolve(this.deps.cwd, p));
    const answered = out.outcome !== 'error';
    if (failed.length || !answered) {
      const why = failed[0] ?? `the update request failed (${out.outcome})`;
      await writeNotesCoverage(this.deps.path, { v: 1, failed: why, at: Date.now(), ...(answered ? { seen: saw } : {}) });
      this.deps.onError?.(new NotesUpdateError(`The session notes update failed (${why.slice(0, 200)}); the notes are not used for compaction until an update succeeds.`));
      return 'failed';
    }
    if (succeeded === 0) {
      const { seen: _earlier, ...kept } = (await readNotesCoverage(this.deps.path)) ?? { v: 1 as const };
      await writeNotesCoverage(this.deps.path, { ...kept, seen: saw });
      return 'missing';
    }
    await writeNotesCoverage(this.deps.path, { v: 1, marker: saw, updatedAt: Date.now() });
    this.lastUpdatedAt = Date.now();
    return 'updated';
  }

  /** The notes if they hold more than the template, else undefined. */
  async read(): Promise<string | undefined> {
    const text = await readStateText(this.deps.path);
    if (!text || text.trim() === SESSION_MEMORY_TEMPLATE.trim()) return undefined;
    return text;
  }

  /** How many leading messages of `history` the notes cover (0: none they can be trusted for). */
  async covered(history: readonly MessageParam[]): Promise<number> {
    const record = await readNotesCoverage(this.deps.path);
    return record?.marker ? coveredCount(history, record.marker) : 0;
  }

  get updatedAt(): number | undefined {
    return this.lastUpdatedAt;
  }

  /**
   * Tokens of the messages no update has seen: past what this run's last update saw, else what
   * the record says the last answered one saw or the notes cover. Undefined when no update has
   * run in this session at all.
   */
  private async unseenTokens(messages: readonly MessageParam[]): Promise<number | undefined> {
    let from = this.seen ? coveredCount(messages, this.seen) : 0;
    const record = from === 0 ? await readNotesCoverage(this.deps.path) : undefined;
    if (record?.seen) from = coveredCount(messages, record.seen);
    if (from === 0 && record?.marker) from = coveredCount(messages, record.marker);
    if (from === 0) return this.seen || record ? estimateTokens(messages) : undefined;
    return estimateTokens(messages.slice(from));
  }

  private async ensureFile(): Promise<void> {
    if (!(await exists(this.deps.path))) await writeFileAtomic(this.deps.path, SESSION_MEMORY_TEMPLATE);
  }
}
