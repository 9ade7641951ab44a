import type { ContentBlockParam, MessageParam, MessagesRequest } from '../api/types';
import { markable } from '../context/requestBuilder';

/** Builds the request the main loop would send for a history (system, tools, reminders, thinking). */
export type MainRequestBuilder = (history: readonly MessageParam[]) => Promise<MessagesRequest>;

/** The API's limit on cache breakpoints in one request. */
const MAX_BREAKPOINTS = 4;

interface Position {
  message: number;
  block: number;
}

const blocksOf = (m: MessageParam): ContentBlockParam[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);

/** The last block a breakpoint may sit on before the request's final block (the fork's instruction). */
function boundaryOf(messages: readonly MessageParam[]): Position | undefined {
  let skip = true;
  for (let m = messages.length - 1; m >= 0; m--) {
    const blocks = blocksOf(messages[m]!);
    for (let b = blocks.length - 1; b >= 0; b--) {
      if (skip) {
        skip = false;
        continue;
      }
      if (markable(blocks[b]!)) return { message: m, block: b };
    }
  }
  return undefined;
}

function breakpoints(r: MessagesRequest): number {
  const marked = (x: unknown) => typeof x === 'object' && x !== null && 'cache_control' in x && (x as { cache_control?: unknown }).cache_control !== undefined;
  return r.system.filter(marked).length + r.tools.filter(marked).length + r.messages.reduce((n, m) => n + blocksOf(m).filter(marked).length, 0);
}

function mark(messages: readonly MessageParam[], at: Position): MessageParam[] {
  const out = messages.slice();
  const m = out[at.message]!;
  const blocks = blocksOf(m).slice();
  const b = blocks[at.block]!;
  if ('cache_control' in b && b.cache_control) return out;
  blocks[at.block] = { ...b, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
  out[at.message] = { ...m, content: blocks } as MessageParam;
  return out;
}

/** Drops the first message breakpoint before `before`, or returns `messages` itself when there is none. */
function unmarkFirst(messages: readonly MessageParam[], before: Position): readonly MessageParam[] {
  for (let m = 0; m <= before.message && m < messages.length; m++) {
    const blocks = blocksOf(messages[m]!);
    const b = blocks.findIndex((x, i) => (m < before.message || i < before.block) && 'cache_control' in x && x.cache_control);
    if (b < 0) continue;
    const { cache_control: _drop, ...rest } = blocks[b] as ContentBlockParam & { cache_control?: unknown };
    const out = messages.slice();
    const copy = blocks.slice();
    copy[b] = rest as ContentBlockParam;
    out[m] = { ...messages[m]!, content: copy } as MessageParam;
    return out;
  }
  return messages;
}

/**
 * The requests of a background agent (session notes, memory extraction, the compaction summary)
 * that extends the main loop's conversation: each is the main loop's own request for the fork's
 * history — the same system blocks, tool definitions, reminders and thinking, byte for byte —
 * so the prefix the main loop just wrote to the prompt cache is read back, not written again.
 * Only `source` differs (it never leaves the process). The parent's prefix keeps a breakpoint
 * of its own where it ends, so the cache is found however long the fork's own turns grow.
 */
export function forkRequestBuilder(main: MainRequestBuilder, source: Exclude<MessagesRequest['source'], 'main'>): MainRequestBuilder {
  let boundary: Position | undefined;
  return async (history) => {
    const r = await main(history);
    boundary ??= boundaryOf(r.messages);
    const request: MessagesRequest = { ...r, source };
    if (!boundary || boundary.message >= r.messages.length) return request;
    // The main loop's breakpoint before its next clearing is of no use to a fork (it never
    // clears); at the limit it gives its place to the fork's own.
    const full = breakpoints(request) >= MAX_BREAKPOINTS;
    const messages = full ? unmarkFirst(request.messages, boundary) : request.messages;
    if (full && messages === request.messages) return request;
    return { ...request, messages: mark(messages, boundary) };
  };
}
