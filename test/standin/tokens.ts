// Token counts for the stand-in. The numbers are the Claude tokenizer's, not the API's
// (the real API adds framing tokens per message and tool), which is close enough for
// tests that compare requests with each other and for cache thresholds.
import { createHash } from 'node:crypto';
import { getTokenizer } from '@anthropic-ai/tokenizer';

// `countTokens` from the package builds a fresh encoder (parsing the whole BPE table)
// on every call; one shared encoder keeps a request with hundreds of blocks fast.
let encoder: ReturnType<typeof getTokenizer> | undefined;

export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  encoder ??= getTokenizer();
  return encoder.encode(text.normalize('NFKC'), 'all').length;
}

/** One cacheable unit of the prompt, in the order the API builds it: tools, system, messages. */
export interface PromptSegment {
  /** Stable text that identifies the block's content (cache_control excluded), for prefix hashes. */
  key: string;
  tokens: number;
  /** Set when the block carries a cache_control breakpoint. */
  cacheTtl?: '5m' | '1h';
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function withoutCacheControl(block: Json): Json {
  const { cache_control: _cc, ...rest } = block;
  return rest;
}

function ttlOf(block: unknown): '5m' | '1h' | undefined {
  if (!isObject(block) || !isObject(block.cache_control)) return undefined;
  return block.cache_control.ttl === '1h' ? '1h' : '5m';
}

/** Tokens of one content block as the model would read it. */
export function blockTokens(block: unknown): number {
  if (typeof block === 'string') return countTextTokens(block);
  if (!isObject(block)) return 0;
  switch (block.type) {
    case 'text':
      return countTextTokens(typeof block.text === 'string' ? block.text : '');
    case 'thinking':
      return countTextTokens(typeof block.thinking === 'string' ? block.thinking : '');
    case 'redacted_thinking':
      return countTextTokens(typeof block.data === 'string' ? block.data : '');
    case 'tool_use':
      return countTextTokens(String(block.name ?? '')) + countTextTokens(JSON.stringify(block.input ?? {}));
    case 'tool_result': {
      const c = block.content;
      if (typeof c === 'string') return countTextTokens(c);
      if (Array.isArray(c)) return c.reduce((n: number, b) => n + blockTokens(b), 0);
      return 0;
    }
    case 'image':
    case 'document':
      // The API bills images by pixel area; a fixed mid-size figure keeps tests deterministic.
      return 1600;
    default:
      return countTextTokens(JSON.stringify(block));
  }
}

// A long session resends the same blocks in every request; counting each once keeps a
// benchmark of hundreds of 200k-token requests from spending its time in the tokenizer.
// Keyed by a digest so the memo holds no copies of the blocks.
const MEMO_LIMIT = 100_000;
const memo = new Map<string, number>();

function memoTokens(key: string, count: () => number): number {
  const digest = createHash('sha1').update(key).digest('base64');
  const hit = memo.get(digest);
  if (hit !== undefined) return hit;
  const n = count();
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(digest, n);
  return n;
}

/** Splits a request body into the ordered prompt segments the cache simulation hashes. */
export function promptSegments(body: Json): PromptSegment[] {
  const out: PromptSegment[] = [];
  const push = (prefix: string, block: unknown, count: () => number) => {
    const key = prefix + JSON.stringify(isObject(block) ? withoutCacheControl(block) : block);
    const tokens = memoTokens(key, count);
    const ttl = ttlOf(block);
    out.push(ttl ? { key, tokens, cacheTtl: ttl } : { key, tokens });
  };
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      push('tool:', tool, () => countTextTokens(JSON.stringify(isObject(tool) ? withoutCacheControl(tool) : tool)));
    }
  }
  if (typeof body.system === 'string') {
    const system = body.system;
    push('system:', system, () => countTextTokens(system));
  } else if (Array.isArray(body.system)) for (const b of body.system) push('system:', b, () => blockTokens(b));
  if (Array.isArray(body.messages)) {
    for (const m of body.messages) {
      if (!isObject(m)) continue;
      const prefix = `${String(m.role)}:`;
      const content = m.content;
      if (typeof content === 'string') push(prefix, content, () => countTextTokens(content));
      else if (Array.isArray(content)) for (const b of content) push(prefix, b, () => blockTokens(b));
    }
  }
  return out;
}

export function countRequestTokens(body: Json): number {
  return promptSegments(body).reduce((n, s) => n + s.tokens, 0);
}
