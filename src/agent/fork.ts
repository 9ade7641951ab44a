import type { MessagesClient } from '../api/messagesClient';
import type { MessageParam, MessagesRequest, SystemBlock } from '../api/types';
import { buildMessagesRequest } from '../context/requestBuilder';
import { runQueryLoop, type LoopResult } from './queryLoop';
import type { PermissionOutcome, Tool } from '../tools/types';

export interface ForkOptions {
  client: Pick<MessagesClient, 'stream'>;
  model: string;
  maxTokens: number;
  /** Marks the requests so they never trigger compaction or extraction themselves. */
  source: Exclude<MessagesRequest['source'], 'main'>;
  system: SystemBlock[];
  tools: readonly Tool[];
  /** The fork's own permission check: it never asks anyone, it allows or denies. */
  canUseTool(tool: Tool, input: unknown): PermissionOutcome;
  messages: MessageParam[];
  cwd: string;
  maxTurns: number;
  signal?: AbortSignal;
  onRequest?(request: MessagesRequest): void;
}

/**
 * A background agent with its own request, tools and permissions: session-memory updates
 * and memory extraction run through here, on the same loop as the main agent.
 */
export async function runForkedAgent(opts: ForkOptions): Promise<LoopResult> {
  const signal = opts.signal ?? new AbortController().signal;
  return runQueryLoop(
    opts.messages,
    {
      client: opts.client,
      tools: new Map(opts.tools.map((t) => [t.name, t])),
      buildRequest: (history) => {
        const request = buildMessagesRequest({
          model: opts.model,
          maxTokens: opts.maxTokens,
          system: opts.system,
          tools: opts.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
          history,
          source: opts.source,
        });
        opts.onRequest?.(request);
        return request;
      },
      checkPermission: async ({ tool, input }) => opts.canUseTool(tool, input),
      cwd: opts.cwd,
      maxTurns: opts.maxTurns,
    },
    signal,
  );
}
