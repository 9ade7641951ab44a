import type { MessagesClient } from '../api/messagesClient';
import { appendUserContent } from '../conversation/history';
import { buildSystemBlocks } from '../context/systemPrompt';
import type { ForkRunner } from '../memory/memoryWiring';
import type { ToolRegistry } from '../tools/registry';
import { runForkedAgent } from './fork';
import type { PermissionEngine } from './permissionBroker';

/**
 * Background agents (session notes, memory extraction) on the same loop as the main agent, with
 * the tools whose traits allow background use; what each may touch is its own permission check.
 */
export function createForkRunner(opts: { client(): Promise<Pick<MessagesClient, 'stream'> | undefined>; model(): string; tools: ToolRegistry; cwd: string; permissions?: PermissionEngine }): ForkRunner {
  const tools = opts.tools.forBackground();
  return async (req) => {
    const client = await opts.client();
    if (!client) return;
    const r = await runForkedAgent({
      client,
      model: opts.model(),
      maxTokens: 8000,
      source: req.source,
      system: buildSystemBlocks(req.system),
      tools: tools.tools,
      // Bound by the main agent's rules (its own folder, the workspace's reads, nothing untrusted);
      // an engine without boundedCheck (a test double) leaves the fork's own check alone.
      canUseTool: opts.permissions?.boundedCheck?.(req.roots ?? [], req.canUseTool) ?? req.canUseTool,
      messages: appendUserContent(req.messages, [{ type: 'text', text: req.prompt }]),
      cwd: opts.cwd,
      maxTurns: req.maxTurns,
    });
    return { messages: r.history, outcome: r.outcome };
  };
}
