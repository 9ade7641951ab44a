import { readFile } from 'node:fs/promises';
import { release } from 'node:os';
import { resolve } from 'node:path';
import { tableModels, type ModelSource } from '../api/models';
import type { MessageParam } from '../api/types';
import { compactWithSummary, type RecentFile } from '../compact/compact';
import { Compactor, type CompactorDeps } from '../compact/compactor';
import { compactTool } from '../compact/compactTool';
import { createMemoryServices, type ForkRunner, type MemorySetup } from '../memory/memoryWiring';
import { appendUserContent } from '../conversation/history';
import { runForkedAgent } from './fork';
import { computeThresholds } from '../conversation/thresholds';
import { MessagesClient } from '../api/messagesClient';
import { buildSystemBlocks, environmentSection } from '../context/systemPrompt';
import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import type { Store } from '../shared/store';
import { Agent, type PermissionVerdict } from './agent';
import type { LoopEvents, LoopResult } from './queryLoop';
import { toolPaths } from '../tools/paths';
import type { Tool } from '../tools/types';
import type { MessagesRequest } from '../api/types';
import type { ContextService } from '../context/contextService';
import { formatInstructionFile } from '../context/instructions';
import { reminderBlock } from '../context/reminders';

export interface PermissionEngine {
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict;
  grantForSession(call: { tool: Tool; input: unknown }): void;
}

export interface AgentSetup {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  tools: readonly Tool[];
  permissions: PermissionEngine;
  apiKey(): Promise<string | undefined>;
  /** Empty: the SDK default (which reads ANTHROPIC_BASE_URL). */
  baseUrl(): string;
  maxTurns(): number;
  /** Dynamic system-prompt sections after the cache boundary (memory, instructions…). */
  dynamicSections?(): Promise<string[]>;
  isGitRepo?(): Promise<boolean>;
  /** Git snapshot, instruction files and conditional rules; memoised per session. */
  context?: ContextService;
  /** false: no compaction at all (forked helpers). */
  compaction?: false;
  /** Keeps the full transcript before a compaction replaces it. */
  archive?(history: readonly MessageParam[]): Promise<string | void>;
  fromSessionMemory?: CompactorDeps['fromSessionMemory'];
  /** Overrides for micro-compaction's tuning (benchmarks compare strategies with it). */
  microConfig?: CompactorDeps['microConfig'];
  /** Auto memory and session memory; off when undefined. */
  memory?: MemorySetup;
  loopEvents?: LoopEvents;
  onLoopComplete?(result: LoopResult, request: MessagesRequest | undefined): void;
  /** The model catalog (Models API, cache, table); without it, the built-in table. */
  models?: ModelSource;
}

const FILE_TOOLS = new Set(['Read', 'Write', 'Edit']);

export function localIsoDate(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Builds the agent both faces use; the hosts differ only in the ports they pass. */
export function createAgent(setup: AgentSetup): Agent {
  const models = setup.models ?? tableModels;
  // What requests name: the alias or id of the settings, resolved (`sonnet` → its newest model).
  const model = () => models.current(settings().model, { contextWindow: settings().contextWindow });
  // The environment section is computed once per agent (per session): it sits in the
  // cached part of the prompt, and a date that changed mid-session would break the cache.
  let environment: Promise<string> | undefined;
  const env = () =>
    (environment ??= (async () =>
      environmentSection({
        cwd: setup.cwd,
        isGitRepo: setup.context ? (await setup.context.git()) !== undefined : ((await setup.isGitRepo?.()) ?? false),
        platform: process.platform,
        osVersion: `${process.platform} ${release()}`,
        model: model().id,
        date: localIsoDate(),
      }))());
  let clientKey = '';
  let client: MessagesClient | undefined;
  const getClient = async () => {
    const apiKey = await setup.apiKey();
    if (!apiKey) return undefined;
    const baseUrl = setup.baseUrl();
    const key = `${apiKey}\u0000${baseUrl}`;
    if (!client || key !== clientKey) {
      client = new MessagesClient({ apiKey, baseUrl });
      clientKey = key;
    }
    return client;
  };
  // Background agents (session notes, memory extraction) run on the same loop, with file tools
  // only; what each may touch is decided by its own permission check.
  const forkTools = setup.tools.filter((t) => ['Read', 'Grep', 'Glob', 'Write', 'Edit'].includes(t.name));
  const runFork: ForkRunner = async (req) => {
    const client = await getClient();
    if (!client) return;
    await runForkedAgent({
      client,
      model: model().id,
      maxTokens: 8000,
      source: req.source,
      system: buildSystemBlocks(req.system),
      tools: forkTools,
      canUseTool: req.canUseTool,
      messages: appendUserContent(req.messages, [{ type: 'text', text: req.prompt }]),
      cwd: setup.cwd,
      maxTurns: req.maxTurns,
    });
  };
  const memory = setup.memory ? createMemoryServices({ setup: setup.memory, cwd: setup.cwd, runFork }) : undefined;
  // The compactor needs the agent's recent reads; the agent needs the compactor.
  const self: { agent?: Agent } = {};
  const settings = () => setup.store.getState().settings;
  const compactor =
    setup.compaction === false
      ? undefined
      : new Compactor({
          settings: () => settings(),
          thresholds: () => {
            const m = model();
            return computeThresholds(m.contextWindow, m.maxOutputTokens);
          },
          now: () => Date.now(),
          countTokens: (h) => self.agent!.exactTokens(h),
          ...(setup.microConfig ? { microConfig: setup.microConfig } : {}),
          summarize: async (history, focus) => {
            const c = await getClient();
            if (!c) throw new Error('no API key is set');
            const recent = [...(self.agent?.recentReads ?? [])].reverse();
            const recentFiles = (
              await Promise.all(
                recent.slice(0, 5).map(async (p) => {
                  try {
                    return { path: p, content: await readFile(resolve(setup.cwd, p), 'utf8') };
                  } catch {
                    return undefined;
                  }
                }),
              )
            ).filter((f): f is RecentFile => f !== undefined);
            const result = await compactWithSummary({
              history,
              client: c,
              model: model().id,
              signal: new AbortController().signal,
              recentFiles,
              ...(focus ? { focus } : {}),
              ...(setup.archive ? { archive: setup.archive } : {}),
            });
            // Instruction files are read again after a compaction (the seeds re-inject them).
            setup.context?.clear();
            return result;
          },
          ...(setup.fromSessionMemory
            ? { fromSessionMemory: setup.fromSessionMemory }
            : memory
              ? { fromSessionMemory: (h: readonly MessageParam[]) => memory.fromSessionMemory(h) }
              : {}),
        });
  const agent = new Agent({
    ...(compactor ? { compactor } : {}),
    models,
    store: setup.store,
    runtime: setup.runtime,
    log: setup.log,
    cwd: setup.cwd,
    // The model may ask for a compaction itself, through this tool.
    tools: compactor ? [...setup.tools, compactTool(compactor) as unknown as Tool] : setup.tools,
    createClient: getClient,
    systemBlocks: async () =>
      buildSystemBlocks([
        await env(),
        ...((await setup.context?.systemSections()) ?? []),
        ...((await memory?.section()) ? [(await memory!.section())!] : []),
        ...((await setup.dynamicSections?.()) ?? []),
      ]),
    ...(setup.context
      ? {
          reminders: () => setup.context!.reminders(),
          instructionReport: async () => (await setup.context!.instructions()).report,
          afterTools: async (calls) => {
            const touched = calls.filter((c) => FILE_TOOLS.has(c.tool.name)).flatMap((c) => toolPaths(c.tool, c.input, setup.cwd));
            const rules = await setup.context!.rulesFor(touched);
            return rules.map((r) => reminderBlock({ type: 'rules', text: formatInstructionFile(r) }));
          },
        }
      : {}),
    decide: (call) => setup.permissions.decide(call),
    grantForSession: (call) => setup.permissions.grantForSession(call),
    maxTurns: setup.maxTurns,
    ...(setup.loopEvents ? { loopEvents: setup.loopEvents } : {}),
    onLoopComplete: (result, request) => {
      setup.onLoopComplete?.(result, request);
      // Memory work runs after the answer, in the background: it never delays the user's turn.
      if (result.outcome === 'end_turn') memory?.afterLoop(agent.messages, agent.usedTokens());
    },
    ...(memory ? { drain: () => memory.drain(), memdir: memory.memdir } : {}),
  });
  self.agent = agent;
  return agent;
}
