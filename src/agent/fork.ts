import type { MessagesClient } from '../api/messagesClient';
import type { MessageParam, MessagesRequest } from '../api/types';
import { runQueryLoop, type FinishedCall, type LoopResult } from './queryLoop';
import type { PermissionOutcome, Tool } from '../tools/types';

export interface ForkOptions {
  client: Pick<MessagesClient, 'stream'>;
  /**
   * The fork's requests: the main loop's request for the fork's history (see forkRequestBuilder),
   * marked with the fork's source so they never trigger compaction or extraction themselves.
   */
  buildRequest(history: readonly MessageParam[]): Promise<MessagesRequest>;
  /** The tools the fork may run. */
  tools: readonly Tool[];
  /** Every tool the requests offer (the main loop's); a call to one outside `tools` is refused by name. */
  offered?: { get(name: string): Tool | undefined };
  /** The fork's own permission check: it never asks anyone, it allows or denies. */
  canUseTool(tool: Tool, input: unknown): PermissionOutcome;
  messages: MessageParam[];
  cwd: string;
  maxTurns: number;
  signal?: AbortSignal;
  onRequest?(request: MessagesRequest): void;
  /** True ends the fork after a round of tool calls, without a request for its closing words. */
  finishAfterTools?(calls: readonly FinishedCall[], replyText: string): boolean;
}

/**
 * A background agent with its own permissions: session-memory updates and memory extraction run
 * through here, on the same loop as the main agent. It sees the main loop's tool list (so its
 * requests share the main prompt's cache) but runs only its own tools.
 */
export async function runForkedAgent(opts: ForkOptions): Promise<LoopResult> {
  const signal = opts.signal ?? new AbortController().signal;
  const runnable = new Map(opts.tools.map((t) => [t.name, t]));
  return runQueryLoop(
    opts.messages,
    {
      client: opts.client,
      tools: { get: (name) => runnable.get(name) ?? opts.offered?.get(name) },
      buildRequest: async (history) => {
        const request = await opts.buildRequest(history);
        opts.onRequest?.(request);
        return request;
      },
      checkPermission: async ({ tool, input }) =>
        runnable.has(tool.name) ? opts.canUseTool(tool, input) : { allowed: false, reason: `a background agent may not use ${tool.name}` },
      cwd: opts.cwd,
      maxTurns: opts.maxTurns,
      ...(opts.finishAfterTools ? { finishAfterTools: opts.finishAfterTools } : {}),
    },
    signal,
  );
}
