/**
 * What one image costs in a request, whatever its size as base64: the API scales images down to
 * about 1.15 megapixels, some 1,600 tokens. Counted by its characters, a 1 MB screenshot from an
 * MCP server would look like 350k tokens and set compaction off for nothing.
 */
export const IMAGE_TOKENS = 1_600;

const BASE64_SOURCE = '"type":"base64"';

/** A rough count for decisions; the API's usage stays the source of truth for totals. */
export function estimateTokens(value: unknown): number {
  if (typeof value === 'string') return Math.ceil(value.length / 4);
  const text = JSON.stringify(value ?? '') ?? '';
  // The fast path: almost nothing carries an image, and this test costs one scan.
  if (!text.includes(BASE64_SOURCE)) return Math.ceil(text.length / 4);
  let images = 0;
  const lean = JSON.stringify(value, (_key, v: unknown) => {
    if (isImage(v)) {
      images++;
      return { type: 'image' };
    }
    return v;
  });
  return Math.ceil(lean.length / 4) + images * IMAGE_TOKENS;
}

function isImage(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as { type?: unknown; source?: { type?: unknown } };
  return b.type === 'image' && typeof b.source === 'object' && b.source !== null && b.source.type === 'base64';
}
