import { structuredPatch } from 'diff';
import type { DiffSummary } from '../shared/viewState';

const HUNK_MAX_LINES = 40;

/**
 * A diff of two large, very different texts costs the square of their lines: an Edit replacing one
 * letter on each of 16,000 lines took 97 s, on the extension host, before the user was even asked
 * (pass 39 C2). Past this the summary counts whole sides.
 */
const DIFF_TIMEOUT_MS = 200;

const lineCount = (text: string) => (text ? text.split('\n').length - (text.endsWith('\n') ? 1 : 0) : 0);

/** A file change in brief for the chat: lines added and removed, and the first hunk to read. */
export function summarizeChange(path: string, before: string | undefined, after: string): DiffSummary {
  const patch = structuredPatch(path, path, before ?? '', after, '', '', { context: 3, timeout: DIFF_TIMEOUT_MS });
  if (!patch) {
    const hunk = `(too large a change to diff here: ${lineCount(before ?? '')} lines before, ${lineCount(after)} after)`;
    return { path, added: lineCount(after), removed: lineCount(before ?? ''), isNew: before === undefined, hunk, moreHunks: 0 };
  }
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    for (const line of h.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  const first = patch.hunks[0];
  let hunk = '';
  if (first) {
    const lines = first.lines.filter((l) => !l.startsWith('\\'));
    const shown = lines.slice(0, HUNK_MAX_LINES);
    hunk = [`@@ -${first.oldStart},${first.oldLines} +${first.newStart},${first.newLines} @@`, ...shown].join('\n');
    if (lines.length > shown.length) hunk += `\n… ${lines.length - shown.length} more lines in this hunk`;
  }
  return { path, added, removed, isNew: before === undefined, hunk, moreHunks: Math.max(0, patch.hunks.length - 1) };
}
