import type { AssistantBlock, AssistantTurn, ContentBlockParam, MessageParam, MessagesRequest, StreamObserver, SystemBlock } from '../api/types';
import { blockParams } from '../api/blockParam';

/** Builds the main loop's request for a history (see the agent's forkRequestBuilder). */
export type SharedRequestBuilder = (history: readonly MessageParam[]) => Promise<MessagesRequest>;

export interface SummaryTransport {
  stream(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver): Promise<AssistantTurn>;
}

/** How often a summary reply that called a tool is refused and asked again. */
const SUMMARY_TOOL_RETRIES = 2;

export const SUMMARY_TOOLS_REFUSED = 'Tools are not available while the summary is written. Reply now with the <analysis> and <summary> blocks as plain text.';

function turnText(turn: AssistantTurn): string {
  return turn.blocks
    .filter((b): b is Extract<AssistantBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

/**
 * Sends the summary request and returns the reply's text. With `shared`, the request is the main
 * loop's own (system, tools, thinking, reminders) for the history plus the summary instruction, so
 * it reads the prompt cache the conversation wrote; `tool_choice` is left alone because changing
 * it invalidates the cached messages. A model that answers with a tool call anyway gets its calls
 * refused and is asked again on the same prefix (still cached), at most SUMMARY_TOOL_RETRIES times.
 */
export async function requestSummary(opts: {
  messages: MessageParam[];
  client: SummaryTransport;
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  shared?: SharedRequestBuilder;
  signal: AbortSignal;
}): Promise<string> {
  let messages = opts.messages;
  const build = async (): Promise<MessagesRequest> => {
    if (!opts.shared) return { model: opts.model, maxTokens: opts.maxTokens, system: opts.system, tools: [], messages, source: 'compact' };
    const r = await opts.shared(messages);
    // A thinking budget needs room above it; otherwise the summary's own cap.
    const maxTokens = r.thinking?.type === 'enabled' ? r.maxTokens : Math.min(r.maxTokens, opts.maxTokens);
    return { ...r, maxTokens, source: 'compact' };
  };
  for (let attempt = 0; ; attempt++) {
    const turn = await opts.client.stream(await build(), opts.signal, {});
    const text = turnText(turn);
    const calls = turn.blocks.filter((b): b is Extract<AssistantBlock, { type: 'tool_use' }> => b.type === 'tool_use');
    if (!calls.length || /<summary>/i.test(text) || attempt >= SUMMARY_TOOL_RETRIES) return text;
    const answer = blockParams(turn.blocks);
    messages = [
      ...messages,
      { role: 'assistant', content: answer },
      { role: 'user', content: [...calls.map((c): ContentBlockParam => ({ type: 'tool_result', tool_use_id: c.id, content: SUMMARY_TOOLS_REFUSED, is_error: true })), { type: 'text', text: SUMMARY_TOOLS_REFUSED }] },
    ];
  }
}
