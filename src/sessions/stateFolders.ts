import { isAbsolute, join, resolve } from 'node:path';
import { readCappedSync } from '../fs/read';
import { existsSync } from '../fs/stat';
import { appendToFile, writeFileAtomic } from '../fs/write';

// Every state folder this user's Threadlines keep checkpoints in (the CLI's, each THREADLINE_STATE_DIR,
// VS Code's storage), listed in one file no setting moves. Each Threadline denies reads of all of
// them, not only its own: a recursive `grep -r` of an added folder reached another one's copies of
// Read-denied files, which a rule by their layout could not judge without walking every tree (pass 85 H1).

/** The list: one absolute path per line, appended to. */
export function stateFolderRegistry(home: string): string {
  return join(home, '.threadline', 'state-folders');
}

/** Past this the list is read no further; past half of it, it is written again with the folders that still exist. */
const MAX_BYTES = 256 * 1024;

/**
 * Adds `dir` to the list when it is not there. Best effort: a list that cannot be written leaves
 * the others unaware of this folder, not this run stopped (its own folder is denied by its own rule).
 */
export async function rememberStateFolder(dir: string, home: string): Promise<void> {
  const abs = resolve(dir);
  const { folders, bytes } = readList(home);
  if (folders.includes(abs)) return;
  const file = stateFolderRegistry(home);
  try {
    // Test runs and earlier THREADLINE_STATE_DIRs leave folders that are gone: dropped before the list fills.
    if (bytes > MAX_BYTES / 2) await writeFileAtomic(file, [...folders.filter((p) => existsSync(p)), abs].map((p) => `${p}\n`).join(''));
    // One short append is one write: two runs adding at once each land whole (a folder listed twice is read once).
    else await appendToFile(file, `${abs}\n`);
  } catch {
    // Read-only home, full disk: see above.
  }
}

let cache: { home: string; text: string; folders: readonly string[] } | undefined;

/** The folders listed that still exist. */
export function knownStateFolders(home: string): readonly string[] {
  const { folders, text } = readList(home);
  if (cache && cache.home === home && cache.text === text) return cache.folders;
  cache = { home, text, folders: folders.filter((p) => existsSync(p)) };
  return cache.folders;
}

function readList(home: string): { folders: string[]; text: string; bytes: number } {
  const read = readCappedSync(stateFolderRegistry(home), { maxBytes: MAX_BYTES });
  if (!read.ok) return { folders: [], text: '', bytes: 0 };
  const text = read.bytes.toString('utf8');
  // The piece after the last newline is a line still being written, or cut by a kill: not a folder yet.
  const lines = text.split('\n').slice(0, -1);
  // A folder too near the root would make every walk of it ask: such a line is not one Threadline wrote.
  const folders = [...new Set(lines.filter((l) => isAbsolute(l) && resolve(l) === l && l.split('/').filter(Boolean).length >= 2 && resolve(home) !== l))];
  return { folders, text, bytes: read.size };
}
