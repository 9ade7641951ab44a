// Every file MCP reads or writes goes through here (config files, the approvals file, results
// written aside), so that moving them onto the file-system gate is a
// change to this file only.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { withFileLock } from '../fs/lock';
import { readRegularFile } from '../fs/read';
import { makeFolder, markPrivate, writeFileAtomic } from '../fs/write';

export type TextRead = { ok: true; text: string } | { ok: false; missing: boolean; reason: string };

/** A whole text file that must be a regular file of at most `maxBytes` (a FIFO or a huge file is refused, not waited on). */
export async function readTextFile(path: string, maxBytes: number): Promise<TextRead> {
  const r = await readRegularFile(path, maxBytes);
  if (r.ok) return { ok: true, text: r.bytes.toString('utf8') };
  const reason =
    r.reason === 'missing' ? 'missing' : r.reason === 'too-large' ? `larger than ${Math.round(maxBytes / 1024 / 1024)} MB` : r.reason === 'unreadable' ? (r.error?.message ?? 'unreadable') : r.reason === 'folder' ? 'a folder' : 'not a regular file';
  return { ok: false, missing: r.reason === 'missing', reason };
}

/** Replaces one of Threadline's own state files (private mode), under a cross-process lock so two windows do not lose each other's change. */
export async function updateStateFile(path: string, maxBytes: number, update: (current: string | undefined) => string): Promise<void> {
  await withFileLock(`${path}.lock`, async () => {
    const r = await readTextFile(path, maxBytes);
    await writeFileAtomic(path, update(r.ok ? r.text : undefined));
  });
}

/**
 * Writes a tool result too large for the conversation to a file of its own under `dir`, named
 * by the call, and returns its path. Private mode: results can hold what the server could see.
 */
export async function writeResultFile(dir: string, callId: string, text: string): Promise<string> {
  const safe = callId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || createHash('sha256').update(text).digest('hex').slice(0, 16);
  const path = join(dir, `${safe}.txt`);
  markPrivate(dir);
  await makeFolder(dir);
  await writeFileAtomic(path, text);
  return path;
}
