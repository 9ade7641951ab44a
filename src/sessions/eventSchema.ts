import { z } from 'zod';
import type { SessionEvent } from './events';

// What a transcript line must look like before it is replayed. Objects stay loose (unknown
// fields pass), so a newer Threadline's additions or the SDK's new block fields do not make a
// line unreadable; what the loader and the API rely on is required.

const KNOWN_BLOCKS = new Set(['text', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const contentBlock = z.union([
  textBlock,
  z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.unknown() }),
  z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
    is_error: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  // Images, documents and whatever the API adds later: kept as they are.
  z.looseObject({ type: z.string().refine((t) => !KNOWN_BLOCKS.has(t), 'a known block type with missing fields') }),
]);

const messageSchema = z.union([
  z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(contentBlock)]) }),
  // The API takes text-only system messages between turns.
  z.looseObject({ role: z.literal('system'), content: z.union([z.string(), z.array(textBlock)]) }),
]);

const base = { id: z.string().min(1), createdAt: z.number() };
const viewSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('user'), ...base, text: z.string() }),
  z.looseObject({ kind: z.literal('assistant'), ...base, text: z.string(), streaming: z.boolean(), thinking: z.string().optional() }),
  z.looseObject({ kind: z.literal('tool'), ...base, name: z.string(), summary: z.string(), input: z.string(), status: z.string() }),
  z.looseObject({ kind: z.literal('notice'), ...base, level: z.enum(['info', 'warning', 'error']), text: z.string() }),
  z.looseObject({ kind: z.literal('compaction'), ...base, tokensBefore: z.number(), tokensAfter: z.number(), summary: z.string(), canUndo: z.boolean() }),
]);

const eventSchema = z.discriminatedUnion('t', [
  z.looseObject({ t: z.literal('meta'), v: z.number().int(), id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/), createdAt: z.number(), cwd: z.string(), model: z.string(), branch: z.string().optional() }),
  z.looseObject({ t: z.literal('msg'), m: messageSchema }),
  z.looseObject({ t: z.literal('history'), h: z.array(messageSchema), reason: z.string() }),
  z.looseObject({ t: z.literal('view'), v: viewSchema }),
  z.looseObject({ t: z.literal('title'), title: z.string() }),
  z.looseObject({ t: z.literal('usage'), tokens: z.number() }),
  z.looseObject({
    t: z.literal('compaction'),
    r: z.looseObject({
      id: z.string().min(1),
      block: z.string().min(1),
      replaced: z.array(messageSchema),
      merged: z.boolean(),
      fixed: z.array(z.looseObject({ k: z.number().int().min(0), was: messageSchema, now: messageSchema })),
    }),
  }),
  z.looseObject({ t: z.literal('viewOrder'), ids: z.array(z.string().min(1)) }),
  z.looseObject({
    t: z.literal('prompt'),
    id: z.string().min(1),
    ref: z.looseObject({ len: z.number().int().min(0), hash: z.string().regex(/^[0-9a-f]{64}$/), nth: z.number().int().min(0) }),
  }),
]);

const KNOWN_EVENTS = new Set(['meta', 'msg', 'history', 'view', 'title', 'usage', 'compaction', 'prompt', 'viewOrder']);

export type ParsedLine = { ok: true; event: SessionEvent } | { ok: false; reason: string };

/** Checks one parsed JSON line; the reason names the event and the first field that is wrong. */
export function parseEvent(value: unknown): ParsedLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { t?: unknown }).t !== 'string') {
    return { ok: false, reason: 'not a session event' };
  }
  const t = (value as { t: string }).t;
  if (!KNOWN_EVENTS.has(t)) return { ok: false, reason: `unknown event type ${JSON.stringify(t).slice(0, 40)}` };
  const r = eventSchema.safeParse(value);
  if (r.success) return { ok: true, event: value as SessionEvent };
  const issue = r.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the line';
  return { ok: false, reason: `a ${t} event of the wrong shape (${where}: ${issue?.message ?? 'invalid'})` };
}
