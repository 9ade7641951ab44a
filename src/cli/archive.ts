import { join } from 'node:path';
import type { MessageParam } from '../api/types';
import { makeFolder, writeFileAtomic } from '../fs/write';

/**
 * Keeps the transcript from before a compaction, one API message per line, next to the
 * session transcripts (the same place and form the extension uses, so either can open it).
 */
export async function archiveTranscript(sessionsDir: string, sessionId: string, history: readonly MessageParam[]): Promise<string> {
  const dir = join(sessionsDir, 'archive');
  await makeFolder(dir);
  const file = join(dir, `${sessionId}-${Date.now()}.jsonl`);
  await writeFileAtomic(file, history.map((m) => JSON.stringify(m)).join('\n') + '\n');
  return file;
}
