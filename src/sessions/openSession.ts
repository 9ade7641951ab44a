import { join } from 'node:path';
import { readStateText } from '../fs/read';
import { writeFileAtomic } from '../fs/write';
import { assertSessionId } from './sessionStore';
import { parseJson } from '../fs/jsonText';

// Which session was open in this folder, kept in a file beside the transcripts rather than in
// VS Code's global state: the state database is flushed late, and a killed editor loses it.
const FILE = 'open-session.json';

export async function writeOpenSession(sessionsDir: string, id: string): Promise<void> {
  await writeFileAtomic(join(sessionsDir, FILE), `${JSON.stringify({ id, at: Date.now() })}\n`);
}

/** The id last written and when (0 when the file does not say); undefined when there is none or it is not a valid id. */
export async function readOpenSessionEntry(sessionsDir: string): Promise<{ id: string; at: number } | undefined> {
  try {
    const text = await readStateText(join(sessionsDir, FILE));
    if (text === undefined) return undefined;
    const { id, at } = parseJson(text) as { id?: unknown; at?: unknown };
    return typeof id === 'string' ? { id: assertSessionId(id), at: typeof at === 'number' ? at : 0 } : undefined;
  } catch {
    return undefined;
  }
}
