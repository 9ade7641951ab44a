import type Anthropic from '@anthropic-ai/sdk';

export type MessageParam = Anthropic.MessageParam;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type TextBlockParam = Anthropic.TextBlockParam;
export type ToolUseBlockParam = Anthropic.ToolUseBlockParam;
export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;
export type ToolDefinition = Anthropic.Tool;
/** One block of a tool result that is more than text (an image from an MCP server). */
export type ToolResultContentBlock = Exclude<NonNullable<ToolResultBlockParam['content']>, string>[number];
/** What the request says about thinking: adaptive, enabled with a budget, or disabled. */
export type ThinkingParam = Anthropic.ThinkingConfigParam;

/** The blocks an assistant turn can carry back into history. */
export type AssistantBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

export interface SystemBlock {
  type: 'text';
  text: string;
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' };
}

export interface MessagesRequest {
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  tools: ToolDefinition[];
  messages: MessageParam[];
  /** Marks which request this is, so compaction and memory forks can be told apart. */
  source: 'main' | 'compact' | 'session_memory' | 'memory_extraction' | 'title';
  /** Omitted: the model's default (see thinking.ts for how it is chosen). */
  thinking?: ThinkingParam;
  /** `anthropic-beta` values this request needs (a context-window variant's). */
  betas?: readonly string[];
}

export interface AssistantTurn {
  blocks: AssistantBlock[];
  stopReason: string | null;
  usage: Usage;
  model: string;
}

/** Streaming callbacks; each fires as the data arrives. */
export interface StreamObserver {
  onTextDelta?(blockIndex: number, text: string): void;
  onThinkingDelta?(blockIndex: number, text: string): void;
  onToolUseStart?(blockIndex: number, block: { id: string; name: string }): void;
  onBlockComplete?(blockIndex: number, block: AssistantBlock): void;
  /** A retry is about to happen; any partial output of this attempt is void. */
  onRetry?(info: { attempt: number; delayMs: number; reason: string }): void;
}
