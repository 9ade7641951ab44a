import { createTwoFilesPatch, diffLines } from 'diff';

export interface LineCounts {
  added: number;
  removed: number;
  /** Either side has a NUL byte in its first 8 KB: no line counts. */
  binary: boolean;
  /** The diff gave up (huge, very different texts): the counts are every line of each side. */
  approximate?: boolean;
}

/** A diff of two huge, unrelated texts could take seconds; past this, count whole sides. */
const DIFF_TIMEOUT_MS = 200;
/** What `threadline diff` may spend on one file's patch. */
const PATCH_TIMEOUT_MS = 2_000;

const isBinary = (b: Uint8Array | undefined) => b !== undefined && b.subarray(0, 8192).includes(0);

function lines(text: string): number {
  if (!text) return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Lines added and removed going from `before` to `after` (undefined: no file). */
export function lineCounts(before: Uint8Array | undefined, after: Uint8Array | undefined): LineCounts {
  if (isBinary(before) || isBinary(after)) return { added: 0, removed: 0, binary: true };
  const a = before ? Buffer.from(before).toString('utf8') : '';
  const b = after ? Buffer.from(after).toString('utf8') : '';
  if (a === b) return { added: 0, removed: 0, binary: false };
  if (!a || !b) return { added: lines(b), removed: lines(a), binary: false };
  const parts = diffLines(a, b, { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return { added: lines(b), removed: lines(a), binary: false, approximate: true };
  let added = 0;
  let removed = 0;
  for (const p of parts) {
    if (p.added) added += p.count;
    else if (p.removed) removed += p.count;
  }
  return { added, removed, binary: false };
}

/** A unified diff for a terminal (`threadline diff`); binary sides are named, not printed. */
export function unifiedDiff(label: string, before: Uint8Array | undefined, after: Uint8Array | undefined): string {
  if (isBinary(before) || isBinary(after)) return `Binary file ${label} differs\n`;
  const a = before ? Buffer.from(before).toString('utf8') : '';
  const b = after ? Buffer.from(after).toString('utf8') : '';
  const from = before ? `a/${label}` : '/dev/null';
  const to = after ? `b/${label}` : '/dev/null';
  // Ctrl+C is not served while a diff runs, and a large, very different pair costs the square of its lines (pass 39 C2).
  const patch = createTwoFilesPatch(from, to, a, b, '', '', { context: 3, timeout: PATCH_TIMEOUT_MS });
  return patch ?? `--- ${from}\n+++ ${to}\n(too large a change to diff in time: ${lines(a)} lines before, ${lines(b)} after)\n`;
}
