// The tree scan behind Bash change detection: a listing that honours the caller's skips, a bulk
// lstat and folder watches. It reads no file's content and follows no link (a linked folder is
// listed, not entered; a link is lstat'ed and its target read as text), bounded by a file count
// and a deadline.
import { watch } from 'node:fs';
import { availableParallelism } from 'node:os';
import { sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fdir } from 'fdir';
import { kindOfMode, type Entry } from './entries';

export interface TreeListing {
  /** Relative, '/'-separated; files and links (a linked folder is listed, not entered). */
  paths: string[];
  /** The folders walked ('' for the root), when asked for. */
  dirs: string[];
  /** More than `maxFiles` were there: the listing stopped. */
  truncated: boolean;
}

/** The files under `root`, skipping the folders `skipDir` names and the files `skipFile` names. */
export async function listTree(
  root: string,
  opts: { maxFiles: number; signal?: AbortSignal; withDirs?: boolean; throwOnError?: boolean; skipDir(rel: string): boolean; skipFile(rel: string): boolean },
): Promise<TreeListing> {
  const prefix = root.endsWith('/') ? root.length : root.length + 1;
  // A `\` is a separator on Windows only: elsewhere `a\b` is one name.
  const rel = (p: string) => (sep === '\\' ? p.slice(prefix).replace(/\\/g, '/') : p.slice(prefix)).replace(/\/$/, '');
  const dirs: string[] = [];
  let builder = new fdir()
    .withFullPaths()
    .withMaxFiles(opts.maxFiles + 1)
    .exclude((_name, dirPath) => opts.skipDir(rel(dirPath)))
    .filter((path, isDir) => {
      if (isDir) {
        dirs.push(path.length < prefix ? '' : rel(path));
        return false;
      }
      return !opts.skipFile(rel(path));
    });
  if (opts.withDirs) builder = builder.withDirs();
  if (opts.signal) builder = builder.withAbortSignal(opts.signal);
  // A folder it cannot read (no permission, a name that is not UTF-8) is otherwise skipped without a word.
  if (opts.throwOnError) builder = builder.withErrors();
  const found = await builder.crawl(root).withPromise();
  return { paths: found.slice(0, opts.maxFiles).map(rel), dirs, truncated: found.length > opts.maxFiles };
}

export interface DirWatch {
  close(): void;
}

/** Whether watching folders tells every change in order (inotify: one queue for all watches). */
export const WATCH_ORDERED = process.platform === 'linux';

/**
 * Watches one folder (not its subfolders) without keeping the process alive; `onEvent` gets the
 * name changed in it (null when the system does not say). Undefined when it cannot be watched.
 */
export function watchDir(dir: string, onEvent: (name: string | null) => void, onError: () => void): DirWatch | undefined {
  try {
    const w = watch(dir, { persistent: false, encoding: 'utf8' }, (_type, name) => onEvent(name));
    w.on('error', () => {
      w.close();
      onError();
    });
    return w;
  } catch {
    return undefined;
  }
}

// lstat of tens of thousands of files is the cost of a Bash fingerprint. Done one after another
// in worker threads, synchronously (measured: 3-4x faster than as many async calls through
// libuv's pool on a 50,000-file tree), it keeps the host's event loop free meanwhile. The source
// is a string so that the bundled extension needs no second entry point.
const STAT_WORKER = `
const { parentPort } = require('node:worker_threads');
const { lstatSync, readlinkSync } = require('node:fs');
const { join } = require('node:path');
parentPort.on('message', ({ root, paths, deadline }) => {
  const out = new Float64Array(paths.length * 6);
  const links = {};
  let done = 0;
  for (; done < paths.length; done++) {
    if ((done & 1023) === 0 && Date.now() > deadline) break;
    const p = join(root, paths[done]);
    try {
      const s = lstatSync(p);
      out[done * 6] = s.size; out[done * 6 + 1] = s.mtimeMs; out[done * 6 + 2] = s.ctimeMs;
      out[done * 6 + 3] = s.ino; out[done * 6 + 4] = s.mode; out[done * 6 + 5] = s.nlink;
      if ((s.mode & 0o170000) === 0o120000) links[done] = readlinkSync(p);
    } catch { out[done * 6 + 4] = -1; }
  }
  parentPort.postMessage({ out, links, done }, [out.buffer]);
});`;

interface StatReply {
  out: Float64Array;
  links: Record<number, string>;
  done: number;
}

let pool: Worker[] | undefined;

function workers(): Worker[] {
  if (!pool) {
    const n = Math.max(1, Math.min(2, availableParallelism()));
    pool = Array.from({ length: n }, () => {
      const w = new Worker(STAT_WORKER, { eval: true });
      w.unref();
      return w;
    });
  }
  return pool;
}

function ask(w: Worker, msg: { root: string; paths: string[]; deadline: number }): Promise<StatReply> {
  return new Promise((resolve, reject) => {
    // Held while a question is out, so the process waits for the answer; let go after.
    w.ref();
    const done = () => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.unref();
    };
    const onMessage = (m: StatReply) => {
      done();
      resolve(m);
    };
    const onError = (err: Error) => {
      done();
      pool = undefined;
      reject(err);
    };
    w.on('message', onMessage);
    w.on('error', onError);
    w.postMessage(msg);
  });
}

/** lstat of many paths under `root` (undefined: gone); `complete` false when the deadline passed first. */
export async function statMany(root: string, paths: readonly string[], deadline: number): Promise<{ entries: Array<(Entry & { link?: string }) | undefined>; complete: boolean }> {
  const ws = workers();
  const per = Math.ceil(paths.length / ws.length);
  const parts = ws.map((w, k) => ({ w, from: k * per, slice: paths.slice(k * per, (k + 1) * per) }));
  const replies = await Promise.all(parts.map((p) => (p.slice.length ? ask(p.w, { root, paths: p.slice, deadline }) : Promise.resolve<StatReply>({ out: new Float64Array(0), links: {}, done: 0 }))));
  const entries: Array<(Entry & { link?: string }) | undefined> = new Array(paths.length);
  let complete = true;
  replies.forEach((r, k) => {
    const { from, slice } = parts[k]!;
    if (r.done < slice.length) complete = false;
    for (let i = 0; i < r.done; i++) {
      const o = i * 6;
      if (r.out[o + 4] === -1) continue;
      const mode = r.out[o + 4]!;
      const link = r.links[i];
      entries[from + i] = { kind: kindOfMode(mode), size: r.out[o]!, mtimeMs: r.out[o + 1]!, ctimeMs: r.out[o + 2]!, ino: r.out[o + 3]!, mode, nlink: r.out[o + 5]!, ...(link !== undefined ? { link } : {}) };
    }
  });
  return { entries, complete };
}
