import { z } from 'zod';
import { parseJson } from '../fs/jsonText';

/**
 * What a path held at one moment: nothing, a regular file (its bytes are the blob `h`), a
 * symbolic link (its text), or something not known exactly (a Bash change with no saved copy).
 */
export type Image =
  | { k: 'absent' }
  | { k: 'file'; h: string; mode: number; size: number }
  | { k: 'link'; to: string }
  | { k: 'unknown'; why: string };

/** The stat fields that tell whether a file was touched since (the way git's index does). */
export interface StatKey {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** Who changed a file: a tool, a Bash command, or a restore (whose own checkpoint gives Redo). */
export type ChangeSource = 'Write' | 'Edit' | 'Bash' | 'restore' | 'tool';

export type CheckpointKind = 'prompt' | 'restore';

/**
 * The manifest is a JSONL log of these. A change is written in two steps: `change` with the
 * image from before, flushed before the file is touched; `after` with what the change left.
 * `known` carries, past pruning, what the agent last left at a path whose changes were pruned.
 */
export type ManifestRecord =
  | { t: 'checkpoint'; id: string; at: number; label: string; kind: CheckpointKind; ref?: string; restores?: string }
  | { t: 'change'; n: number; cp: string; path: string; by: ChangeSource; before: Image; dirs?: string[] }
  | { t: 'after'; n: number; image: Image; st?: StatKey }
  | { t: 'known'; path: string; image: Image; st?: StatKey }
  | { t: 'note'; cp: string; text: string };

const image = z.union([
  z.object({ k: z.literal('absent') }),
  z.object({ k: z.literal('file'), h: z.string().regex(/^[0-9a-f]{64}$/), mode: z.number().int(), size: z.number().int().nonnegative() }),
  z.object({ k: z.literal('link'), to: z.string() }),
  z.object({ k: z.literal('unknown'), why: z.string() }),
]);
const statKey = z.object({ size: z.number(), mtimeMs: z.number(), ctimeMs: z.number(), ino: z.number() });
const source = z.enum(['Write', 'Edit', 'Bash', 'restore', 'tool']);

const record = z.discriminatedUnion('t', [
  z.object({ t: z.literal('checkpoint'), id: z.string().min(1), at: z.number(), label: z.string(), kind: z.enum(['prompt', 'restore']), ref: z.string().optional(), restores: z.string().optional() }),
  z.object({ t: z.literal('change'), n: z.number().int(), cp: z.string(), path: z.string().min(1), by: source, before: image, dirs: z.array(z.string()).optional() }),
  z.object({ t: z.literal('after'), n: z.number().int(), image, st: statKey.optional() }),
  z.object({ t: z.literal('known'), path: z.string().min(1), image, st: statKey.optional() }),
  z.object({ t: z.literal('note'), cp: z.string(), text: z.string() }),
]);

export interface ParsedManifest {
  records: ManifestRecord[];
  /** Lines that were not records: a torn last line after a crash, or damage. They are skipped. */
  skipped: number;
}

/** Reads a manifest; a line that does not parse is skipped, never fatal. */
export function parseManifest(text: string): ParsedManifest {
  const records: ManifestRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = parseJson(line);
    } catch {
      skipped++;
      continue;
    }
    const r = record.safeParse(value);
    if (r.success) records.push(r.data as ManifestRecord);
    else skipped++;
  }
  return { records, skipped };
}

export function serialize(records: readonly ManifestRecord[]): string {
  let out = '';
  for (const r of records) out += `${JSON.stringify(r)}\n`;
  return out;
}

export const sameImage = (a: Image, b: Image): boolean =>
  a.k === b.k && (a.k !== 'file' || (b.k === 'file' && a.h === b.h && (a.mode & 0o777) === (b.mode & 0o777))) && (a.k !== 'link' || (b.k === 'link' && a.to === b.to)) && a.k !== 'unknown';

/** The same content (the mode aside): what a conflict or a no-op is judged on. */
export const sameContent = (a: Image, b: Image): boolean => a.k === b.k && a.k !== 'unknown' && (a.k !== 'file' || (b.k === 'file' && a.h === b.h)) && (a.k !== 'link' || (b.k === 'link' && a.to === b.to));

export const sameStat = (a: StatKey, b: StatKey): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
