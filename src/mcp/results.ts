// An MCP tool result as the Messages API takes it: text as text, images as image blocks,
// resources as text (or an image), the rest described. A result over the cap goes to a file in
// the session's storage; the conversation gets its head and a pointer the model can Read.
import type { ToolResultContentBlock } from '../api/types';
import { IMAGE_TOKENS } from '../conversation/tokens';
import type { ToolResult } from '../tools/types';
import type { McpCallResult, McpContent } from './connection';
import { parseJson } from '../fs/jsonText';

/** Claude Code's default for MAX_MCP_OUTPUT_TOKENS: one result may fill at most this much of the window. */
export const DEFAULT_MAX_RESULT_TOKENS = 25_000;
/** Of a result written aside, the share of the cap kept inline, at most this many tokens. */
const HEAD_SHARE = 0.2;
const MAX_HEAD_TOKENS = 5_000;
/** The API refuses images over 5 MB, and takes these types only. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export interface ResultLimits {
  maxTokens: number;
  /** Writes the whole text aside and returns where; undefined when there is nowhere to write (then the text is cut). */
  writeAside?(text: string): Promise<string>;
}

type Part = { kind: 'text'; text: string } | { kind: 'image'; block: ToolResultContentBlock; note: string };

const kb = (base64: string) => `${Math.round((base64.length * 3) / 4 / 1024)} KB`;

function image(data: string, mimeType: string, label: string): Part {
  if (!IMAGE_TYPES.has(mimeType)) return { kind: 'text', text: `[${label}: ${mimeType}, ${kb(data)}; not shown: the API takes PNG, JPEG, GIF and WebP images]` };
  if ((data.length * 3) / 4 > MAX_IMAGE_BYTES) return { kind: 'text', text: `[${label}: ${mimeType}, ${kb(data)}; not shown: over the API's 5 MB per image]` };
  const block = { type: 'image', source: { type: 'base64', media_type: mimeType as 'image/png', data } } as ToolResultContentBlock;
  return { kind: 'image', block, note: `[${label}: ${mimeType}, ${kb(data)}]` };
}

function partOf(c: McpContent): Part {
  switch (c.type) {
    case 'text':
      return { kind: 'text', text: c.text };
    case 'image':
      return image(c.data, c.mimeType, 'image');
    case 'audio':
      return { kind: 'text', text: `[audio: ${c.mimeType}, ${kb(c.data)}; not shown: the API takes no audio]` };
    case 'resource': {
      const r = c.resource;
      if (typeof r.text === 'string') return { kind: 'text', text: `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}` };
      if (typeof r.blob === 'string' && r.mimeType && IMAGE_TYPES.has(r.mimeType)) return image(r.blob, r.mimeType, `resource ${r.uri}`);
      return { kind: 'text', text: `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}${typeof r.blob === 'string' ? `, ${kb(r.blob)} of binary data, not shown` : ''}]` };
    }
    case 'resource_link':
      return { kind: 'text', text: `[resource link: ${c.name ?? c.uri} <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ''}]${c.description ? ` ${c.description}` : ''}` };
  }
}

/**
 * Pretty-printing may grow a text this much at most; past it the text is written as it came. Two
 * spaces a level made 1.8 MB nested 256 deep into a 463 MB file, per call (pass 88 M2).
 */
const MAX_GROWTH = 4;

/** JSON as one long line cannot be paged with Read (it cuts long lines): written aside, it is pretty-printed. */
function readable(text: string): string {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return text;
  try {
    // Measured before it is built: deep nesting costs its depth in spaces on every line.
    const value = parseJson(t);
    const budget = { left: text.length * MAX_GROWTH };
    return prettyFits(value, 0, budget) ? JSON.stringify(value, null, 2) : text;
  } catch {
    return text;
  }
}

/** Whether `value` pretty-printed at `depth` takes no more than `budget.left` characters (about: one line per value, its indent, its text). */
function prettyFits(value: unknown, depth: number, budget: { left: number }): boolean {
  budget.left -= 2 * depth + 2;
  if (value === null || typeof value !== 'object') budget.left -= typeof value === 'string' ? value.length + 2 : String(value).length;
  else if (Array.isArray(value)) {
    for (const v of value) if (!prettyFits(v, depth + 1, budget)) return false;
  } else {
    for (const [k, v] of Object.entries(value)) {
      budget.left -= k.length + 4;
      if (!prettyFits(v, depth + 1, budget)) return false;
    }
  }
  return budget.left >= 0;
}

function cutAt(text: string, chars: number): string {
  let end = Math.min(text.length, chars);
  // Never split a surrogate pair.
  if (end > 0 && end < text.length && text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff) end--;
  return text.slice(0, end);
}

export async function toToolResult(r: McpCallResult, limits: ResultLimits): Promise<ToolResult> {
  let parts = r.content.map(partOf);
  if (!parts.length && r.structuredContent !== undefined) parts = [{ kind: 'text', text: readable(JSON.stringify(r.structuredContent)) }];
  const texts = parts.filter((p): p is Extract<Part, { kind: 'text' }> => p.kind === 'text').map((p) => p.text);
  let images = parts.filter((p): p is Extract<Part, { kind: 'image' }> => p.kind === 'image');
  const text = texts.join('\n\n');
  const capChars = limits.maxTokens * 4;
  // Images count at their token cost, not their base64 length; those past the cap are left out.
  const imageRoom = Math.max(0, Math.floor(limits.maxTokens / IMAGE_TOKENS));
  const droppedImages = images.length > imageRoom ? images.length - imageRoom : 0;
  if (droppedImages) images = images.slice(0, imageRoom);
  const budget = capChars - images.length * IMAGE_TOKENS * 4;
  let body = text;
  if (text.length > budget) body = await spill(text, Math.max(0, budget), limits);
  if (droppedImages) body += `\n[${droppedImages} more image${droppedImages === 1 ? '' : 's'} left out: over the ${limits.maxTokens}-token limit for one result]`;
  const isError = r.isError ? { isError: true } : {};
  if (!images.length) return { content: body || '(no output)', ...isError };
  const content = [body, ...images.map((i) => i.note)].filter(Boolean).join('\n');
  const blocks: ToolResultContentBlock[] = [...(body ? [{ type: 'text' as const, text: body }] : []), ...images.map((i) => i.block)];
  return { content, blocks, ...isError };
}

async function spill(text: string, budgetChars: number, limits: ResultLimits): Promise<string> {
  const tokens = Math.ceil(text.length / 4);
  // A head, not the most that fits: the file is there for the rest, and every later request carries the head.
  const headChars = Math.min(Math.floor(budgetChars * HEAD_SHARE), MAX_HEAD_TOKENS * 4);
  const head = cutAt(text, headChars);
  let path: string | undefined;
  try {
    path = await limits.writeAside?.(readable(text));
  } catch (err) {
    return `${head}\n\n[Cut: this result is about ${tokens} tokens, over the ${limits.maxTokens}-token limit for one tool result, and it could not be written to a file (${err instanceof Error ? err.message : String(err)}). Only its first ${head.length} characters are above.]`;
  }
  if (!path) return `${head}\n\n[Cut: this result is about ${tokens} tokens, over the ${limits.maxTokens}-token limit for one tool result. Only its first ${head.length} characters are above.]`;
  return `${head}\n\n[This result is about ${tokens} tokens, over the ${limits.maxTokens}-token limit for one tool result, so the whole of it was written to ${path}. Its first ${head.length} characters are above. Read that file in pages (Read with offset and limit) or search it with Grep instead of calling the tool again.]`;
}
