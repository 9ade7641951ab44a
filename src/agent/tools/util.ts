import type { Parsed } from './types';

type Field = 'string' | 'number' | 'boolean';

/**
 * Checks the model's input against a small field spec: required fields present and typed,
 * optional ones typed when given, nothing else matters. Returns the input narrowed.
 */
export function parseFields<T>(input: unknown, required: Record<string, Field>, optional: Record<string, Field> = {}): Parsed<T> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: 'input must be an object' };
  const o = input as Record<string, unknown>;
  for (const [k, t] of Object.entries(required)) {
    if (!(k in o)) return { ok: false, error: `missing required field "${k}"` };
    if (typeof o[k] !== t) return { ok: false, error: `"${k}" must be a ${t}` };
  }
  for (const [k, t] of Object.entries(optional)) {
    if (o[k] !== undefined && o[k] !== null && typeof o[k] !== t) return { ok: false, error: `"${k}" must be a ${t}` };
  }
  return { ok: true, value: o as T };
}

export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.6);
  const tail = max - head;
  return `${text.slice(0, head)}\n\n… (${text.length - max} characters cut from the middle) …\n\n${text.slice(-tail)}`;
}

const BINARY_EXT = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'ico', 'bmp', 'pdf', 'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'exe', 'dll', 'so', 'dylib', 'o', 'a', 'class', 'jar', 'wasm', 'woff', 'woff2', 'ttf', 'otf', 'mp3', 'mp4', 'mov', 'avi', 'sqlite', 'db', 'bin', 'node', 'pyc']);

export function looksBinary(path: string, head: Uint8Array): boolean {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  if (BINARY_EXT.has(ext)) return true;
  return head.subarray(0, 8192).includes(0);
}
