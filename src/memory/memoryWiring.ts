import type { MessageParam } from '../api/types';
import type { CompactionResult } from '../compact/compact';
import { compactFromNotes } from '../compact/notesCompaction';
import type { CompactLimits } from '../compact/limits';
import { AutoMemoryService, EXTRACT_EVERY_PROMPTS } from './autoMemory';
import { MemoryDir } from './memdir';
import { buildMemorySection, memoryIndexNow } from './memoryPrompt';
import { SessionMemory } from './sessionMemory';
import { TurnEndWork, type ForkRunner } from './turnEndWork';


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

export type { ForkCall, ForkRequest, ForkRunner } from './turnEndWork';

/** The memory folder and the system prompt's memory section: what a request needs, before any fork exists. */
export interface MemoryPrompt {
  memdir: MemoryDir;
  /** The memory section of the system prompt, built once for the session. */
  section(): Promise<string | undefined>;
}

/** The background memory work of a session: session notes and memory extraction, on forks of the main loop. */
export interface MemoryWork {
  /** After a model turn that called tools: `history` is what that turn's request was built from. */
  afterTurn(history: readonly MessageParam[], toolCalls: number, usedTokens: number): void;
  /** After a complete loop (its last turn called no tools): auto memory, and a natural break for the notes. */
  afterLoop(messages: readonly MessageParam[], usedTokens: number): void;
  fromSessionMemory(history: readonly MessageParam[], limits?: CompactLimits): Promise<CompactionResult | undefined>;
  drain(): Promise<void>;
}

export function createMemoryPrompt(setup: MemorySetup): MemoryPrompt {
  const memdir = new MemoryDir(setup.dir);
  let section: Promise<string | undefined> | undefined;
  return {
    memdir,
    section: () => (section ??= (async () => (setup.enabled() ? buildMemorySection(setup.dir, await memdir.loadIndex().catch(() => undefined)) : undefined))()),
  };
}

/**
 * The work runs on forks of the main loop, so it is built after the main loop's requests are;
 * the memory section those requests carry comes from `createMemoryPrompt`, built before them.
 */
export function createMemoryWork(opts: {
  setup: MemorySetup;
  memdir: MemoryDir;
  cwd: string;
  runFork: ForkRunner;
  /** The verbatim tail a notes compaction keeps for the current window (how far the notes may lag). */
  keepMaxTokens(): number;
}): MemoryWork {
  const { setup, cwd, memdir } = opts;
  const notesPath = setup.sessionNotesPath;
  const session = notesPath ? new SessionMemory({ path: notesPath, cwd, keepMaxTokens: opts.keepMaxTokens, ...(setup.onError ? { onError: setup.onError } : {}) }) : undefined;
  const auto = new AutoMemoryService({
    memdir,
    cwd,
    enabled: setup.enabled,
    // With session notes, extraction mostly rides along with their updates; alone it waits a few prompts.
    ...(notesPath ? { coveragePath: `${notesPath}.extraction.json`, everyPrompts: EXTRACT_EVERY_PROMPTS } : {}),
    ...(setup.onSaved ? { onSaved: setup.onSaved } : {}),
    ...(setup.onError ? { onError: setup.onError } : {}),
  });
  const work = new TurnEndWork({
    ...(session ? { session } : {}),
    auto,
    runFork: opts.runFork,
    memoryIndex: async () => memoryIndexNow(setup.dir, await memdir.loadIndex().catch(() => undefined)),
    cwd,
    ...(setup.onError ? { onError: setup.onError } : {}),
  });

  return {
    afterTurn(history, toolCalls, usedTokens) {
      work.afterTurn(history, toolCalls, usedTokens);
    },
    afterLoop(messages, usedTokens) {
      work.afterLoop(messages, usedTokens);
    },
    async fromSessionMemory(history, limits) {
      if (!session) return undefined;
      const notes = await session.read();
      if (!notes) return undefined;
      const decision = compactFromNotes(history, notes, await session.covered(history), limits);
      return decision.ok ? decision.result : undefined;
    },
    async drain() {
      await work.drain();
    },
  };
}
