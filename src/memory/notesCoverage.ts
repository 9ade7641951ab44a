import type { MessageParam } from '../api/types';
import { readStateText } from '../fs/read';
import { writeFileAtomic } from '../fs/write';
import type { CoverageMarker } from '../compact/coverage';
import { parseJson } from '../fs/jsonText';

/**
 * What the session notes cover, kept next to them (`<notes>.coverage.json`, out of the notes
 * agent's reach): the marker of the last successful update, or the last failure; and, apart
 * from both, the history the last answered update looked at (`seen`), which only schedules the
 * next one (an update that answered without an edit covers nothing, but it saw that history).
 * Written atomically, so a kill mid-write leaves the old record or the new one, never half.
 */
export type NotesCoverageRecord = { v: 1; seen?: CoverageMarker } & ({ marker: CoverageMarker; updatedAt: number; failed?: never } | { failed: string; at: number; marker?: never } | { marker?: never; failed?: never });

export function coveragePath(notesPath: string): string {
  return `${notesPath}.coverage.json`;
}

const asMarker = (m: Partial<CoverageMarker> | undefined): CoverageMarker | undefined => (m && Number.isInteger(m.count) && typeof m.hash === 'string' ? { count: m.count!, hash: m.hash } : undefined);

export async function readNotesCoverage(notesPath: string): Promise<NotesCoverageRecord | undefined> {
  const text = await readStateText(coveragePath(notesPath));
  if (!text) return undefined;
  try {
    const r = parseJson(text) as Partial<{ v: number; marker: Partial<CoverageMarker>; updatedAt: number; failed: string; at: number; seen: Partial<CoverageMarker> }>;
    if (r.v !== 1) return undefined;
    const seen = asMarker(r.seen);
    const extra = seen ? { seen } : {};
    if (typeof r.failed === 'string') return { v: 1, failed: r.failed, at: Number(r.at) || 0, ...extra };
    const marker = asMarker(r.marker);
    if (marker) return { v: 1, marker, updatedAt: Number(r.updatedAt) || 0, ...extra };
    return seen ? { v: 1, seen } : undefined;
  } catch {
    // A damaged record trusts nothing.
  }
  return undefined;
}

export async function writeNotesCoverage(notesPath: string, record: NotesCoverageRecord): Promise<void> {
  await writeFileAtomic(coveragePath(notesPath), `${JSON.stringify(record)}\n`);
}

/** How far a background job has read (memory extraction's record next to the notes), or undefined. */
export async function readMarker(path: string): Promise<CoverageMarker | undefined> {
  const text = await readStateText(path);
  if (!text) return undefined;
  try {
    const r = parseJson(text) as Partial<{ v: number; marker: Partial<CoverageMarker> }>;
    if (r.v === 1 && r.marker && Number.isInteger(r.marker.count) && typeof r.marker.hash === 'string') return { count: r.marker.count!, hash: r.marker.hash };
  } catch {
    // A damaged record: read from the start again.
  }
  return undefined;
}

export async function writeMarker(path: string, marker: CoverageMarker): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify({ v: 1, marker })}\n`);
}

/** What a notes update did, from the fork's own history: its Edit calls on the notes and their results. */
export function notesEditOutcome(forkMessages: readonly MessageParam[], notesPath: string, resolvePath: (p: string) => string): { succeeded: number; failed: string[] } {
  const edits = new Map<string, boolean>();
  for (const m of forkMessages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_use' && b.name === 'Edit') {
        const p = (b.input as { file_path?: unknown } | null)?.file_path;
        if (typeof p === 'string' && resolvePath(p) === notesPath) edits.set(b.id, true);
      }
    }
  }
  let succeeded = 0;
  const failed: string[] = [];
  for (const m of forkMessages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result' || !edits.has(b.tool_use_id)) continue;
      if (b.is_error) failed.push(typeof b.content === 'string' ? b.content : JSON.stringify(b.content));
      else succeeded++;
    }
  }
  return { succeeded, failed };
}
