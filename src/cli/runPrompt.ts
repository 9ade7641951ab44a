import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL, type ModelSource } from '../api/models';
import type { AssistantBlock, MessageParam, Usage } from '../api/types';
import { archiveTranscript } from './archive';
import { createAgent } from '../agent/createAgent';
import type { PermissionEngine } from '../agent/permissionBroker';
import type { LoopResult } from '../agent/queryLoop';
import type { ToolRegistry } from '../tools/registry';
import type { ContextService } from '../context/contextService';
import { SessionRecorder } from '../sessions/recorder';
import type { ClaudeEnv } from '../sessions/claudeCode';
import { restoreSession } from '../sessions/resume';
import type { SessionStore } from '../sessions/sessionStore';
import type { MemorySetup } from '../memory/memoryWiring';
import { silentLogger } from '../ports/logger';
import { getDefaultAppState, type AppState } from '../state/appState';
import { RuntimeState } from '../state/runtimeState';
import { createStore } from '../shared/store';
import type { PromptArgs } from './args';
import type { CliIo } from './io';
import { findResumeTarget } from './resumeTarget';
import type { McpServices } from '../mcp/services';

export interface PromptEnv {
  apiKey: string | undefined;
  baseUrl: string | undefined;
}

export interface PromptDeps {
  tools: ToolRegistry;
  /** Headless: what would ask is denied. The CLI passes --allowed-tools rules in. */
  permissions: PermissionEngine;
  isGitRepo?(): Promise<boolean>;
  dynamicSections?(): Promise<string[]>;
  context?: ContextService;
  /** Where this folder's sessions live; undefined: the run is not saved. */
  sessions?: SessionStore;
  /** Where Claude Code's sessions are looked for by `--resume ID` (HOME, CLAUDE_CONFIG_DIR). */
  claudeEnv?: ClaudeEnv;
  memory?: MemorySetup;
  /** Resolves --model (aliases, ids the API knows); without it, the built-in table. */
  models?: ModelSource;
  /** The run's MCP servers (started, not waited for); their tools join as each is ready. */
  mcp?: McpServices;
  /** An answer began arriving, so its request is out (the MCP servers spawn after the first). */
  onAnswerStart?(): void;
}

interface Denial {
  tool_name: string;
  tool_use_id: string;
  reason: string;
}

function sumUsage(runtime: RuntimeState): Usage {
  const total: Usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
  for (const u of runtime.modelUsage.values()) {
    total.inputTokens += u.inputTokens;
    total.outputTokens += u.outputTokens;
    total.cacheCreationInputTokens += u.cacheCreationInputTokens;
    total.cacheReadInputTokens += u.cacheReadInputTokens;
  }
  return total;
}

/** Token counts as the Messages API names them, which is what scripts of the reference's output read. */
function apiUsage(u: Usage) {
  return { input_tokens: u.inputTokens, output_tokens: u.outputTokens, cache_creation_input_tokens: u.cacheCreationInputTokens, cache_read_input_tokens: u.cacheReadInputTokens };
}

function blocksToJson(blocks: AssistantBlock[]): unknown[] {
  return blocks.map((b) => ({ ...b }));
}

/**
 * `threadline -p`: one prompt, answered headless by the same agent the panel uses.
 * Output formats follow what Claude Code users script against: text, one JSON result,
 * or newline-delimited JSON events ending in the result.
 */
export async function runPrompt(args: PromptArgs, env: PromptEnv, deps: PromptDeps, io: CliIo, signal?: AbortSignal): Promise<number> {
  const fail = (reason: string, code = 1) => {
    io.err(`threadline: ${reason}\n`);
    return code;
  };
  if (!existsSync(args.cwd) || !statSync(args.cwd).isDirectory()) return fail(`--cwd is not a directory: ${args.cwd}`, 2);
  if (!env.apiKey) return fail('ANTHROPIC_API_KEY is not set');
  const resolved = await deps.models?.resolve?.(args.model ?? DEFAULT_MODEL, args.contextWindow ? { contextWindow: args.contextWindow } : {});
  if (resolved && !resolved.ok) return fail(`--model: ${resolved.error}`, 2);
  if (resolved?.warning) io.err(`threadline: ${resolved.warning}\n`);

  const started = Date.now();
  const runtime = new RuntimeState(args.cwd);
  const store = createStore<AppState>(
    getDefaultAppState({
      sessionId: runtime.sessionId,
      settings: { ...(args.model ? { model: args.model } : {}), ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}) },
    }),
  );
  const denials: Denial[] = [];
  const stream = args.outputFormat === 'stream-json';
  const emit = (obj: unknown) => io.out(`${JSON.stringify(obj)}\n`);
  let result: LoopResult | undefined;
  const toolNames = new Map<string, string>();
  let recorder: SessionRecorder | undefined;
  let saveFailed = false;
  // Each message is saved as soon as it is complete, so a kill loses at most the one in flight.
  const save = async (write: (r: SessionRecorder) => Promise<void>) => {
    if (!recorder) return;
    try {
      await write(recorder);
    } catch (err) {
      if (!saveFailed) io.err(`threadline: could not save the session: ${err instanceof Error ? err.message : String(err)}\n`);
      saveFailed = true;
    }
  };

  // A resumed session keeps its id for everything written from here on (its notes, archives
  // and transcript), so the session is found before the agent is built.
  let target: Awaited<ReturnType<typeof findResumeTarget>> | undefined;
  if (args.resume) {
    if (!deps.sessions) return fail('sessions are not available here');
    const settings = store.getState().settings;
    target = await findResumeTarget(args.resume, deps.sessions, {
      cwd: args.cwd,
      env: deps.claudeEnv ?? process.env,
      options: { model: settings.model, ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}) },
    });
    if (target.kind === 'error') return fail(target.reason);
    if (target.kind === 'threadline') runtime.startSession(target.loaded.meta.id);
  }
  const sessionsDir = deps.sessions?.dir;
  const mcpTools = deps.mcp?.toolset(() => runtime.sessionId);
  const tools = mcpTools ? deps.tools.withSource(mcpTools) : deps.tools;

  const agent = createAgent({
    store,
    runtime,
    log: silentLogger,
    cwd: args.cwd,
    tools,
    permissions: {
      decide: (call) => deps.permissions.decide(call),
      ready: () => deps.permissions.ready?.() ?? Promise.resolve(),
      grantForSession: (call) => deps.permissions.grantForSession(call),
      ...(deps.permissions.grantServer ? { grantServer: (call) => deps.permissions.grantServer!(call) } : {}),
      ...(deps.permissions.boundedCheck ? { boundedCheck: (roots, own) => deps.permissions.boundedCheck!(roots, own) } : {}),
    },
    apiKey: async () => env.apiKey,
    baseUrl: () => env.baseUrl ?? '',
    // Headless runs finish long work by default, as the reference's -p does; --max-turns caps it.
    maxTurns: () => args.maxTurns ?? Infinity,
    ...(deps.isGitRepo ? { isGitRepo: deps.isGitRepo } : {}),
    ...(deps.context ? { context: deps.context } : {}),
    ...(deps.memory
      ? { memory: { ...deps.memory, ...(sessionsDir ? { sessionNotesPath: join(sessionsDir, 'notes', `${runtime.sessionId}.md`) } : {}) } }
      : {}),
    // The full transcript is kept before a compaction replaces it, as the extension does.
    ...(sessionsDir ? { archive: (history: readonly MessageParam[]) => archiveTranscript(sessionsDir, runtime.sessionId, history) } : {}),
    ...(deps.dynamicSections ? { dynamicSections: deps.dynamicSections } : {}),
    ...(deps.models ? { models: deps.models } : {}),
    loopEvents: {
      onTextDelta: () => deps.onAnswerStart?.(),
      onThinkingDelta: () => deps.onAnswerStart?.(),
      onTurnComplete: (turn) => {
        deps.onAnswerStart?.();
        if (stream) emit({ type: 'assistant', session_id: runtime.sessionId, message: { role: 'assistant', model: turn.model, content: blocksToJson(turn.blocks), stop_reason: turn.stopReason, usage: apiUsage(turn.usage) } });
      },
      onToolCall: ({ id, name }) => toolNames.set(id, name),
      onToolStatus: (id, status, detail) => {
        if (status === 'denied') {
          const reason = detail?.result ?? 'denied';
          denials.push({ tool_name: toolNames.get(id) ?? '?', tool_use_id: id, reason });
          if (args.outputFormat === 'text') io.err(`threadline: denied ${toolNames.get(id) ?? 'a tool'}: ${reason}\n`);
        }
        if (stream && (status === 'done' || status === 'error' || status === 'denied' || status === 'interrupted')) {
          emit({ type: 'user', session_id: runtime.sessionId, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: status !== 'done', content: detail?.result ?? status }] } });
        }
      },
      onRetry: ({ attempt, delayMs, reason }) => {
        if (stream) emit({ type: 'system', subtype: 'api_retry', attempt, delay_ms: delayMs, reason });
      },
      // The conversation's changes are being written (below); the loop waits until they are.
      onHistory: () => save((r) => r.idle()),
    },
    onLoopComplete: (r) => {
      result = r;
    },
  });

  const repairs = deps.sessions?.onDidRepair((r) => io.err(`threadline: ${r.message}\n`));
  if (target?.kind === 'threadline' && deps.sessions) {
    const loaded = target.loaded;
    recorder = restoreSession(loaded, store, agent, deps.sessions);
    if (loaded.skipped.length) io.err(`threadline: ${loaded.skipped.length} unreadable line(s) of the transcript were skipped\n`);
    if (loaded.repairs.length) io.err(`threadline: the session's last turn was cut short: ${loaded.repairs.join('; ')}\n`);
  } else if (target?.kind === 'claude' && deps.sessions) {
    // A new Threadline session (the id runtime already has); Claude Code's file stays as it is.
    const c = target.converted;
    agent.setHistory(c.history);
    store.setState((st) => ({ ...st, sessionTitle: c.title, messages: c.view }));
    recorder = new SessionRecorder(deps.sessions, { id: runtime.sessionId, cwd: args.cwd, model: store.getState().settings.model, title: c.title });
    io.err(`threadline: ${c.notice} Its Threadline id is ${runtime.sessionId}.\n`);
  } else if (deps.sessions) {
    recorder = new SessionRecorder(deps.sessions, { id: runtime.sessionId, cwd: args.cwd, model: agent.model().id });
  }

  // Each change of the history is written as it happens: the prompt, each answer, each set of tool results.
  const following = agent.conversation.onDidChange((c) => void save((r) => r.record(c)));
  if (stream) {
    const mcpServers = deps.mcp?.status().map((s) => ({ name: s.name, status: s.state })) ?? [];
    emit({ type: 'system', subtype: 'init', session_id: runtime.sessionId, cwd: args.cwd, model: agent.model().id, tools: tools.tools.map((t) => t.name), mcp_servers: mcpServers });
  }
  const onAbort = () => agent.stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await agent.submit(args.prompt);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  // What the loop did not hand over as it went: an interrupted ending, the panel's messages.
  await save(async (r) => {
    await r.sync(agent.messages, store.getState().messages, store.getState().tokens.used);
    await r.flush();
  });
  const r = result;
  const usage = sumUsage(runtime);
  const isError = !r || r.outcome !== 'end_turn';
  const subtype = !r ? 'error_during_execution' : r.outcome === 'end_turn' ? 'success' : r.outcome === 'max_turns' ? 'error_max_turns' : 'error_during_execution';
  const summary = {
    type: 'result',
    subtype,
    is_error: isError,
    result: r?.finalText ?? '',
    ...(r?.error ? { error: r.error.message } : r?.blocked ? { error: r.blocked } : {}),
    session_id: runtime.sessionId,
    num_turns: r?.turns ?? 0,
    duration_ms: Date.now() - started,
    // null when a model's price is not known: tokens are reported, a guessed cost is not.
    total_cost_usd: runtime.unpricedRequests > 0 ? null : Math.round(runtime.totalCostUsd * 1e6) / 1e6,
    usage: apiUsage(usage),
    permission_denials: denials,
  };
  if (args.outputFormat === 'text') {
    if (r?.finalText) io.out(r.finalText.endsWith('\n') ? r.finalText : `${r.finalText}\n`);
  } else {
    emit(summary);
  }
  // The answer is out; memory extraction runs now and finishes before the process exits.
  await agent.drain().catch(() => undefined);
  repairs?.dispose();
  following.dispose();
  mcpTools?.dispose();
  if (!r) return fail('the agent did not run');
  if (r.outcome === 'error') return fail(r.error?.message.split('\n')[0] ?? 'request failed');
  if (r.outcome === 'max_turns') return fail(`stopped after ${r.turns} model turns (--max-turns ${args.maxTurns}) before the task was done; continue it with -c, or raise --max-turns`);
  if (r.outcome === 'aborted') return fail('interrupted');
  if (r.outcome === 'blocked') return fail(r.blocked ?? 'the conversation is over the context limit; nothing was sent');
  return 0;
}
