import { release } from 'node:os';
import { contextTokens } from '../api/cost';
import { MessagesClient } from '../api/messagesClient';
import { tableModels, type ModelSource } from '../api/models';
import type { MessageParam, MessagesRequest } from '../api/types';
import type { CompactorDeps } from '../compact/compactor';
import { compactTool } from '../compact/compactTool';
import { compactLimits, type CompactLimits } from '../compact/limits';
import { thresholdsFor } from '../conversation/thresholds';
import type { ContextService } from '../context/contextService';
import { formatInstructionFile } from '../context/instructions';
import { reminderBlock } from '../context/reminders';
import { buildSystemBlocks, environmentSection } from '../context/systemPrompt';
import { createMemoryServices, type MemorySetup } from '../memory/memoryWiring';
import type { Logger } from '../ports/logger';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import type { ToolRegistry } from '../tools/registry';
import { toolPaths } from '../tools/paths';
import type { Tool } from '../tools/types';
import { Agent } from './agent';
import { createCompactor } from './compaction';
import { createForkRunner } from './forkRunner';
import { RereadTracker } from './rereads';
import type { PermissionEngine } from './permissionBroker';
import type { LoopEvents, LoopResult } from './queryLoop';

export interface AgentSetup {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  tools: ToolRegistry;
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
  /** false: a re-read of an unchanged file returns its text again (benchmarks' no-strategy baseline). */
  rereadPointers?: false;
}

export function localIsoDate(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** One client per key and base URL: a settings change takes effect on the next request. */
function clientFactory(setup: Pick<AgentSetup, 'apiKey' | 'baseUrl'>): () => Promise<MessagesClient | undefined> {
  let clientKey = '';
  let client: MessagesClient | undefined;
  return async () => {
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
}

function rereadReviser(cwd: string): RereadTracker['revise'] {
  const tracker = new RereadTracker(cwd);
  return (call, result, history) => tracker.revise(call, result, history);
}

/** Builds the agent both faces use; the hosts differ only in the ports they pass. */
export function createAgent(setup: AgentSetup): Agent {
  const settings = () => setup.store.getState().settings;
  const models = setup.models ?? tableModels;
  // What requests name: the alias or id of the settings, resolved (`sonnet` → its newest model).
  const modelId = () => models.current(settings().model, { contextWindow: settings().contextWindow }).id;
  // The environment section is computed once per agent (per session): it sits in the cached part
  // of the prompt, and a date that changed mid-session would break the cache.
  let environment: Promise<string> | undefined;
  const env = () =>
    (environment ??= (async () =>
      environmentSection({
        cwd: setup.cwd,
        isGitRepo: setup.context ? (await setup.context.git()) !== undefined : ((await setup.isGitRepo?.()) ?? false),
        platform: process.platform,
        osVersion: `${process.platform} ${release()}`,
        model: modelId(),
        date: localIsoDate(),
      }))());
  const getClient = clientFactory(setup);
  // The compactor needs the agent's recent reads and exact counts; the agent needs the compactor;
  // forks and the summary need the agent's request builder.
  const self: { agent?: Agent } = {};
  let agentTools: ToolRegistry = setup.tools;
  const memory = setup.memory
    ? createMemoryServices({
        setup: setup.memory,
        cwd: setup.cwd,
        // Forks extend the main loop's own request, so they read the cache it wrote.
        runFork: createForkRunner({ client: getClient, mainRequest: (h) => self.agent!.mainRequest(h), offered: () => agentTools, tools: setup.tools, cwd: setup.cwd, permissions: setup.permissions }),
        keepMaxTokens: () => compactLimits(thresholdsFor(settings(), models)).keepMaxTokens,
      })
    : undefined;
  const compactor =
    setup.compaction === false
      ? undefined
      : createCompactor({
          settings,
          models,
          client: getClient,
          cwd: setup.cwd,
          compactable: setup.tools.names('compactable'),
          recentReads: () => self.agent?.recentReads.newestFirst() ?? [],
          countTokens: (h) => self.agent!.exactTokens(h),
          measure: (h) => self.agent!.meter.estimate(h),
          mainRequest: (h) => self.agent!.mainRequest(h),
          ...(setup.archive ? { archive: setup.archive } : {}),
          ...(setup.microConfig ? { microConfig: setup.microConfig } : {}),
          ...(setup.fromSessionMemory ? { fromSessionMemory: setup.fromSessionMemory } : memory ? { fromSessionMemory: (h: readonly MessageParam[], limits: CompactLimits) => memory.fromSessionMemory(h, limits) } : {}),
          ...(setup.context ? { afterCompaction: () => setup.context!.clear(), afterMicroCompaction: () => setup.context!.rereadInstructions() } : {}),
        });
  const memorySection = async () => (memory ? await memory.section() : undefined);
  const agent = new Agent({
    ...(compactor ? { compactor } : {}),
    models,
    store: setup.store,
    runtime: setup.runtime,
    log: setup.log,
    cwd: setup.cwd,
    // The model may ask for a compaction itself, through this tool.
    tools: (agentTools = compactor ? setup.tools.with([compactTool(compactor) as unknown as Tool]) : setup.tools),
    permissions: setup.permissions,
    createClient: getClient,
    systemBlocks: async () => {
      const mem = await memorySection();
      return buildSystemBlocks([await env(), ...((await setup.context?.systemSections()) ?? []), ...(mem ? [mem] : []), ...((await setup.dynamicSections?.()) ?? [])]);
    },
    ...(setup.context
      ? {
          reminders: () => setup.context!.reminders(),
          instructionReport: async () => (await setup.context!.instructions()).report,
          afterTools: async (calls) => {
            // Rules with `paths:` are earned by reading or editing a matching file.
            const touched = calls.filter((c) => c.tool.traits.returnsFileContent || c.tool.traits.writesFiles).flatMap((c) => toolPaths(c.tool, c.input, setup.cwd));
            const rules = await setup.context!.rulesFor(touched);
            return rules.map((r) => reminderBlock({ type: 'rules', text: formatInstructionFile(r) }));
          },
        }
      : {}),
    maxTurns: setup.maxTurns,
    ...(setup.rereadPointers === false ? {} : { reviseResult: rereadReviser(setup.cwd) }),
    loopEvents: {
      ...setup.loopEvents,
      onTurnComplete: (turn, request) => {
        setup.loopEvents?.onTurnComplete?.(turn, request);
        // Session notes are considered after every model turn (seed 000), not only after a loop.
        const calls = turn.blocks.filter((b) => b.type === 'tool_use').length;
        if (calls) memory?.afterTurn(agent.messages, calls, contextTokens(turn.usage));
      },
    },
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
