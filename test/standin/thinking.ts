// Thinking in the stand-in: signatures it can check later, and the rules the Messages API applies
// to requests that think. Sources for the rules: the extended-thinking and adaptive-thinking
// guides (budget_tokens ≥ 1024 and < max_tokens; temperature/top_k/top_p and forced tool_choice
// not allowed with thinking; thinking blocks passed back unmodified, in order, during tool use;
// with `enabled`, the final assistant turn of a tool loop must start with a thinking block) and
// the SDK 1.12 model capability types (which `thinking.type` values a model accepts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Same default in every stand-in process, so a session resumed after a restart still verifies. */
export const DEFAULT_SIGNING_SECRET = 'threadline-standin-thinking';

const NONCE_BYTES = 12;
/** Marks the stand-in's own signatures; anything else counts as another model's. */
const MAGIC = Buffer.from('TLsi');

function mac(secret: string, kind: string, nonce: Buffer, text: string): Buffer {
  return createHmac('sha256', secret).update(kind).update('\0').update(nonce).update(text).digest();
}

function seal(secret: string, kind: string, text: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  return Buffer.concat([MAGIC, nonce, mac(secret, kind, nonce, text)]).toString('base64');
}

/**
 * `valid`: issued by this stand-in for exactly this content. `invalid`: issued here but the
 * block was changed (the API refuses it). `foreign`: another model's (or another tool's)
 * block, which the API drops from the prompt without an error.
 */
export type SealCheck = 'valid' | 'invalid' | 'foreign';

function opens(secret: string, kind: string, sealed: unknown, text: string): SealCheck {
  if (typeof sealed !== 'string' || sealed.length === 0) return 'invalid';
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length !== MAGIC.length + NONCE_BYTES + 32 || !raw.subarray(0, MAGIC.length).equals(MAGIC)) return 'foreign';
  const nonce = raw.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  return timingSafeEqual(mac(secret, kind, nonce, text), raw.subarray(MAGIC.length + NONCE_BYTES)) ? 'valid' : 'invalid';
}

/** An opaque signature over the thinking text, as the API returns in `signature_delta`. */
export function signThinking(text: string, secret = DEFAULT_SIGNING_SECRET): string {
  return seal(secret, 'thinking', text);
}

export function verifyThinking(text: string, signature: unknown, secret = DEFAULT_SIGNING_SECRET): SealCheck {
  return opens(secret, 'thinking', signature, text);
}

/** The opaque `data` of a redacted_thinking block. */
export function redactedThinkingData(secret = DEFAULT_SIGNING_SECRET): string {
  return seal(secret, 'redacted', '');
}

export function verifyRedacted(data: unknown, secret = DEFAULT_SIGNING_SECRET): SealCheck {
  return opens(secret, 'redacted', data, '');
}

export type ThinkingType = 'enabled' | 'disabled' | 'adaptive' | 'between_tools';

/** Which `thinking.type` values a model accepts (from its Models API capabilities). */
export type ThinkingTypesSupport = Record<ThinkingType, boolean>;

export interface ThinkingContext {
  secret?: string;
  /** The model's accepted thinking types; undefined when the stand-in does not know the model. */
  support?(model: string): ThinkingTypesSupport | undefined;
  /** The thinking blocks (signature or data, in order) the stand-in sent with this tool call. */
  issuedWith?(toolUseId: string): readonly string[] | undefined;
}

/** off: no thinking requested; the other modes make the model think. */
export type RequestThinking = { mode: 'off' | 'disabled' } | { mode: 'enabled'; budget: number; display?: string } | { mode: 'adaptive' | 'between_tools'; display?: string };

const TYPES: readonly ThinkingType[] = ['enabled', 'disabled', 'adaptive', 'between_tools'];

/** Parses `thinking`; a string is the API's error message. */
export function requestThinking(body: Json): RequestThinking | string {
  const t = body.thinking;
  if (t === undefined || t === null) return { mode: 'off' };
  if (!isObject(t)) return 'thinking: Input should be a valid dictionary';
  if (typeof t.type !== 'string' || !(TYPES as readonly string[]).includes(t.type)) {
    return "thinking.type: Input should be 'enabled', 'disabled', 'adaptive' or 'between_tools'";
  }
  if (t.display !== undefined && t.display !== null && t.display !== 'summarized' && t.display !== 'omitted') {
    return `thinking.${t.type}.display: Input should be 'summarized' or 'omitted'`;
  }
  const display = typeof t.display === 'string' ? { display: t.display } : {};
  switch (t.type as ThinkingType) {
    case 'disabled':
      return { mode: 'disabled' };
    case 'adaptive':
    case 'between_tools':
      return { mode: t.type as 'adaptive' | 'between_tools', ...display };
    case 'enabled': {
      const b = t.budget_tokens;
      if (b === undefined) return 'thinking.enabled.budget_tokens: Field required';
      if (typeof b !== 'number' || !Number.isInteger(b)) return 'thinking.enabled.budget_tokens: Input should be a valid integer';
      if (b < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
      return { mode: 'enabled', budget: b, ...display };
    }
  }
}

/** True when the request makes the model think (and so the thinking rules apply). */
export function thinks(t: RequestThinking): boolean {
  return t.mode === 'enabled' || t.mode === 'adaptive';
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/**
 * The thinking rules, checked after the structural ones. `messages` are the request's
 * user/assistant messages (system-role messages removed), with their indexes for error paths.
 */
export function validateThinking(body: Json, messages: readonly Json[], ctx: ThinkingContext = {}): string | null {
  const secret = ctx.secret ?? DEFAULT_SIGNING_SECRET;
  const parsed = requestThinking(body);
  if (typeof parsed === 'string') return parsed;
  const model = String(body.model);

  if (parsed.mode !== 'off') {
    const support = ctx.support?.(model);
    if (support && !support[parsed.mode]) {
      return parsed.mode === 'disabled'
        ? `thinking.type.disabled is not supported for ${model}: thinking is always on for this model; omit \`thinking\` instead.`
        : `thinking.type.${parsed.mode} is not supported for ${model}.${support.adaptive ? ' Use thinking.type.adaptive instead.' : ''}`;
    }
  }
  if (parsed.mode === 'enabled' && typeof body.max_tokens === 'number' && body.max_tokens <= parsed.budget) {
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  if (thinks(parsed)) {
    if (body.temperature !== undefined && body.temperature !== 1) {
      return '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility';
    }
    if (body.top_k !== undefined) return '`top_k` is not supported when thinking is enabled.';
    if (body.top_p !== undefined && (typeof body.top_p !== 'number' || body.top_p < 0.95)) {
      return '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.';
    }
    const choice = body.tool_choice;
    if (isObject(choice) && (choice.type === 'any' || choice.type === 'tool')) return 'Thinking may not be enabled when tool_choice forces tool use.';
  }

  // Signatures: a thinking block must come back exactly as it was sent. Another model's
  // blocks (a switched model, an imported transcript) are dropped without an error.
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'assistant') continue;
    for (const [j, b] of blocksOf(m.content).entries()) {
      if (b.type === 'thinking') {
        if (typeof b.thinking !== 'string') return `messages.${i}.content.${j}.thinking.thinking: Field required`;
        if (typeof b.signature !== 'string') return `messages.${i}.content.${j}.thinking.signature: Field required`;
        if (verifyThinking(b.thinking, b.signature, secret) === 'invalid') return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      } else if (b.type === 'redacted_thinking') {
        if (typeof b.data !== 'string') return `messages.${i}.content.${j}.redacted_thinking.data: Field required`;
        if (verifyRedacted(b.data, secret) === 'invalid') return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`;
      }
    }
  }

  if (!thinks(parsed)) return null;
  // A tool loop is open when the last message is the user's and answers tool calls.
  const last = messages.at(-1);
  if (!last || last.role !== 'user' || !blocksOf(last.content).some((b) => b.type === 'tool_result')) return null;
  // The assistant turn that asked for those tools (consecutive assistant messages count as one).
  let end = messages.length - 2;
  while (end >= 0 && messages[end]!.role !== 'assistant') end--;
  if (end < 0) return null;
  let start = end;
  while (start > 0 && messages[start - 1]!.role === 'assistant') start--;
  const turn = messages.slice(start, end + 1).flatMap((m) => blocksOf(m.content));
  const first = turn[0];
  if (parsed.mode === 'enabled' && first && first.type !== 'thinking' && first.type !== 'redacted_thinking') {
    return `messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
  }
  const sent = turn.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking').map((b) => String(b.type === 'thinking' ? b.signature : b.data));
  for (const use of turn.filter((b) => b.type === 'tool_use')) {
    const issued = ctx.issuedWith?.(String(use.id));
    if (!issued?.length) continue;
    // Each block the turn was issued with, present and in its original order.
    let at = 0;
    for (const s of sent) if (s === issued[at]) at++;
    if (at < issued.length) {
      return `messages.${start}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
    }
  }
  return null;
}
