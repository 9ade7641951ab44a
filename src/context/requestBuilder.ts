import { withoutBlankText } from '../conversation/blankText';
import type { ContentBlockParam, MessageParam, MessagesRequest, SystemBlock, ToolDefinition } from '../api/types';

/**
 * Puts a cache breakpoint on the last block of the last message, so the whole history up to
 * now is written to the cache and the next request (which extends it) reads it back.
 * Together with the two system breakpoints that is three of the API's four.
 */
export function withHistoryBreakpoint(messages: readonly MessageParam[]): MessageParam[] {
  if (messages.length === 0) return [];
  const out = messages.slice();
  const last = out[out.length - 1]!;
  const blocks: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content.slice();
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
    if (b.type === 'text' && b.text.length === 0) continue;
    blocks[i] = { ...b, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
    break;
  }
  out[out.length - 1] = { ...last, content: blocks } as MessageParam;
  return out;
}

export function buildMessagesRequest(args: {
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  tools: ToolDefinition[];
  history: readonly MessageParam[];
  source?: MessagesRequest['source'];
}): MessagesRequest {
  return {
    model: args.model,
    maxTokens: args.maxTokens,
    system: args.system,
    tools: args.tools,
    // Blank text is dropped from what is sent, whatever history holds (an older transcript).
    messages: withHistoryBreakpoint(withoutBlankText(args.history)),
    source: args.source ?? 'main',
  };
}
