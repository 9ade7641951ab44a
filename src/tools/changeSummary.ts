import { structuredPatch } from 'diff';
import type { DiffSummary } from '../shared/viewState';

const HUNK_MAX_LINES = 40;

/** A file change in brief for the chat: lines added and removed, and the first hunk to read. */
export function summarizeChange(path: string, before: string | undefined, after: string): DiffSummary {
  const patch = structuredPatch(path, path, before ?? '', after, '', '', { context: 3 });
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
