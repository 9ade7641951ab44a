// Why this file is long: it is the one loop (request, stream into history, tool batches, the
// overflow retry, interruption), and the hand-over of history between those steps is what
// breaks when it is spread out; the mutation tests pin it here. Helpers with no loop state are
// elsewhere (conversation/, tools/).
import { ApiError, contextOverflow } from '../api/errors';
import { blockParams } from '../api/blockParam';
import type { AssistantBlock, AssistantTurn, ContentBlockParam, MessageParam, MessagesRequest, StreamObserver, ToolResultBlockParam } from '../api/types';
import { capResultText, overTurnBudget, TURN_RESULTS_MAX_CHARS } from '../conversation/resultCap';
import { NO_CONTENT } from '../conversation/blankText';
import { toolUseIdsIn, uniqueToolUseIds } from '../conversation/toolUseIds';
import { appendUserContent, INTERRUPTED_MARKER, INTERRUPTED_TOOL_RESULT } from '../conversation/history';
import type { PermissionOutcome, Tool, ToolResult } from '../tools/types';


export type ToolCallStatus = 'awaiting-permission' | 'running' | 'done' | 'error' | 'denied' | 'interrupted';

export interface LoopEvents {
  /** A new model request starts; attempt 1 of a turn or a retry. */
  onRequestStart?(turn: number): void;
  onTextDelta?(text: string): void;
  /** Thinking as it streams; it is kept in history only once its block is complete and signed. */
  onThinkingDelta?(text: string): void;
  onRetry?(info: { attempt: number; delayMs: number; reason: string }): void;
  onToolCall?(call: { id: string; name: string; input: unknown; summary: string }): void;
  onToolStatus?(id: string, status: ToolCallStatus, detail?: { result?: string; durationMs?: number }): void;
  /** A running call's output so far (its end), for the panel; the result comes with onToolStatus. */
  onToolOutput?(id: string, text: string): void;
  onTurnComplete?(turn: AssistantTurn, request: MessagesRequest): void;
  /**
   * The loop's history at its start and each time it changed (an answer, tool results,
   * compaction): the conversation follows. The loop waits for a returned promise, so a session
   * recorder has each message on disk before anything depends on it (the next request).
   */
  onHistory?(history: MessageParam[]): void | Promise<void>;
}

/**
 * Calls of one answer that run side by side at once: 400 parallel Greps held 7 GB (pass 100 M1).
 * The rest wait for a place, in order.
 */
export const MAX_PARALLEL_CALLS = 10;

async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export interface LoopDeps {
  client: { stream(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver): Promise<AssistantTurn> };
  tools: { get(name: string): Tool | undefined };
  /** `maxTokens`: ask for no more than this (the API said how much fits). */
  buildRequest(history: readonly MessageParam[], opts?: { maxTokens?: number }): MessagesRequest | Promise<MessagesRequest>;
  /**
   * Asked before each request is sent (after compaction had its chance): a reason to send
   * nothing and end the turn, when the request is known to be over the limit.
   */
  checkLimit?(history: readonly MessageParam[], request: MessagesRequest): string | undefined;
  checkPermission(call: { tool: Tool; input: unknown; id: string }): Promise<PermissionOutcome>;
  cwd: string;
  maxTurns: number;
  events?: LoopEvents;
  /** Runs before each request (micro and auto compaction); returns the history to use. */
  prepareHistory?(history: MessageParam[]): Promise<MessageParam[]>;
  /** A result as it enters the history (a re-read of an unchanged file becomes a pointer); `history` holds the call. */
  reviseResult?(call: { id: string; tool: Tool; input: unknown }, result: ToolResult, history: readonly MessageParam[]): ToolResult;
  /** Context earned by the calls that just ran (conditional rules for the files touched). */
  afterTools?(calls: ReadonlyArray<{ tool: Tool; input: unknown; failed?: boolean }>): Promise<ContentBlockParam[]>;
  /**
   * After a round of tool calls: true ends the loop there, with the results in history and no
   * further request (a background agent whose writes succeeded has nothing left to say).
   */
  finishAfterTools?(calls: readonly FinishedCall[], replyText: string): boolean;
}

/** One tool call of a round, as `finishAfterTools` sees it. */
export interface FinishedCall {
  name: string;
  input: unknown;
  isError: boolean;
}

/** `blocked`: a request was due that is known to be over the context limit, so none was sent. */
export type LoopOutcome = 'end_turn' | 'max_turns' | 'aborted' | 'error' | 'blocked';

export interface LoopResult {
  history: MessageParam[];
  outcome: LoopOutcome;
  error?: ApiError;
  /** Why the turn was blocked (outcome `blocked`), in words for the user. */
  blocked?: string;
  turns: number;
  /** The text of the final assistant message, for the CLI and titles. */
  finalText: string;
  /** The prompt was refused before it touched the history (outcome `blocked`): the panel hands it back to the box. */
  returned?: boolean;
}

function assistantMessage(blocks: AssistantBlock[]): MessageParam {
  const content = blockParams(blocks);
  // The API refuses empty content; an empty answer still has to hold its place in history.
  return { role: 'assistant', content: content.length ? content : [{ type: 'text', text: NO_CONTENT }] };
}

function textOf(blocks: readonly AssistantBlock[]): string {
  return blocks
    .filter((b): b is Extract<AssistantBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

interface CallPlan {
  id: string;
  tool: Tool | undefined;
  name: string;
  input: unknown;
  parsed: { ok: true; value: unknown } | { ok: false; error: string };
  readOnly: boolean;
}

function planCall(block: Extract<AssistantBlock, { type: 'tool_use' }>, tools: LoopDeps['tools']): CallPlan {
  const tool = tools.get(block.name);
  if (!tool) return { id: block.id, tool, name: block.name, input: block.input, parsed: { ok: false, error: `Unknown tool: ${block.name}` }, readOnly: false };
  const parsed = tool.parse(block.input);
  return { id: block.id, tool, name: block.name, input: block.input, parsed, readOnly: parsed.ok && tool.isReadOnly(parsed.value) };
}

/** Consecutive read-only calls run together; anything that writes runs alone, in order. */
function batches(plans: CallPlan[]): CallPlan[][] {
  const out: CallPlan[][] = [];
  for (const p of plans) {
    const last = out.at(-1);
    if (p.readOnly && last && last.every((x) => x.readOnly)) last.push(p);
    else out.push([p]);
  }
  return out;
}

/**
 * The agent's inner loop: request, stream, run the tools the model asked for, answer them,
 * and go again until the model ends its turn, the turn limit, an error, or Stop. Whatever
 * happens, the history it returns is one the Messages API accepts.
 */
export async function runQueryLoop(start: readonly MessageParam[], deps: LoopDeps, signal: AbortSignal): Promise<LoopResult> {
  let history = [...start];
  const ev = deps.events ?? {};
  let turns = 0;
  let finalText = '';
  // The prompt that starts the loop is saved before the first request.
  await ev.onHistory?.(history);

  while (true) {
    if (turns >= deps.maxTurns) return { history, outcome: 'max_turns', turns, finalText };
    if (signal.aborted) return interrupted(history, [], turns, finalText);
    turns++;
    // Compaction hooks in here: what it returns is the history from now on.
    if (deps.prepareHistory) {
      const prepared = await deps.prepareHistory(history);
      // Assigned first: inside `onHistory?.(…)` the assignment would be skipped when nobody listens.
      if (prepared !== history) {
        history = prepared;
        await ev.onHistory?.(history);
      }
    }
    if (signal.aborted) return interrupted(history, [], turns, finalText);
    let request = await deps.buildRequest(history);
    const blocked = deps.checkLimit?.(history, request);
    if (blocked) return { history, outcome: 'blocked', blocked, turns, finalText };
    // What the stream has produced so far, so Stop can keep the partial answer.
    let partial: AssistantBlock[] = [];
    const observer: StreamObserver = {
      onTextDelta: (index, text) => {
        const b = partial[index];
        if (b?.type === 'text') b.text += text;
        else partial[index] = { type: 'text', text };
        ev.onTextDelta?.(text);
      },
      onThinkingDelta: (_index, text) => ev.onThinkingDelta?.(text),
      onBlockComplete: (index, block) => {
        partial[index] = block.type === 'text' ? { ...block } : block;
      },
      onRetry: (info) => {
        partial = [];
        ev.onRetry?.(info);
      },
    };
    ev.onRequestStart?.(turns);
    let turn: AssistantTurn;
    try {
      try {
        turn = await deps.client.stream(request, signal, observer);
      } catch (err) {
        // "input length and `max_tokens` exceed context limit": once, ask for what fits.
        const fits = err instanceof ApiError && !signal.aborted ? smallerMaxTokens(err, request.maxTokens) : undefined;
        if (fits === undefined) throw err;
        request = await deps.buildRequest(history, { maxTokens: fits });
        turn = await deps.client.stream(request, signal, observer);
      }
    } catch (err) {
      if (signal.aborted || (err instanceof ApiError && err.kind === 'aborted')) {
        // Only finished tool_use blocks reach `partial`; one still streaming has no usable input.
        const kept = uniqueToolUseIds(partial.filter((b) => b !== undefined), toolUseIdsIn(history));
        return interrupted(history, kept, turns, finalText + textOf(kept));
      }
      const apiErr = err instanceof ApiError ? err : new ApiError('unknown', String(err), undefined, undefined, { cause: err });
      return { history, outcome: 'error', error: apiErr, turns, finalText };
    }
    // A repeated id (some proxies send them) would make this and every later request a 400;
    // the renamed call's result follows it, since results are keyed by the block's id.
    turn = { ...turn, blocks: uniqueToolUseIds(turn.blocks, toolUseIdsIn(history)) };
    ev.onTurnComplete?.(turn, request);
    history = [...history, assistantMessage(turn.blocks)];
    await ev.onHistory?.(history);
    finalText = textOf(turn.blocks);
    const toolUses = turn.blocks.filter((b): b is Extract<AssistantBlock, { type: 'tool_use' }> => b.type === 'tool_use');
    if (toolUses.length === 0) return { history, outcome: 'end_turn', turns, finalText };

    const plans = toolUses.map((b) => planCall(b, deps.tools));
    for (const p of plans) ev.onToolCall?.({ id: p.id, name: p.name, input: p.input, summary: summarize(p) });
    const results = new Map<string, ToolResultBlockParam>();
    let resultChars = 0;
    const ranIds = new Set<string>();
    for (const batch of batches(plans)) {
      if (signal.aborted) break;
      const runnable: CallPlan[] = [];
      for (const p of batch) {
        if (!p.parsed.ok || !p.tool) {
          const message = p.tool ? `Invalid input for ${p.name}: ${p.parsed.ok ? '' : p.parsed.error}` : `Unknown tool: ${p.name}`;
          results.set(p.id, errorResult(p.id, message));
          ev.onToolStatus?.(p.id, 'error', { result: message });
          continue;
        }
        ev.onToolStatus?.(p.id, 'awaiting-permission');
        const outcome = await deps.checkPermission({ tool: p.tool, input: p.parsed.value, id: p.id });
        if (signal.aborted) break;
        if (!outcome.allowed) {
          results.set(p.id, errorResult(p.id, `Permission denied: ${outcome.reason}`));
          ev.onToolStatus?.(p.id, 'denied', { result: outcome.reason });
          continue;
        }
        runnable.push(p);
      }
      await inParallel(
        runnable,
        MAX_PARALLEL_CALLS,
        async (p) => {
          ranIds.add(p.id);
          if (signal.aborted) return;
          ev.onToolStatus?.(p.id, 'running');
          const started = Date.now();
          const ran = await runTool(p, deps.cwd, signal, ev.onToolOutput && ((text) => ev.onToolOutput!(p.id, text)));
          const r = deps.reviseResult && !ran.interrupted ? { ...ran, ...deps.reviseResult({ id: p.id, tool: p.tool!, input: p.parsed.ok ? p.parsed.value : undefined }, ran, history) } : ran;
          const durationMs = Date.now() - started;
          if (signal.aborted && r.interrupted) return;
          // Capped where it enters the history: one enormous result would make every later request too
          // large to send. Blocks (an image from an MCP server, capped by the MCP layer) go as they are.
          const content = r.blocks?.length ? r.blocks : capResultText(r.content || '(no output)');
          // An image counts by its base64 text, which the transcript and every request carry (pass 91 M1).
          const chars = typeof content === 'string' ? content.length : content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : b.type === 'image' && b.source.type === 'base64' ? b.source.data.length : JSON.stringify(b).length), 0);
          const kept = resultChars + chars <= TURN_RESULTS_MAX_CHARS;
          if (kept) resultChars += chars;
          const over = kept ? undefined : overTurnBudget(chars, resultChars);
          results.set(p.id, { type: 'tool_result', tool_use_id: p.id, content: over ?? content, ...(r.isError || over ? { is_error: true } : {}) });
          // What the panel and stream-json show is what the model gets, capped the same way.
          ev.onToolStatus?.(p.id, r.isError || over ? 'error' : 'done', { result: over ?? (typeof content === 'string' ? content : r.content), durationMs });
        },
      );
    }
    if (signal.aborted) {
      const answered = plans.map((p) => {
        const r = results.get(p.id);
        if (r) return r;
        ev.onToolStatus?.(p.id, 'interrupted');
        return errorResult(p.id, INTERRUPTED_TOOL_RESULT);
      });
      return interruptedAfterTools(history, answered, turns, finalText);
    }
    // Every call that ran, a failed one too (a Bash command that exits 1 may have changed files).
    const ran = plans.filter((p) => p.tool && p.parsed.ok && ranIds.has(p.id));
    const extra = deps.afterTools && ran.length ? await deps.afterTools(ran.map((p) => ({ tool: p.tool!, input: p.parsed.ok ? p.parsed.value : undefined, failed: results.get(p.id)?.is_error === true }))) : [];
    history = appendUserContent(history, [...plans.map((p) => results.get(p.id)!), ...extra]);
    await ev.onHistory?.(history);
    const round = plans.map((p) => ({ name: p.name, input: p.input, isError: results.get(p.id)!.is_error === true }));
    if (deps.finishAfterTools?.(round, finalText)) {
      return { history, outcome: 'end_turn', turns, finalText };
    }
  }
}

/** Below this an answer is not worth asking for: the turn fails with the API's message instead. */
const MIN_RETRY_OUTPUT_TOKENS = 1_024;
/** Room left for the API's own rounding when it told us the figures. */
const OVERFLOW_SLACK_TOKENS = 1_000;

function smallerMaxTokens(err: ApiError, asked: number): number | undefined {
  const o = contextOverflow(err);
  if (!o) return undefined;
  const fits = o.contextLimit - o.inputTokens - OVERFLOW_SLACK_TOKENS;
  return fits >= MIN_RETRY_OUTPUT_TOKENS && fits < asked ? fits : undefined;
}

function summarize(p: CallPlan): string {
  if (p.tool && p.parsed.ok) {
    try {
      return p.tool.summarize(p.parsed.value);
    } catch {
      return p.name;
    }
  }
  return p.name;
}

function errorResult(id: string, message: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: id, content: message, is_error: true };
}

/**
 * Stop answers a running call at once: a tool that ignores the signal (a read blocked in the
 * kernel, a busy loop) finishes in the background and its result is dropped.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, onAbort: T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onAbort);
  return new Promise<T>((resolve, reject) => {
    const abort = () => resolve(onAbort);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (r) => {
        signal.removeEventListener('abort', abort);
        resolve(r);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

async function runTool(p: CallPlan, cwd: string, signal: AbortSignal, onOutput: ((text: string) => void) | undefined): Promise<ToolResult & { interrupted?: boolean }> {
  try {
    const call = Promise.resolve().then(() => p.tool!.call(p.parsed.ok ? p.parsed.value : undefined, { cwd, signal, ...(onOutput ? { onOutput } : {}) }));
    const r = await untilAborted<ToolResult & { interrupted?: boolean }>(call, signal, { content: INTERRUPTED_TOOL_RESULT, isError: true, interrupted: true });
    return signal.aborted ? { ...r, interrupted: true } : r;
  } catch (err) {
    return { content: `${p.name} failed: ${err instanceof Error ? err.message : String(err)}`, isError: true, interrupted: signal.aborted };
  }
}

/** Stop during a stream: keep the partial answer and answer any finished tool call. */
function interrupted(history: MessageParam[], partial: AssistantBlock[], turns: number, finalText: string): LoopResult {
  let next = history;
  const answer = partial.filter((b) => (b.type === 'text' ? b.text.trim().length > 0 : b.type === 'tool_use'));
  // Finished thinking stays with the answer it led to, in order: the API wants a tool call's
  // thinking back with it. Unfinished thinking never reaches `partial` (it has no signature).
  const kept = answer.length ? partial.filter((b) => answer.includes(b) || (b.type === 'thinking' && b.signature) || b.type === 'redacted_thinking') : [];
  if (kept.length) {
    next = [...next, assistantMessage(kept)];
    const uses = kept.filter((b): b is Extract<AssistantBlock, { type: 'tool_use' }> => b.type === 'tool_use');
    if (uses.length) next = appendUserContent(next, uses.map((u) => errorResult(u.id, INTERRUPTED_TOOL_RESULT)));
  }
  next = appendUserContent(next, [{ type: 'text', text: INTERRUPTED_MARKER }]);
  return { history: next, outcome: 'aborted', turns, finalText };
}

function interruptedAfterTools(history: MessageParam[], results: ToolResultBlockParam[], turns: number, finalText: string): LoopResult {
  const next = appendUserContent(history, [...results, { type: 'text', text: INTERRUPTED_MARKER }]);
  return { history: next, outcome: 'aborted', turns, finalText };
}
