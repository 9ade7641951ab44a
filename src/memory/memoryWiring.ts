import type { ContentBlockParam, MessageParam } from '../api/types';
import { prependUserContent } from '../conversation/history';
import type { PermissionOutcome, Tool } from '../tools/types';
import { compactedHistory, findAnchors, splitRounds, type CompactionResult } from '../compact/compact';
import { estimateTokens } from '../conversation/tokens';
import { AutoMemoryService, EXTRACTION_MAX_TURNS, EXTRACTION_PROMPT } from './autoMemory';
import { MemoryDir } from './memdir';
import { buildMemorySection } from './memoryPrompt';
import { SESSION_MEMORY_PROMPT, SessionMemory } from './sessionMemory';

/** Recent messages kept verbatim after a compaction from session memory (seed 000 §8). */
export const SM_KEEP_MIN_TOKENS = 10_000;
export const SM_KEEP_MIN_TEXT_MESSAGES = 5;
export const SM_KEEP_MAX_TOKENS = 40_000;

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
 * fork has finished; a missing API key resolves without running.
 */
export type ForkRunner = (request: ForkRequest) => Promise<void>;

export interface MemoryServices {
  memdir: MemoryDir;
  /** The memory section of the system prompt, built once for the session. */
  section(): Promise<string | undefined>;
  afterLoop(messages: readonly MessageParam[], usedTokens: number): void;
  fromSessionMemory(history: readonly MessageParam[]): Promise<CompactionResult | undefined>;
  drain(): Promise<void>;
}

function isTextMessage(m: MessageParam): boolean {
  return typeof m.content === 'string' || m.content.some((b) => b.type === 'text' && !b.text.startsWith('<system-reminder'));
}

/**
 * The most recent whole rounds to keep verbatim: at least 10k tokens and 5 text messages when
 * there are that many, never more than 40k; a round never splits a tool call from its result.
 */
export function recentRoundsToKeep(history: readonly MessageParam[]): MessageParam[] {
  const rounds = splitRounds(history);
  const kept: MessageParam[][] = [];
  let tokens = 0;
  let texts = 0;
  for (let i = rounds.length - 1; i >= 0; i--) {
    const r = rounds[i]!;
    const cost = estimateTokens(r);
    if (tokens + cost > SM_KEEP_MAX_TOKENS && kept.length) break;
    kept.unshift(r);
    tokens += cost;
    texts += r.filter(isTextMessage).length;
    if (tokens >= SM_KEEP_MIN_TOKENS && texts >= SM_KEEP_MIN_TEXT_MESSAGES) break;
  }
  // Keeping everything would free nothing.
  return kept.length === rounds.length ? kept.slice(1).flat() : kept.flat();
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
    runExtraction: async (messages, canUseTool) => fork(messages, EXTRACTION_PROMPT, 'memory_extraction', canUseTool, [buildMemorySection(setup.dir, await memdir.loadIndex().catch(() => undefined))]),
    ...(setup.onSaved ? { onSaved: setup.onSaved } : {}),
    ...(setup.onError ? { onError: setup.onError } : {}),
  });
  const notesPath = setup.sessionNotesPath;
  const session = notesPath
    ? new SessionMemory({
        path: notesPath,
        cwd,
        runUpdate: (messages, canUseTool) => fork(messages, SESSION_MEMORY_PROMPT(notesPath), 'session_memory', canUseTool, ['You keep concise, factual session notes for a coding agent.']),
        ...(setup.onError ? { onError: setup.onError } : {}),
      })
    : undefined;
  let lastLength = 0;
  let pendingSession: Promise<void> | undefined;

  return {
    memdir,
    section: getSection,
    afterLoop(messages, usedTokens) {
      const added = messages.slice(Math.min(lastLength, messages.length));
      lastLength = messages.length;
      const toolCalls = added.reduce((n, m) => n + (typeof m.content === 'string' ? 0 : m.content.filter((b) => b.type === 'tool_use').length), 0);
      auto.onLoopComplete(messages);
      const p = session?.onTurn({ messages, tokens: usedTokens, toolCalls });
      if (p) pendingSession = p;
    },
    async fromSessionMemory(history) {
      if (!session) return undefined;
      const notes = await session.read();
      if (!notes) return undefined;
      const kept = recentRoundsToKeep(history);
      const [head] = compactedHistory(notes, findAnchors(history), [], 'session-memory');
      const out = prependUserContent(kept, head!.content as ContentBlockParam[]);
      return { history: out, summary: notes, tokensBefore: estimateTokens(history), tokensAfter: estimateTokens(out), anchors: findAnchors(history), droppedRounds: 0, source: 'session-memory' };
    },
    async drain() {
      await Promise.all([auto.drain(), pendingSession]);
    },
  };
}
