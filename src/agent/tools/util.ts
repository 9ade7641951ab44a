import { constants, promises as fs } from 'node:fs';
import { extname, isAbsolute, relative, sep } from 'node:path';
import { writeFileAtomic } from '../../base/atomicFile';

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

/** Reads up to the first `bytes` bytes of a file. */
export async function readHead(abs: string, bytes = 8192): Promise<Buffer> {
  // Non-blocking: a FIFO put where a file was must not hang the open.
  const fh = await fs.open(abs, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Replaces (or creates) a file atomically, so nobody ever sees half a file; the file keeps
 * its mode and owner, and a symlinked file stays a link (the one atomic writer, in base/).
 */
export async function writeAtomic(abs: string, data: string): Promise<void> {
  await writeFileAtomic(abs, data, { mode: 'keep' });
}

/** A path as the model should see it: relative to the workspace when inside, else absolute. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return abs;
  return rel.split(sep).join('/');
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
