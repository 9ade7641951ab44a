import type { MessageParam } from '../api/types';
import type { PermissionOutcome, Tool } from '../tools/types';
import { EXTRACTION_MAX_TURNS, EXTRACTION_PROMPT, memoryForkPermission, type AutoMemoryService } from './autoMemory';
import { createExtractionScheduler, type ExtractionScheduler } from './extractionScheduler';
import { sessionNotesPermission } from './forkPermissions';
import { ONE_REPLY, SESSION_MEMORY_PROMPT, type NotesForkOutcome, type SessionMemory } from './sessionMemory';

/** One tool call of a fork's round, and whether it failed. */
export interface ForkCall {
  name: string;
  input: unknown;
  isError: boolean;
}

/** One background request the memory services ask for: the conversation so far, then `prompt`. */
export interface ForkRequest {
  messages: MessageParam[];
  prompt: string;
  source: 'memory_extraction' | 'session_memory';
  /** The fork's own permission check: it never asks anyone, it allows or denies. */
  canUseTool(tool: Tool, input: unknown): PermissionOutcome;
  /** The fork's own files (memory folder, notes file): beyond them it reads only what the workspace's rules allow. */
  roots?: string[];
  /** System prompt sections of the fork. */
  system: string[];
  maxTurns: number;
  /** True ends the fork after a round of tool calls: its work is done and a closing reply would re-read the conversation. */
  finishAfterTools?(calls: readonly ForkCall[], replyText: string): boolean;
}

/**
 * Runs a forked agent; provided by the agent layer (memory cannot import it). Resolves when the
 * fork has finished, with its history and how it ended; a missing API key resolves with nothing.
 */
export type ForkRunner = (request: ForkRequest) => Promise<NotesForkOutcome | void>;

const NOTES_ROLE = 'You keep concise, factual session notes for a coding agent.';

/** The combined request's opening, so both halves are read as one job. */
const COMBINED_HEADER = 'Two background jobs are due at this point of the conversation: update the session notes and save memories. Do both in this one reply.';

const EXTRACTION_ONE_REPLY = 'When you write, write every file in one reply, all at once: the work ends as soon as those writes succeed.';

const combinedPrompt = (notesPath: string, notes: string) =>
  [
    '1. Session notes.',
    SESSION_MEMORY_PROMPT(notesPath, notes),
    '',
    '2. Memory.',
    `${EXTRACTION_PROMPT} Say "nothing to save" in your reply when there is nothing; that answers this part.`,
    '',
    `Both parts go in this one reply: the Edit calls on the notes and any memory files. ${ONE_REPLY}`,
  ].join('\n');

interface Job {
  messages: MessageParam[];
  tokens: number;
  naturalBreak: boolean;
  /** A complete loop ended (extraction is considered only then). */
  loopEnd: boolean;
}

const mergeJobs = (a: Job, b: Job): Job => ({ messages: b.messages, tokens: b.tokens, naturalBreak: a.naturalBreak || b.naturalBreak, loopEnd: a.loopEnd || b.loopEnd });

function endsOnNaturalBreak(messages: readonly MessageParam[]): boolean {
  const last = messages.at(-1);
  return last?.role === 'assistant' && (typeof last.content === 'string' || !last.content.some((b) => b.type === 'tool_use'));
}

/**
 * The background memory work of a session, one request at a time: session notes after a model
 * turn or a loop when their thresholds say so, memory extraction after a loop when it is worth
 * it. When both are due they go out as one request (one instruction, one reply read into both
 * results). A fork that answered has seen what it was shown, whatever it did with it: a half it
 * left alone (no edit, no memory, an empty reply) is not asked again until there is more
 * conversation, since asking again would pay to re-read the same history for the same answer.
 * Its writes end it; a write that failed gets its error back and another turn.
 */
export class TurnEndWork {
  private readonly scheduler: ExtractionScheduler<Job>;

  constructor(
    private readonly deps: {
      session?: SessionMemory;
      auto?: AutoMemoryService;
      runFork: ForkRunner;
      /** The memory folder's index as it is now, for the extraction's instruction (the rules are in the shared system prompt). */
      memoryIndex(): Promise<string>;
      cwd: string;
      onError?(err: unknown): void;
    },
  ) {
    this.scheduler = createExtractionScheduler((job) => this.run(job), deps.onError, mergeJobs);
  }

  /** After a model turn that called tools: `messages` is what that turn's request was built from. */
  afterTurn(messages: readonly MessageParam[], toolCalls: number, tokens: number): void {
    if (!this.deps.session) return;
    this.deps.session.countToolCalls(toolCalls);
    this.scheduler.request({ messages: [...messages], tokens, naturalBreak: false, loopEnd: false });
  }

  /** After a complete loop: a natural break for the notes when it ended on an answer, and extraction's chance. */
  afterLoop(messages: readonly MessageParam[], tokens: number): void {
    if (!this.deps.session && !this.deps.auto) return;
    this.scheduler.request({ messages: [...messages], tokens, naturalBreak: endsOnNaturalBreak(messages), loopEnd: true });
  }

  async drain(): Promise<void> {
    await Promise.all([this.scheduler.drain(), this.deps.auto?.drain()]);
  }

  private async run(job: Job): Promise<void> {
    const { session, auto } = this.deps;
    const notes = session ? await session.isDue(job) : false;
    const extract = job.loopEnd && auto ? await auto.isDue(job.messages, notes) : false;
    if (notes && extract) return this.both(job, session!, auto!);
    if (notes) return this.notesOnly(job, session!);
    if (extract) return this.extractionOnly(job, auto!);
  }

  private async notesOnly(job: Job, session: SessionMemory): Promise<void> {
    const text = await session.prepare();
    const out = await this.deps.runFork({
      messages: job.messages,
      prompt: SESSION_MEMORY_PROMPT(session.path, text),
      source: 'session_memory',
      canUseTool: sessionNotesPermission(session.path, this.deps.cwd),
      roots: [session.path],
      system: [NOTES_ROLE],
      maxTurns: EXTRACTION_MAX_TURNS,
      finishAfterTools: (calls) => calls.every((c) => !c.isError && c.name === 'Edit' && session.isNotes(c.input)),
    });
    await session.record(job.messages, out);
  }

  private async extractionOnly(job: Job, auto: AutoMemoryService): Promise<void> {
    const before = await auto.snapshot();
    const out = await this.deps.runFork({
      messages: job.messages,
      prompt: `${EXTRACTION_PROMPT} ${EXTRACTION_ONE_REPLY}`,
      source: 'memory_extraction',
      canUseTool: memoryForkPermission(auto.dir, this.deps.cwd),
      roots: [auto.dir],
      system: [await this.deps.memoryIndex()],
      maxTurns: EXTRACTION_MAX_TURNS,
      finishAfterTools: (calls) => calls.every((c) => !c.isError && auto.isMemoryWrite(c.name, c.input)),
    });
    await auto.record(job.messages, before, out !== undefined && out.outcome !== 'error');
  }

  private async both(job: Job, session: SessionMemory, auto: AutoMemoryService): Promise<void> {
    const text = await session.prepare();
    const before = await auto.snapshot();
    const notesCheck = sessionNotesPermission(session.path, this.deps.cwd);
    const memoryCheck = memoryForkPermission(auto.dir, this.deps.cwd);
    const out = await this.deps.runFork({
      messages: job.messages,
      prompt: combinedPrompt(session.path, text),
      source: 'session_memory',
      // Each half keeps its own rules: the notes file by the notes agent's, the rest by extraction's.
      canUseTool: (tool, input) => (session.isNotes(input) ? notesCheck(tool, input) : memoryCheck(tool, input)),
      roots: [session.path, auto.dir],
      system: [COMBINED_HEADER, NOTES_ROLE, await this.deps.memoryIndex()],
      maxTurns: EXTRACTION_MAX_TURNS,
      finishAfterTools: (round) => round.every((c) => !c.isError && ((c.name === 'Edit' && session.isNotes(c.input)) || auto.isMemoryWrite(c.name, c.input))),
    });
    await session.record(job.messages, out);
    await auto.record(job.messages, before, out !== undefined && out.outcome !== 'error');
  }
}
