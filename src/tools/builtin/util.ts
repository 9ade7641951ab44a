import { extname } from 'node:path';
import { relativeWithin } from '../../fs/paths';
import { writeFileAtomic } from '../../fs/write';

import type { WalkResult } from '../../fs/walk';

export { readHead } from '../../fs/read';

const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp tif tiff psd heic avif ' +
    'pdf zip gz tgz bz2 xz zst 7z rar tar jar war ear ' +
    'exe dll so dylib o a obj lib class pyc pyo wasm node bin dat ' +
    'woff woff2 ttf otf eot mp3 mp4 m4a wav ogg flac mov avi mkv webm ' +
    'sqlite sqlite3 db iso dmg img deb rpm msi apk'
  ).split(' '),
);

/** Extensions that are binary whatever their bytes say. */
export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).slice(1).toLowerCase());
}

/** The usual sniff: a NUL byte in the first 8 KB means binary. */
export function hasNulByte(head: Uint8Array): boolean {
  return head.subarray(0, 8192).includes(0);
}

/**
 * Replaces (or creates) a file atomically, so nobody ever sees half a file; the file keeps its
 * mode and owner (a file in a private folder is 0600 whatever), and a symlinked file stays a link
 * (the gate's one atomic writer).
 */
export async function writeAtomic(abs: string, data: string | Uint8Array): Promise<void> {
  await writeFileAtomic(abs, data, { mode: 'keep' });
}

/** A path as the model should see it: relative to the workspace when inside, else absolute. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relativeWithin(cwd, abs);
  if (rel === '') return '.';
  return rel ?? abs;
}

/** Lines in a text, the way an editor counts them (a final newline does not start a line). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

export function errorMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && typeof e.code === 'string') {
    if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
    if (e.code === 'ENOENT') return 'no such file or directory';
    if (e.code === 'EISDIR') return 'is a directory';
    if (e.code === 'ENOTDIR') return 'a parent of the path is not a directory';
  }
  return err instanceof Error ? err.message : String(err);
}

export const INTERRUPTED = { content: 'Interrupted before it finished.', isError: true } as const;

/** What a search's walk left out by its bounds, for the model to know the list is not whole. */
export function walkNotes(w: Pick<WalkResult, 'stopped' | 'gitignoreCapped' | 'gitignoreTooCostly'>): string[] {
  const notes: string[] = [];
  if (w.stopped === 'time' || w.stopped === 'entries') notes.push(`(The search stopped early: it met too many files${w.stopped === 'time' ? ' for the time a search may take' : ''}. Narrow it with a path or a pattern with more literal folders.)`);
  if (w.gitignoreTooCostly) notes.push('(The .gitignore patterns here took too long to match, so files met after the first seconds were not matched against them: some files git ignores may be listed.)');
  if (w.gitignoreCapped.length) notes.push(`(Some .gitignore files were read only in part, being unusually long: ${w.gitignoreCapped.map((d) => `${d || '.'}/.gitignore`).join(', ')}.)`);
  return notes;
}
