import type { MessagesClient } from '../api/messagesClient';
import { appendUserContent } from '../conversation/history';
import type { ForkRunner } from '../memory/turnEndWork';
import type { ToolRegistry } from '../tools/registry';
import { runForkedAgent } from './fork';
import { forkRequestBuilder, type MainRequestBuilder } from './forkPrefix';
import type { PermissionEngine } from '../permissions/permissionBroker';

/**
 * Background agents (session notes, memory extraction) on the same loop as the main agent. Their
 * requests are the main loop's (system, tools, messages) with the fork's instruction appended
 * as the last user block, so they read the main conversation's prompt cache; they run only the
 * tools whose traits allow background use, and what each may touch is its own permission check.
 */
export function createForkRunner(opts: {
  client(): Promise<Pick<MessagesClient, 'stream'> | undefined>;
  /** The main loop's request builder. */
  mainRequest: MainRequestBuilder;
  /** The main loop's tools (what its requests offer). */
  offered: ToolRegistry;
  tools: ToolRegistry;
  cwd: string;
  permissions?: PermissionEngine;
}): ForkRunner {
  const runnable = opts.tools.forBackground();
  return async (req) => {
    const client = await opts.client();
    if (!client) return;
    // The fork's own role goes with its instruction: a system prompt of its own would miss the cache.
    const instruction = [...req.system, req.prompt].filter((s) => s.trim()).join('\n\n');
    const r = await runForkedAgent({
      client,
      buildRequest: forkRequestBuilder(opts.mainRequest, req.source),
      tools: runnable.tools,
      offered: opts.offered,
      // Bound by the main agent's rules (its own folder, the workspace's reads, nothing untrusted);
      // an engine without boundedCheck (a test double) leaves the fork's own check alone.
      canUseTool: opts.permissions?.boundedCheck?.(req.roots ?? [], req.canUseTool) ?? req.canUseTool,
      messages: appendUserContent(req.messages, [{ type: 'text', text: instruction }]),
      cwd: opts.cwd,
      maxTurns: req.maxTurns,
      ...(req.finishAfterTools ? { finishAfterTools: req.finishAfterTools } : {}),
    });
    return { messages: r.history, outcome: r.outcome };
  };
}
