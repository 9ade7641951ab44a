import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { entryAt } from './files';
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

function run(root: string, args: string[], input?: string): Promise<Buffer> {
  return new Promise((done, reject) => {
    // No fsmonitor program, no optional index lock; cat-file and ls-files run no hooks or filters.
    const child = spawn('git', ['-c', 'core.fsmonitor=false', ...args], { cwd: root, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'], timeout: TIMEOUT_MS });
    const out: Buffer[] = [];
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? done(Buffer.concat(out)) : reject(new Error(`git ${args[0]} exited with ${code}`))));
    if (input !== undefined) {
      // git may stop reading early (a missing object); that is its answer, not a crash here.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(input);
    }
  });
}

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
  const byRel = new Map(list.map((w) => [w.rel, w.pre]));
  // Command lines are short on Windows (32k characters): the paths go in chunks.
  const chunks: string[][] = [[]];
  let length = 0;
  for (const w of list) {
    const spec = `:(literal)${w.rel}`;
    if (length + spec.length > 16_000 && chunks.at(-1)!.length) {
      chunks.push([]);
      length = 0;
    }
    chunks.at(-1)!.push(spec);
    length += spec.length + 1;
  }
  const indexPath = resolve(root, (await run(root, ['rev-parse', '--git-path', 'index'])).toString('utf8').trim());
  let text = '';
  for (const specs of chunks) text += (await run(root, ['ls-files', '-s', '--debug', '-z', '--', ...specs])).toString('utf8');
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
  const out = await run(root, ['cat-file', '--batch'], `${ids.join('\n')}\n`);
  let at = 0;
  const byBlob = new Map<string, Buffer>();
  for (const id of ids) {
    const nl = out.indexOf(0x0a, at);
    if (nl < 0) break;
    const [gotId, type, len] = out.subarray(at, nl).toString('utf8').split(' ');
    if (type !== 'blob' || gotId !== id) break;
    const n = Number(len);
    byBlob.set(id, out.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  for (const [rel, id] of blobs) {
    const bytes = byBlob.get(id);
    // A smudge or line-ending filter would make the working file differ from the blob; the
    // length tells most of those apart, and nothing is used that does not match it.
    if (bytes && bytes.length === byRel.get(rel)!.size) found.set(rel, Buffer.from(bytes));
  }
  return found;
};
