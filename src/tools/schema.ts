import { z } from 'zod';
import type { JsonSchema, Parsed } from './types';

// One zod schema per tool gives both what the model is shown (`input_schema`) and how its input is
// checked, so the two cannot disagree.

/** A path argument: not empty, and no NUL byte (refused here rather than when it is used). */
export function pathField(description: string) {
  return z
    .string()
    .describe(description)
    .refine((s) => s.trim() !== '', { message: 'must not be empty' })
    .refine((s) => !s.includes('\0'), { message: 'contains a NUL byte' });
}

/** A string that must hold something other than whitespace. */
export function nonEmptyString(description: string) {
  return z
    .string()
    .describe(description)
    .refine((s) => s.trim() !== '', { message: 'must not be empty' });
}

/** A half of a UTF-16 surrogate pair standing alone: no character, so no encoding can store it faithfully. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text to be written into a file: any characters, but only characters. */
export function fileText(description: string) {
  return z
    .string()
    .describe(description)
    .refine((s) => !LONE_SURROGATE.test(s), { message: 'contains a lone surrogate (\\uD800–\\uDFFF without its pair), which is no character; write the character itself' });
}

/** The JSON Schema the Messages API takes, from the tool's zod schema (input side). */
export function toInputSchema(schema: z.ZodObject): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as JsonSchema;
}

// zod writes Number.MAX_SAFE_INTEGER as the maximum of every integer; it tells the model nothing.
function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = stripSafeIntegerBounds(v);
  }
  return out;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

const TYPE_NAMES: Record<string, string> = { int: 'whole number', number: 'number', string: 'string', boolean: 'boolean', object: 'object', array: 'array' };

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  const key = issue.path.map(String).join('.');
  const value = issue.path.length ? input[String(issue.path[0])] : input;
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `missing required field "${key}"`;
      if (issue.expected === 'int' && typeof value === 'number') return `"${key}" must be a whole number`;
      return `"${key}" must be a ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${kindOf(value)}`;
    case 'too_small':
      return issue.origin === 'string' ? `"${key}" must not be empty` : `"${key}" must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `"${key}" must be at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `"${key}" must be one of: ${issue.values.map(String).join(', ')}`;
    default:
      return key ? `"${key}" ${issue.message}` : issue.message;
  }
}

/**
 * Checks the model's input against the schema. Unknown fields are dropped, and `null` counts as
 * absent for optional fields, since models sometimes send it. Errors read as one sentence the
 * model can act on.
 */
export function parseToolInput<S extends z.ZodObject>(schema: S, input: unknown): Parsed<z.output<S>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: `the input must be a JSON object, got ${kindOf(input)}` };
  const src = Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([, v]) => v !== null));
  const r = schema.safeParse(src);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, error: r.error.issues.map((i) => describeIssue(i, src)).join('; ') };
}
