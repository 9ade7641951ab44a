// What the stand-in answers: a scripted turn made into the final Message's content blocks (ids,
// signatures) and into the SSE events that stream it, as the Messages API sends them.
import { randomBytes } from 'node:crypto';
import type { CacheUsage } from './cache';
import { redactedThinkingData, signThinking, type RequestThinking } from './thinking';

type Json = Record<string, unknown>;

export type ScriptedBlock =
  | { type: 'text'; text: string }
  /** `rawJson`: the exact input JSON to stream (to play a model that sends invalid JSON). */
  | { type: 'tool_use'; name: string; input: unknown; id?: string; rawJson?: string }
  /** Streamed only when the request does not turn thinking off (or the model cannot). */
  | { type: 'thinking'; thinking: string }
  | { type: 'redacted_thinking' };

export type Fault =
  | { kind: 'http'; status: 429 | 529 | 500 | 401 | 400; retryAfterSeconds?: number; message?: string }
  | { kind: 'stream-error'; afterEvents: number; errorType?: string }
  | { kind: 'drop'; afterEvents: number }
  /** Sends the headers and the first `afterEvents` events, then nothing until the client gives up. */
  | { kind: 'stall'; afterEvents: number };

export interface ScriptedTurn {
  content: ScriptedBlock[];
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens';
  fault?: Fault;
  chunkDelayMs?: number;
  /** During each chunk delay, send a keep-alive `ping` event this often (as the API does). */
  keepAliveMs?: number;
  /** split text deltas into chunks of this many chars (default 8) */
  chunkChars?: number;
  /**
   * Only for a request whose last user message contains this text; other requests skip past
   * it. Lets a script answer background requests (summaries, memory) apart from the main ones.
   */
  when?: string;
  /** Stays queued after use: answers every matching request. */
  repeat?: boolean;
  /**
   * Builds the reply from the request body instead of `content` (a model quoting what it was
   * shown, say); in-process use only, as a function does not survive the control endpoint.
   */
  contentFrom?: (body: Record<string, unknown>) => ScriptedBlock[];
}

interface SseEvent {
  event: string;
  data: Json;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomId(prefix: string): string {
  const bytes = randomBytes(24);
  let s = prefix;
  for (const b of bytes) s += ID_ALPHABET[b % ID_ALPHABET.length];
  return s;
}

function chunk(text: string, size: number): string[] {
  const n = Math.max(1, Math.floor(size));
  const out: string[] = [];
  // Split by code points so a surrogate pair never lands in two deltas.
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(''));
  return out.length > 0 ? out : [''];
}

/**
 * The content blocks of the final Message, with ids and signatures filled in. Thinking is left
 * out when the request turned it off (and the model allows that); `display: omitted` sends it
 * with empty text, as the API does.
 */
export function materialise(content: ScriptedBlock[], thinking: RequestThinking, thinkingCanBeOff: boolean, secret: string): { blocks: Json[]; rawJson: Map<Json, string> } {
  const omitThinking = thinking.mode === 'disabled' && thinkingCanBeOff;
  const display = 'display' in thinking ? thinking.display : undefined;
  const rawJson = new Map<Json, string>();
  const blocks = content.flatMap((b): Json[] => {
    switch (b.type) {
      case 'text':
        return [{ type: 'text', text: b.text, citations: null }];
      case 'tool_use': {
        const block: Json = { type: 'tool_use', id: b.id ?? randomId('toolu_'), name: b.name, input: b.rawJson !== undefined ? {} : (b.input ?? {}) };
        if (b.rawJson !== undefined) rawJson.set(block, b.rawJson);
        return [block];
      }
      case 'thinking': {
        if (omitThinking) return [];
        const text = display === 'omitted' ? '' : b.thinking;
        // Real signatures are opaque base64; clients must only round-trip them.
        return [{ type: 'thinking', thinking: text, signature: signThinking(text, secret) }];
      }
      case 'redacted_thinking':
        return omitThinking ? [] : [{ type: 'redacted_thinking', data: redactedThinkingData(secret) }];
    }
  });
  return { blocks, rawJson };
}

export function sseEvents(message: Json, blocks: Json[], usage: CacheUsage, outputTokens: number, chunkChars: number, rawJson: ReadonlyMap<Json, string>): SseEvent[] {
  const events: SseEvent[] = [];
  events.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1, service_tier: 'standard' } },
    },
  });
  events.push({ event: 'ping', data: { type: 'ping' } });
  blocks.forEach((b, index) => {
    const delta = (d: Json) => events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
    if (b.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } } });
      for (const piece of chunk(b.text as string, chunkChars)) delta({ type: 'text_delta', text: piece });
    } else if (b.type === 'tool_use') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } },
      });
      const json = rawJson.get(b) ?? JSON.stringify(b.input);
      // At least three pieces so clients are exercised on genuinely partial JSON.
      const size = Math.min(chunkChars, Math.max(1, Math.ceil(json.length / 3)));
      for (const piece of chunk(json, size)) delta({ type: 'input_json_delta', partial_json: piece });
    } else if (b.type === 'redacted_thinking') {
      // Redacted thinking arrives whole in its start event, with no deltas.
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: b.data } } });
    } else {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      });
      for (const piece of chunk(b.thinking as string, chunkChars)) delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: b.signature });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: outputTokens,
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}
