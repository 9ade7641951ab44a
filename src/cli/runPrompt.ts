import { isFolderSync } from '../fs/stat';
import { DEFAULT_MODEL } from '../api/models';
import type { AssistantBlock, Usage } from '../api/types';
import type { FirstSession } from '../sessions/sessionOpening';
import type { Host } from '../ports/host';
import { getDefaultAppState, type AppState } from '../state/appState';
import { RuntimeState } from '../state/runtimeState';
import { createStore } from '../shared/store';
import type { PromptArgs } from './args';
import type { CliIo } from './io';
import { findResumeTarget } from './resumeTarget';
import { headlessDriver, type PromptDeps } from './headlessDriver';

export type { PromptDeps } from './headlessDriver';

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
 * `threadline -p`: one prompt, answered headless by the same agent and the same session driver
 * the panel uses. Output formats follow what Claude Code users script against: text, one JSON
 * result, or newline-delimited JSON events ending in the result.
 */
export async function runPrompt(args: PromptArgs, host: Host, deps: PromptDeps, io: CliIo, signal?: AbortSignal): Promise<number> {
  const fail = (reason: string, code = 1) => {
    io.err(`threadline: ${reason}\n`);
    return code;
  };
  if (!isFolderSync(args.cwd)) return fail(`--cwd is not a directory: ${args.cwd}`, 2);
  if (!(await host.apiKey())) return fail('ANTHROPIC_API_KEY is not set');
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
  const toolNames = new Map<string, string>();

  // The session is found before the driver opens it: a resumed one keeps its id for everything
  // written from here on (its notes, archives and transcript).
  let first: FirstSession = { kind: 'new' };
  if (args.resume) {
    const settings = store.getState().settings;
    const target = await findResumeTarget(args.resume, deps.sessions, {
      cwd: args.cwd,
      env: deps.claudeEnv ?? process.env,
      options: { model: settings.model, ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}) },
    });
    if (target.kind === 'error') return fail(target.reason);
    first = target.kind === 'threadline' ? { kind: 'resume', loaded: target.loaded } : { kind: 'import', conversation: target.converted };
  }
  // The session's view of the MCP servers: their tools join as each server is ready.
  const mcpTools = deps.mcp?.toolset(() => runtime.sessionId);
  const tools = mcpTools ? deps.tools.withSource(mcpTools) : deps.tools;

  const repairs = deps.sessions.onDidRepair((r) => io.err(`threadline: ${r.message}\n`));
  const driver = headlessDriver({
    cwd: args.cwd,
    host,
    deps: { ...deps, tools },
    store,
    runtime,
    first,
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
    },
  });
  if (first.kind === 'resume') {
    const loaded = first.loaded;
    if (loaded.skipped.length) io.err(`threadline: ${loaded.skipped.length} unreadable line(s) of the transcript were skipped\n`);
    if (loaded.repairs.length) io.err(`threadline: the session's last turn was cut short: ${loaded.repairs.join('; ')}\n`);
  } else if (first.kind === 'import') {
    // A new Threadline session; Claude Code's file stays as it is.
    io.err(`threadline: ${first.conversation.notice} Its Threadline id is ${runtime.sessionId}.\n`);
  }

  if (stream) {
    const mcpServers = deps.mcp?.status().map((s) => ({ name: s.name, status: s.state })) ?? [];
    emit({ type: 'system', subtype: 'init', session_id: runtime.sessionId, cwd: args.cwd, model: driver.agent.model().id, tools: tools.tools.map((t) => t.name), mcp_servers: mcpServers });
  }
  const onAbort = () => driver.stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  let r;
  try {
    r = await driver.submit(args.prompt);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  // Each message was written as it completed; the ending (the panel's messages, the index) now.
  await driver.settleIndex();
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
  await driver.agent.drain().catch(() => undefined);
  repairs.dispose();
  driver.dispose();
  mcpTools?.dispose();
  if (!r) return fail('the agent did not run');
  if (r.outcome === 'error') return fail(r.error?.message.split('\n')[0] ?? 'request failed');
  if (r.outcome === 'max_turns') return fail(`stopped after ${r.turns} model turns (--max-turns ${args.maxTurns}) before the task was done; continue it with -c, or raise --max-turns`);
  if (r.outcome === 'aborted') return fail('interrupted');
  if (r.outcome === 'blocked') return fail(r.blocked ?? 'the conversation is over the context limit; nothing was sent');
  return 0;
}
