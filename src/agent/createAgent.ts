import { release } from 'node:os';
import { contextTokens } from '../api/cost';
import { MessagesClient } from '../api/messagesClient';
import { currentModel, tableModels, type ModelSource } from '../api/models';
import type { CompactorDeps } from '../compact/compactor';
import { CompactRequest, compactTool } from '../compact/compactTool';
import { compactLimits } from '../compact/limits';
import { Conversation } from '../conversation/conversation';
import { RecentFiles } from '../conversation/recentFiles';
import { thresholdsOf } from '../conversation/thresholds';
import { TokenMeter } from '../conversation/tokenMeter';
import type { ContextService } from '../context/contextService';
import { formatInstructionFile } from '../context/instructions';
import { reminderBlock } from '../context/reminders';
import { buildSystemBlocks, environmentSection } from '../context/systemPrompt';
import { createMemoryPrompt, createMemoryWork, type MemorySetup } from '../memory/memoryWiring';
import type { Host } from '../ports/host';
import type { Logger } from '../ports/logger';
import type { SessionContext } from '../sessions/sessionAgent';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import type { ToolRegistry } from '../tools/registry';
import { toolPaths } from '../tools/paths';
import type { Tool } from '../tools/types';
import { Agent } from './agent';
import { createCompactor, createPartialCompaction, type CompactionSetup } from './compaction';
import { createForkRunner } from './forkRunner';
import type { PermissionEngine } from '../permissions/permissionBroker';
import type { LoopEvents } from './queryLoop';
import { RequestFactory } from './requestFactory';
import { deniedFileResults } from './deniedFileResults';
import { RereadTracker } from './rereads';
import { trackedTools } from './trackedTools';

/** Everything an agent is built from; each input is named, so a new service is one more field. */
export interface AgentSetup {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  /** The key and base URL of each request, and the turn limit. */
  host: Pick<Host, 'apiKey' | 'baseUrl' | 'settings'>;
  tools: ToolRegistry;
  permissions: PermissionEngine;
  /** Git snapshot, instruction files and conditional rules; memoised per session. Without it: none. */
  context?: ContextService;
  /** The model catalog (Models API, cache, table); without it, the built-in table. */
  models?: ModelSource;
  /** Auto memory and session memory; off when undefined. */
  memory?: MemorySetup;
  /** The session the agent answers in (its archive, its recorder); without it nothing is kept. */
  session?: SessionContext;
  /** Extra observers of the loop (the CLI's stream-json output, benchmarks). */
  loopEvents?: LoopEvents;
  /** Overrides for micro-compaction's tuning (benchmarks compare strategies with it). */
  microConfig?: CompactorDeps['microConfig'];
  /** false: a re-read of an unchanged file returns its text again (benchmarks' no-strategy baseline). */
  rereadPointers?: false;
}

function localIsoDate(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** One client per key and base URL: a settings change takes effect on the next request. */
function clientFactory(host: Pick<Host, 'apiKey' | 'baseUrl'>): () => Promise<MessagesClient | undefined> {
  let clientKey = '';
  let client: MessagesClient | undefined;
  return async () => {
    const apiKey = await host.apiKey();
    if (!apiKey) return undefined;
    const baseUrl = host.baseUrl();
    const key = `${apiKey}\u0000${baseUrl}`;
    if (!client || key !== clientKey) {
      client = new MessagesClient({ apiKey, baseUrl });
      clientKey = key;
    }
    return client;
  };
}

/** What a tool's result becomes as it enters the history: a denied file's text withheld, then a re-read of an unchanged file a pointer. */
function reviseResults(cwd: string, setup: AgentSetup): RereadTracker['revise'] {
  const withheld = deniedFileResults(setup.tools.get('Read'), setup.permissions);
  const tracker = setup.rereadPointers === false ? undefined : new RereadTracker(cwd);
  return (call, result, history) => {
    const kept = withheld(call, result);
    return tracker ? tracker.revise(call, kept, history) : kept;
  };
}

/**
 * Builds the agent both faces use; the hosts differ only in what they pass. Each part is built
 * before the parts that use it and handed to them: the model source and the client, the
 * conversation and its meter, the tools, the request factory, then forks, memory work and the
 * compactor that extend its requests, and last the Agent that holds them.
 */
export function createAgent(setup: AgentSetup): Agent {
  const { store, cwd, context, session } = setup;
  const settings = () => store.getState().settings;
  const models = setup.models ?? tableModels;
  const model = () => currentModel(settings(), models);
  const thresholds = () => thresholdsOf(model());
  const client = clientFactory(setup.host);
  const conversation = new Conversation();
  const meter = new TokenMeter();
  const recentReads = new RecentFiles();

  // The model may ask for a compaction itself, through its Compact tool.
  const modelRequest = new CompactRequest();
  // The session's own tools keep code checkpoints; background agents (memory) use the plain ones.
  const own = session?.checkpoints ? trackedTools(setup.tools, session.checkpoints) : setup.tools;
  const tools = own.with([compactTool(modelRequest) as unknown as Tool]);

  // The environment section is computed once per agent (per session): it sits in the cached part
  // of the prompt, and a date that changed mid-session would break the cache.
  let environment: Promise<string> | undefined;
  const env = () =>
    (environment ??= (async () =>
      environmentSection({
        cwd,
        isGitRepo: context ? (await context.git()) !== undefined : false,
        platform: process.platform,
        osVersion: `${process.platform} ${release()}`,
        model: model().id,
        date: localIsoDate(),
      }))());
  const memoryPrompt = setup.memory ? createMemoryPrompt(setup.memory) : undefined;
  const requests = new RequestFactory({
    settings,
    model,
    tools,
    meter,
    client,
    systemBlocks: async () => {
      const memory = await memoryPrompt?.section();
      return buildSystemBlocks([await env(), ...((await context?.systemSections()) ?? []), ...(memory ? [memory] : [])]);
    },
    ...(context ? { reminders: () => context.reminders(), instructionReport: async () => (await context.instructions()).report } : {}),
  });

  const memory =
    setup.memory && memoryPrompt
      ? createMemoryWork({
          setup: setup.memory,
          memdir: memoryPrompt.memdir,
          cwd,
          // Forks extend the main loop's own request, so they read the cache it wrote.
          runFork: createForkRunner({ client, mainRequest: (h) => requests.build(h), offered: tools, tools: setup.tools, cwd, permissions: setup.permissions }),
          keepMaxTokens: () => compactLimits(thresholds()).keepMaxTokens,
        })
      : undefined;
  const compaction: CompactionSetup = {
    settings,
    model,
    thresholds,
    client,
    cwd,
    compactable: setup.tools.names('compactable'),
    modelRequest,
    recentReads: () => recentReads.newestFirst(),
    mayReread: (path) => {
      const read = setup.tools.get('Read');
      return read !== undefined && setup.permissions.decide({ tool: read, input: { file_path: path } }).behavior === 'allow';
    },
    countTokens: (h) => requests.exactTokens(h),
    measure: (h) => meter.estimate(h),
    mainRequest: (h) => requests.build(h),
    ...(session ? { archive: (h) => session.archive(h) } : {}),
    ...(setup.microConfig ? { microConfig: setup.microConfig } : {}),
    ...(memory ? { fromSessionMemory: (h, limits) => memory.fromSessionMemory(h, limits) } : {}),
    ...(context ? { afterCompaction: () => context.clear(), afterMicroCompaction: () => context.rereadInstructions() } : {}),
  };
  const compactor = createCompactor(compaction);

  const loopEvents: LoopEvents = {
    ...setup.loopEvents,
    onTurnComplete: (turn, request) => {
      setup.loopEvents?.onTurnComplete?.(turn, request);
      // Session notes are considered after every model turn that called tools, not only after a loop.
      const calls = turn.blocks.filter((b) => b.type === 'tool_use').length;
      if (calls) memory?.afterTurn(conversation.history, calls, contextTokens(turn.usage));
    },
    // The session's recorder has each change on disk before the loop goes on.
    onHistory: async (history) => {
      await setup.loopEvents?.onHistory?.(history);
      await session?.saved();
    },
  };
  return new Agent({
    store,
    runtime: setup.runtime,
    log: setup.log,
    cwd,
    tools,
    permissions: setup.permissions,
    conversation,
    meter,
    recentReads,
    requests,
    client,
    model,
    thresholds,
    models,
    maxTurns: () => setup.host.settings.maxTurns(),
    compactor,
    partial: createPartialCompaction(compaction),
    ...(context ? { afterPartial: () => context.clear() } : {}),
    afterTools: async (calls) => {
      // A project MCP server running the workspace's code stops when a call may have changed it (pass 93 H3).
      await tools.afterCalls(calls);
      if (!context) return [];
      // Rules with `paths:` are earned by reading or editing a matching file.
      const touched = calls.filter((c) => !c.failed && (c.tool.traits.returnsFileContent || c.tool.traits.writesFiles)).flatMap((c) => toolPaths(c.tool, c.input, cwd));
      const rules = await context.rulesFor(touched);
      return rules.map((r) => reminderBlock({ type: 'rules', text: formatInstructionFile(r) }));
    },
    reviseResult: reviseResults(cwd, setup),
    loopEvents,
    ...(memory && memoryPrompt
      ? {
          memory: {
            // Memory work runs after the answer, in the background: it never delays the user's turn.
            afterLoop: (result) => {
              if (result.outcome === 'end_turn') memory.afterLoop(conversation.history, meter.used(conversation.history));
            },
            drain: () => memory.drain(),
            memdir: memoryPrompt.memdir,
          },
        }
      : {}),
  });
}
