import { resolve } from 'node:path';
import { HardenedGit } from '../context/gitProcess';
import { findRepository } from '../tools/gitRepo';
import { entryAt, realPath } from '../fs/entries';
import { relativeWithin } from '../fs/paths';
import type { StatKey } from './manifest';

/** What a file's stat was before a command, and the path relative to the workspace root. */
export interface GitWanted {
  rel: string;
  pre: StatKey;
}

/** Reads exact pre-images from git; given to the store only for a trusted workspace. */
export type GitPreImages = (root: string, wanted: readonly GitWanted[]) => Promise<Map<string, Buffer>>;

const TIMEOUT_MS = 5000;
const MAX_PATHS = 2000;
const MAX_LIST_BYTES = 4 * 1024 * 1024;
/** What the blobs of one command's changes may add up to; past it, the rest are not restorable. */
const MAX_BLOB_BYTES = 256 * 1024 * 1024;

const ENTRY = /(\d{6}) ([0-9a-f]{40,64}) (\d)\t([^\0]*)\0 {2}ctime: (\d+):(\d+)\n {2}mtime: (\d+):(\d+)\n {2}dev: \d+\tino: (\d+)\n {2}uid: \d+\tgid: \d+\n {2}size: (\d+)\tflags: [0-9a-f]+\n/gy;
const TWO32 = 2 ** 32;
// git keeps seconds and nanoseconds; node gives milliseconds as a double: equal within a microsecond.
const sameMs = (ms: number, sec: string, nsec: string) => Math.abs(Number(sec) * 1000 + Number(nsec) / 1e6 - ms) < 0.001;

/**
 * git's own copy of files a command changed, where git's index proves the file held exactly that
 * copy before the command: the index entry's stat (size, mtime, ctime, inode, as git records
 * them) equals the stat taken before the command, the entry is not "racily clean" (written in
 * the same instant as the index), and the blob is as long as the file was. This is git's own
 * test for an unchanged file. Only the index and objects are read; HEAD, refs and the index
 * are never written. The only place checkpoints/ runs git.
 */
export const gitPreImages: GitPreImages = async (root, wanted) => {
  const found = new Map<string, Buffer>();
  const list = wanted.slice(0, MAX_PATHS);
  if (!list.length) return found;
  // git runs at the repository's top, through the one place git is started (no hooks, filters
  // or fsmonitor whatever the repository's config says); the workspace may be a folder inside it.
  const repo = await findRepository(root);
  const real = await realPath(root);
  if (!repo || !real) return found;
  const under = relativeWithin(repo.top, real);
  if (under === undefined) return found;
  const prefix = under ? `${under}/` : '';
  const git = new HardenedGit(repo, TIMEOUT_MS);
  const run = async (args: string[], maxBytes: number, input?: string): Promise<Buffer> => {
    const out = await git.bytes(args, maxBytes, { drivers: false, ...(input !== undefined ? { input } : {}) });
    if (!out) throw new Error(`git ${args[0]} failed`);
    return out.bytes;
  };
  const byRel = new Map(list.map((w) => [prefix + w.rel, w.pre]));
  // Command lines are short on Windows (32k characters): the paths go in chunks.
  const chunks: string[][] = [[]];
  let length = 0;
  for (const w of list) {
    const spec = `:(literal)${prefix}${w.rel}`;
    if (length + spec.length > 16_000 && chunks.at(-1)!.length) {
      chunks.push([]);
      length = 0;
    }
    chunks.at(-1)!.push(spec);
    length += spec.length + 1;
  }
  const indexPath = resolve(repo.top, (await run(['rev-parse', '--git-path', 'index'], 64 * 1024)).toString('utf8').trim());
  let text = '';
  for (const specs of chunks) text += (await run(['ls-files', '-s', '--debug', '-z', '--', ...specs], MAX_LIST_BYTES)).toString('utf8');
  const indexMs = (await entryAt(indexPath))?.mtimeMs ?? 0;
  const blobs = new Map<string, string>();
  ENTRY.lastIndex = 0;
  for (let m = ENTRY.exec(text); m; m = ENTRY.exec(text)) {
    const [, mode, blob, stage, rel, cs, cn, ms, mn, ino, size] = m;
    const pre = byRel.get(rel!);
    if (!pre || stage !== '0' || !mode!.startsWith('100')) continue;
    const entryMs = Number(ms) * 1000 + Number(mn) / 1e6;
    const same = Number(size) === pre.size % TWO32 && Number(ino) === pre.ino % TWO32 && sameMs(pre.mtimeMs, ms!, mn!) && sameMs(pre.ctimeMs, cs!, cn!);
    if (same && pre.size > 0 && entryMs < indexMs) blobs.set(rel!, blob!);
  }
  if (!blobs.size) return found;
  const ids = [...blobs.values()];
  const out = await run(['cat-file', '--batch'], MAX_BLOB_BYTES, `${ids.join('\n')}\n`);
  let at = 0;
  const byBlob = new Map<string, Buffer>();
  for (const id of ids) {
    const nl = out.indexOf(0x0a, at);
    if (nl < 0) break;
    const [gotId, type, len] = out.subarray(at, nl).toString('utf8').split(' ');
    if (type !== 'blob' || gotId !== id) break;
    const n = Number(len);
    // Output cut at the cap: the blobs that did not fit whole are not used.
    if (nl + 1 + n > out.length) break;
    byBlob.set(id, out.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  for (const [rel, id] of blobs) {
    const bytes = byBlob.get(id);
    // A smudge or line-ending filter would make the working file differ from the blob; the
    // length tells most of those apart, and nothing is used that does not match it.
    if (bytes && bytes.length === byRel.get(rel)!.size) found.set(rel.slice(prefix.length), Buffer.from(bytes));
  }
  return found;
};
