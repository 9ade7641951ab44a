import { join } from 'node:path';
import type { MessageParam } from '../api/types';
import { writeFileAtomic } from '../base/atomicFile';

/** The folder of a sessions folder that holds the transcripts archived before compactions. */
export function archiveDir(sessionsDir: string): string {
  return join(sessionsDir, 'archive');
}

/** An archive's file name: the session's id, then when; nothing a path could climb with. */
export const ARCHIVE_FILE = /^[A-Za-z0-9_-]+\.jsonl$/;

/**
 * Keeps the transcript from before a compaction, one API message per line, next to the session
 * transcripts. Written atomically: a crash leaves the whole archive or none, never half of one
 * that a later Open Archive would show as the conversation. Both faces write it here, and the
 * editor reads it back from the same folder.
 */
export async function archiveTranscript(sessionsDir: string, sessionId: string, history: readonly MessageParam[]): Promise<string> {
  const file = join(archiveDir(sessionsDir), `${sessionId}-${Date.now()}.jsonl`);
  await writeFileAtomic(file, history.map((m) => JSON.stringify(m)).join('\n') + '\n');
  return file;
}
