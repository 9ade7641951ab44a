import type { MessageParam } from '../api/types';
import type { PermissionOutcome, Tool } from '../tools/types';
import type { CompactionResult } from '../compact/compact';
import { compactFromNotes } from '../compact/notesCompaction';
import type { CompactLimits } from '../compact/limits';
import { AutoMemoryService, EXTRACTION_MAX_TURNS, EXTRACTION_PROMPT } from './autoMemory';
import { MemoryDir } from './memdir';
import { buildMemorySection } from './memoryPrompt';
import { SESSION_MEMORY_PROMPT, SessionMemory, type NotesForkOutcome } from './sessionMemory';

export { defaultTailStart, SM_KEEP_MAX_TOKENS, SM_KEEP_MIN_TEXT_MESSAGES, SM_KEEP_MIN_TOKENS } from '../compact/notesCompaction';

export interface MemorySetup {
  /** The resolved, validated memory folder. */
  dir: string;
  /** `threadline.autoMemory` (the setting turns extraction and the prompt section off). */
  enabled(): boolean;
  /** This session's notes file; undefined: no session memory (e.g. a one-shot CLI run). */
  sessionNotesPath?: string;
  onSaved?(names: string[]): void;
  onError?(err: unknown): void;
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
}

/**
 * Runs a forked agent; provided by the agent layer (memory cannot import it). Resolves when the
 * fork has finished, with its history and how it ended; a missing API key resolves with nothing.
 */
export type ForkRunner = (request: ForkRequest) => Promise<NotesForkOutcome | void>;

export interface MemoryServices {
  memdir: MemoryDir;
  /** The memory section of the system prompt, built once for the session. */
  section(): Promise<string | undefined>;
  /** After a model turn that called tools: `history` is what that turn's request was built from. */
  afterTurn(history: readonly MessageParam[], toolCalls: number, usedTokens: number): void;
  /** After a complete loop (its last turn called no tools): auto memory, and a natural break for the notes. */
  afterLoop(messages: readonly MessageParam[], usedTokens: number): void;
  fromSessionMemory(history: readonly MessageParam[], limits?: CompactLimits): Promise<CompactionResult | undefined>;
  drain(): Promise<void>;
}

export function createMemoryServices(opts: {
  setup: MemorySetup;
  cwd: string;
  runFork: ForkRunner;
}): MemoryServices {
  const { setup, cwd } = opts;
  const memdir = new MemoryDir(setup.dir);
  let section: Promise<string | undefined> | undefined;
  const getSection = () =>
    (section ??= (async () => (setup.enabled() ? buildMemorySection(setup.dir, await memdir.loadIndex().catch(() => undefined)) : undefined))());

  const fork = (messages: MessageParam[], prompt: string, source: ForkRequest['source'], canUseTool: ForkRequest['canUseTool'], system: string[]) =>
    opts.runFork({ messages, prompt, source, canUseTool, system, maxTurns: EXTRACTION_MAX_TURNS, roots: source === 'memory_extraction' ? [setup.dir] : setup.sessionNotesPath ? [setup.sessionNotesPath] : [] });

  const auto = new AutoMemoryService({
    memdir,
    cwd,
    enabled: setup.enabled,
    runExtraction: async (messages, canUseTool) => {
      await fork(messages, EXTRACTION_PROMPT, 'memory_extraction', canUseTool, [buildMemorySection(setup.dir, await memdir.loadIndex().catch(() => undefined))]);
    },
    ...(setup.onSaved ? { onSaved: setup.onSaved } : {}),
    ...(setup.onError ? { onError: setup.onError } : {}),
  });
  const notesPath = setup.sessionNotesPath;
  const session = notesPath
    ? new SessionMemory({
        path: notesPath,
        cwd,
        runUpdate: (messages, notes, canUseTool) => fork(messages, SESSION_MEMORY_PROMPT(notesPath, notes), 'session_memory', canUseTool, ['You keep concise, factual session notes for a coding agent.']),
        ...(setup.onError ? { onError: setup.onError } : {}),
      })
    : undefined;
  let pendingSession: Promise<void> | undefined;
  const noteTurn = (p: Promise<void> | undefined) => {
    if (p) pendingSession = p;
  };

  return {
    memdir,
    section: getSection,
    afterTurn(history, toolCalls, usedTokens) {
      noteTurn(session?.onTurn({ messages: history, tokens: usedTokens, toolCalls, naturalBreak: false }));
    },
    afterLoop(messages, usedTokens) {
      auto.onLoopComplete(messages);
      // The loop ended on a turn without tool calls: a natural break (seed 000).
      const last = messages.at(-1);
      const naturalBreak = last?.role === 'assistant' && (typeof last.content === 'string' || !last.content.some((b) => b.type === 'tool_use'));
      noteTurn(session?.onTurn({ messages, tokens: usedTokens, toolCalls: 0, naturalBreak }));
    },
    async fromSessionMemory(history, limits) {
      if (!session) return undefined;
      const notes = await session.read();
      if (!notes) return undefined;
      const decision = compactFromNotes(history, notes, await session.covered(history), limits);
      return decision.ok ? decision.result : undefined;
    },
    async drain() {
      await Promise.all([auto.drain(), pendingSession]);
    },
  };
}
