// The request checks the real Messages API makes that a client bug is most likely to trip:
// a history the API refuses is the failure that only shows up in production, so the
// stand-in refuses it too. Messages follow the API's wording where it is known.
import { validateThinking, type ThinkingContext } from './thinking';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_CACHE_BREAKPOINTS = 4;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ValidateOptions {
  /** count_tokens takes the same body without max_tokens. */
  requireMaxTokens?: boolean;
  /** What the thinking rules need from the server (signing secret, model capabilities, issued blocks). */
  thinking?: ThinkingContext;
}

interface MergedMessage {
  role: 'user' | 'assistant';
  /** Index of the first original message merged into this one, for error paths. */
  index: number;
  blocks: unknown[];
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function countCacheControl(v: unknown): number {
  if (!isObject(v)) return 0;
  let n = isObject(v.cache_control) ? 1 : 0;
  // tool_result blocks can carry breakpoints inside their content too.
  if (Array.isArray(v.content)) for (const b of v.content) n += countCacheControl(b);
  return n;
}

/** Returns the API's error message for a request it would refuse, or null when it is valid. */
export function validateRequest(body: unknown, opts: ValidateOptions = {}): string | null {
  const requireMaxTokens = opts.requireMaxTokens ?? true;
  if (!isObject(body)) return 'body: Input should be a valid dictionary';
  if (body.model === undefined) return 'model: Field required';
  if (typeof body.model !== 'string' || body.model.length === 0) return 'model: Input should be a valid string';
  if (requireMaxTokens || body.max_tokens !== undefined) {
    if (body.max_tokens === undefined) return 'max_tokens: Field required';
    if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) return 'max_tokens: Input should be a valid integer';
    if (body.max_tokens < 1) return 'max_tokens: Input should be greater than or equal to 1';
  }
  if (body.messages === undefined) return 'messages: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Input should be a valid list';
  if (body.messages.length === 0) return 'messages: at least one message is required';

  if (body.system !== undefined) {
    if (Array.isArray(body.system)) {
      for (const [i, b] of body.system.entries()) {
        if (!isObject(b) || b.type !== 'text') return `system.${i}: Input should be a valid text block`;
        if (typeof b.text !== 'string' || b.text.length === 0) return 'system: text content blocks must be non-empty';
      }
    } else if (typeof body.system !== 'string') {
      return 'system: Input should be a valid string or list of text blocks';
    }
  }
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return 'tools: Input should be a valid list';
    const names = new Set<string>();
    for (const [i, t] of body.tools.entries()) {
      if (!isObject(t) || typeof t.name !== 'string' || t.name.length === 0) return `tools.${i}.name: Field required`;
      // The API's own pattern: a longer name (an MCP server's) fails the whole request.
      if (!TOOL_NAME.test(t.name)) return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
      if (names.has(t.name)) return 'tools: Tool names must be unique.';
      names.add(t.name);
      if (t.type === undefined || t.type === 'custom') {
        if (!isObject(t.input_schema)) return `tools.${i}.custom.input_schema: Field required`;
        if (t.input_schema.type !== 'object') return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
      }
    }
  }

  // The current API (and the SDK's types) accept `system`-role messages between turns, with
  // text content only; they take no part in alternation or tool pairing.
  for (const [i, m] of (body.messages as unknown[]).entries()) {
    if (isObject(m) && m.role === 'system') {
      const c = m.content;
      const textOnly = typeof c === 'string' ? c.length > 0 : Array.isArray(c) && c.length > 0 && c.every((b) => isObject(b) && b.type === 'text');
      if (!textOnly) return `messages.${i}.content: a system message takes text content only`;
      if (i === 0) return 'messages: first message must use the "user" role';
    }
  }
  const messages = (body.messages as unknown[]).filter((m) => !(isObject(m) && m.role === 'system'));
  // The API refuses a tool_use id seen before anywhere in the request ("messages.1.content.1:
  // `tool_use` ids must be unique"), which wedges a session whose server repeats ids.
  const toolUseIds = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const [j, b] of m.content.entries()) {
      if (!isObject(b) || b.type !== 'tool_use' || typeof b.id !== 'string') continue;
      if (toolUseIds.has(b.id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
      toolUseIds.add(b.id);
    }
  }
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) return `messages.${i}: Input should be a valid dictionary`;
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const last = i === messages.length - 1;
    const empty = (typeof m.content === 'string' && m.content.length === 0) || (Array.isArray(m.content) && m.content.length === 0);
    // The API lets an empty final assistant message through (it is a no-op prefill).
    if (empty && !(last && m.role === 'assistant')) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages.${i}.content: Input should be a valid string or list`;
    if (Array.isArray(m.content)) {
      for (const [j, b] of m.content.entries()) {
        if (!isObject(b) || typeof b.type !== 'string') return `messages.${i}.content.${j}: Input should be a valid content block`;
        if (b.type === 'text' && (typeof b.text !== 'string' || b.text.length === 0)) return 'messages: text content blocks must be non-empty';
        if (b.type === 'text' && (b.text as string).trim().length === 0) return 'messages: text content blocks must contain non-whitespace text';
        if (b.type === 'tool_use' && (typeof b.id !== 'string' || typeof b.name !== 'string')) return `messages.${i}.content.${j}.tool_use: id and name are required`;
        if (b.type === 'tool_result' && typeof b.tool_use_id !== 'string') return `messages.${i}.content.${j}.tool_result.tool_use_id: Field required`;
        if ((b.type === 'tool_use' || b.type === 'thinking' || b.type === 'redacted_thinking') && m.role !== 'assistant') {
          return `messages.${i}.content.${j}: \`${b.type}\` blocks can only be in \`assistant\` messages`;
        }
        if (b.type === 'tool_result' && m.role !== 'user') {
          return `messages.${i}.content.${j}: \`tool_result\` blocks can only be in \`user\` messages`;
        }
      }
    }
  }
  if ((messages[0] as Json).role !== 'user') return 'messages: first message must use the "user" role';
  // A prefill is continued verbatim, so the API refuses one that ends in whitespace (a
  // stopped answer resent as-is trips this).
  const final = messages.at(-1) as Json;
  if (final.role === 'assistant') {
    const blocks = blocksOf(final.content) as Json[];
    const tail = blocks.at(-1);
    if (tail?.type === 'text' && typeof tail.text === 'string' && /\s$/.test(tail.text)) {
      return 'messages: final assistant content cannot end with trailing whitespace';
    }
  }

  // The API merges consecutive same-role turns before checking tool pairing.
  const merged: MergedMessage[] = [];
  for (const [i, raw] of messages.entries()) {
    const m = raw as Json;
    const role = m.role as 'user' | 'assistant';
    const prev = merged.at(-1);
    if (prev && prev.role === role) prev.blocks.push(...blocksOf(m.content));
    else merged.push({ role, index: i, blocks: [...blocksOf(m.content)] });
  }

  for (const [k, m] of merged.entries()) {
    if (m.role === 'user') {
      const blocks = m.blocks as Json[];
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
      const lateResult = blocks.findIndex((b, j) => b.type === 'tool_result' && firstOther !== -1 && j > firstOther);
      const prev = merged[k - 1];
      const offered = new Set(prev ? (prev.blocks as Json[]).filter((b) => b.type === 'tool_use').map((b) => b.id as string) : []);
      for (const [j, b] of blocks.entries()) {
        if (b.type === 'tool_result' && !offered.has(b.tool_use_id as string)) {
          return `messages.${m.index}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
      if (lateResult !== -1) {
        return `messages.${m.index}: \`tool_result\` blocks must come first in the user message content, before any other blocks`;
      }
    } else {
      const ids = (m.blocks as Json[]).filter((b) => b.type === 'tool_use').map((b) => b.id as string);
      const next = merged[k + 1];
      if (ids.length === 0 || !next) continue;
      const answered = new Set((next.blocks as Json[]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id as string));
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `messages.${m.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
  }

  let breakpoints = 0;
  if (Array.isArray(body.tools)) for (const t of body.tools) breakpoints += countCacheControl(t);
  if (Array.isArray(body.system)) for (const b of body.system) breakpoints += countCacheControl(b);
  for (const m of messages) {
    const c = (m as Json).content;
    if (Array.isArray(c)) for (const b of c) breakpoints += countCacheControl(b);
  }
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  }
  return validateThinking(body, messages as Json[], opts.thinking);
}
