import { withoutBlankText } from '../conversation/blankText';
import type { ContentBlockParam, MessageParam, MessagesRequest, SystemBlock, ToolDefinition } from '../api/types';

/** Whether the API lets a block carry a cache breakpoint (not thinking, not blank text). */
export const markable = (b: ContentBlockParam): boolean => b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text.length === 0);

/**
 * Puts a cache breakpoint on the last block of the last message, so the whole history up to
 * now is written to the cache and the next request (which extends it) reads it back.
 * Together with the two system breakpoints that is three of the API's four; the fourth may go
 * before the next clearing's first result (withBreakpointBefore).
 */
export function withHistoryBreakpoint(messages: readonly MessageParam[]): MessageParam[] {
  if (messages.length === 0) return [];
  const out = messages.slice();
  const last = out[out.length - 1]!;
  const blocks: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content.slice();
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (!markable(b)) continue;
    blocks[i] = { ...b, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
    break;
  }
  out[out.length - 1] = { ...last, content: blocks } as MessageParam;
  return out;
}

/**
 * Puts a cache breakpoint on the last block before the tool result `toolUseId`: the next
 * clearing starts at that result, so this prefix stays the same through it, and with an entry
 * of its own the clearing request reads it back (the API finds a cached prefix only where some
 * request put a breakpoint). Nothing changes when the result is not there, or when no block
 * before it can carry a breakpoint.
 */
export function withBreakpointBefore(messages: readonly MessageParam[], toolUseId: string): MessageParam[] {
  for (const [at, m] of messages.entries()) {
    if (typeof m.content === 'string') continue;
    const block = m.content.findIndex((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId);
    if (block >= 0) return markLastBefore(messages, at, block) ?? messages.slice();
  }
  return messages.slice();
}

/**
 * Moves the history breakpoint back to where the request before this one put it: before the
 * latest assistant message. This request reads what that one wrote and sends its own new tail
 * uncached, for the next request (a clearing) rewrites that tail anyway.
 */
export function withTailUncached(messages: readonly MessageParam[]): MessageParam[] {
  let at = -1;
  for (let m = messages.length - 1; m >= 0 && at < 0; m--) if (messages[m]!.role === 'assistant') at = m;
  return (at > 0 ? markLastBefore(messages, at, 0) : undefined) ?? withHistoryBreakpoint(messages);
}

/** Marks the last block that can carry a breakpoint before block `block` of message `message` (string messages are passed over); undefined when there is none. */
function markLastBefore(messages: readonly MessageParam[], message: number, block: number): MessageParam[] | undefined {
  for (let m = message; m >= 0; m--) {
    const msg = messages[m]!;
    // A string message stays a string: as a block list it would be another prefix to the cache.
    if (typeof msg.content === 'string') continue;
    const blocks = msg.content.slice();
    for (let b = (m === message ? block : blocks.length) - 1; b >= 0; b--) {
      if (!markable(blocks[b]!)) continue;
      const out = messages.slice();
      blocks[b] = { ...blocks[b]!, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
      out[m] = { ...msg, content: blocks } as MessageParam;
      return out;
    }
  }
  return undefined;
}

export function buildMessagesRequest(args: {
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  tools: ToolDefinition[];
  history: readonly MessageParam[];
  source?: MessagesRequest['source'];
  /** The tool result the next clearing starts at (cacheHints): a breakpoint goes just before it. */
  frontier?: string;
  /** The next request is expected to clear (cacheHints): see withTailUncached. */
  tailUncached?: boolean;
}): MessagesRequest {
  const history = withoutBlankText(args.history);
  const messages = args.tailUncached ? withTailUncached(history) : withHistoryBreakpoint(history);
  return {
    model: args.model,
    maxTokens: args.maxTokens,
    system: args.system,
    tools: args.tools,
    // Blank text is dropped from what is sent, whatever history holds (an older transcript).
    messages: args.frontier ? withBreakpointBefore(messages, args.frontier) : messages,
    source: args.source ?? 'main',
  };
}
