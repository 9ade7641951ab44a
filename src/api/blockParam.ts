import type { AssistantBlock, ContentBlockParam } from './types';

/**
 * How a streamed assistant block goes back into a request. The one copy: the loop and the summary
 * retry both echo the model's turn, and a drifted copy once kept a blank text block, which the API
 * refuses (a 400 on this and every later request).
 */
function blockParam(block: AssistantBlock): ContentBlockParam | undefined {
  switch (block.type) {
    case 'text':
      return block.text.trim().length ? { type: 'text', text: block.text } : undefined;
    case 'thinking':
      // Without its signature the API refuses a thinking block; dropping it is allowed.
      return block.signature ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : undefined;
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
  }
}

/** The blocks of a turn as request content, blank and unsigned ones left out. */
export function blockParams(blocks: readonly AssistantBlock[]): ContentBlockParam[] {
  return blocks.map(blockParam).filter((b): b is ContentBlockParam => b !== undefined);
}
