// Lines of a file read as a stream of bytes, each line kept only up to a cap: a file of one
// 600 MB line must not become one 600 MB string (V8 refuses strings past about 512 MB with a
// RangeError, and anything near that is memory the host does not have to spare).
import { isAscii } from 'node:buffer';
import { promises as fs } from 'node:fs';
import { isOwnProcessFile } from './ownProcess';
import { ownProcessRefusal, READ_FLAGS, type ReadFailure } from './read';

const CHUNK = 256 * 1024;

export interface Line {
  /** The line without its end (`\n` or `\r\n`), cut to the cap. */
  text: string;
  /** The line's whole length in characters (code points) when it was cut; undefined when whole. */
  cutFrom?: number;
}

export interface LineReadOptions {
  /** 1-based number of the first line wanted. */
  first: number;
  /** How many lines are wanted. */
  count: number;
  /** Characters kept of each line (at most this many; the rest is counted, never kept). */
  maxLineChars: number;
  /** Stop once the kept text reaches this many bytes: the result is bounded whatever `count` says. */
  maxOutputBytes: number;
  /** Read on to the end to count every line (cheap: newlines are counted, nothing is kept). */
  countAll?: boolean;
  /**
   * Stop after reading this many bytes of the file: a far offset in a huge file, or a sparse
   * file of a terabyte of zeros (one endless line), ends here instead of scanning it all.
   */
  maxScanBytes?: number;
  signal?: AbortSignal;
}

export type LineRead =
  | {
      ok: true;
      lines: Line[];
      /** Lines follow the last one returned. */
      more: boolean;
      /** The number of lines in the file, when the read reached its end. */
      total?: number;
      /** The scan cap ended the read before the lines wanted were all found: where it stopped, in bytes. */
      scanStoppedAt?: number;
      /** The output cap, not `count`, ended the read. */
      outputCapped: boolean;
    }
  | { ok: false; reason: Exclude<ReadFailure, 'too-large'>; error?: NodeJS.ErrnoException };

/** Code points in a UTF-8 byte range: every byte that does not continue a sequence starts one. */
function codePoints(buf: Buffer, from: number, to: number): number {
  // The common case, and a long line's bulk: ASCII, checked natively.
  if (isAscii(buf.subarray(from, to))) return to - from;
  let n = 0;
  for (let k = from; k < to; k++) if ((buf[k]! & 0xc0) !== 0x80) n++;
  return n;
}

/** The longest prefix of `bytes` that holds at most `chars` code points and ends on a whole character. */
function prefixOfChars(bytes: Buffer, chars: number): Buffer {
  let seen = 0;
  for (let k = 0; k < bytes.length; k++) {
    if ((bytes[k]! & 0xc0) !== 0x80) {
      if (seen === chars) return bytes.subarray(0, k);
      seen++;
    }
  }
  return bytes;
}

/** One line being assembled: its first bytes (up to the cap) and how long it really is. */
class LineBuilder {
  private parts: Buffer[] = [];
  private kept = 0;
  private bytes = 0;
  private chars = 0;
  private last = -1;

  constructor(private readonly maxBytes: number) {}

  get empty(): boolean {
    return this.bytes === 0;
  }

  add(buf: Buffer, from: number, to: number, keep: boolean): void {
    if (to <= from) return;
    this.chars += codePoints(buf, from, to);
    this.bytes += to - from;
    this.last = buf[to - 1]!;
    if (!keep || this.kept >= this.maxBytes) return;
    const end = Math.min(to, from + (this.maxBytes - this.kept));
    // Copied: the chunk's buffer is reused for the next read.
    this.parts.push(Buffer.from(buf.subarray(from, end)));
    this.kept += end - from;
  }

  /** The line as kept; `\r` of a `\r\n` end is not part of it. */
  finish(maxChars: number): Line {
    const cr = this.last === 0x0d;
    let kept = Buffer.concat(this.parts, this.kept);
    if (cr && this.kept === this.bytes) kept = kept.subarray(0, -1);
    const whole = this.chars - (cr ? 1 : 0);
    this.parts = [];
    this.kept = this.bytes = this.chars = 0;
    this.last = -1;
    if (whole <= maxChars) return { text: kept.toString('utf8') };
    return { text: prefixOfChars(kept, maxChars).toString('utf8'), cutFrom: whole };
  }
}

/**
 * Lines `first`..`first + count - 1` of a regular file, each cut to `maxLineChars`, the whole
 * bounded by `maxOutputBytes`. Memory stays within a chunk plus the lines kept, however long a
 * line is; a FIFO or device is refused at the open, without blocking.
 */
export async function readLines(abs: string, o: LineReadOptions): Promise<LineRead> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(abs, READ_FLAGS);
  } catch (e) {
    const error = e as NodeJS.ErrnoException;
    const reason = error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 'missing' : error.code === 'EISDIR' ? 'folder' : error.code === 'ENXIO' ? 'not-regular' : 'unreadable';
    return { ok: false, reason, error };
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) return { ok: false, reason: 'folder' };
    if (!st.isFile()) return { ok: false, reason: 'not-regular' };
    if (isOwnProcessFile(abs, st)) return { ok: false, reason: 'unreadable', error: ownProcessRefusal() };
    // A character is at most four bytes in UTF-8: keeping this many bytes keeps `maxLineChars`.
    const line = new LineBuilder(o.maxLineChars * 4 + 4);
    const lines: Line[] = [];
    let outputBytes = 0;
    let n = 0; // lines completed so far
    // Collecting until `count` lines are kept or the output cap is reached; then any further
    // byte means more lines follow.
    let full = false;
    let more = false;
    let outputCapped = false;
    let pos = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    const complete = (): void => {
      n++;
      const wanted = !full && n >= o.first;
      const done = line.finish(o.maxLineChars);
      if (!wanted) return;
      const size = Buffer.byteLength(done.text) + 1;
      if (outputBytes + size > o.maxOutputBytes && lines.length > 0) {
        outputCapped = true;
        more = true;
        full = true;
        return;
      }
      outputBytes += size;
      lines.push(done);
      if (lines.length >= o.count) full = true;
    };
    for (;;) {
      if (o.signal?.aborted) return { ok: true, lines, more: true, outputCapped };
      if (o.maxScanBytes !== undefined && pos >= o.maxScanBytes) return { ok: true, lines, more: true, outputCapped, ...(full ? {} : { scanStoppedAt: pos }) };
      const { bytesRead } = await handle.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      let start = 0;
      while (start < bytesRead) {
        if (full && !more) {
          more = true;
          if (!o.countAll) return { ok: true, lines, more, outputCapped };
        }
        const nl = buf.indexOf(0x0a, start);
        const end = nl < 0 || nl >= bytesRead ? bytesRead : nl;
        line.add(buf, start, end, !full && n + 1 >= o.first);
        if (end === bytesRead) break;
        complete();
        if (outputCapped && !o.countAll) return { ok: true, lines, more, outputCapped };
        start = end + 1;
      }
    }
    // The last line has no newline.
    if (!line.empty) complete();
    return { ok: true, lines, more, total: n, outputCapped };
  } catch (e) {
    return { ok: false, reason: 'unreadable', error: e as NodeJS.ErrnoException };
  } finally {
    await handle.close();
  }
}

export type LineRecord = { n: number; text: string } | { n: number; tooLong: number };

/**
 * Every non-empty line of a regular file, in order, as a stream (a 50 MB transcript never sits in
 * memory as one string). A line over `maxLineBytes` is reported by its length, not built.
 * Throws when the file cannot be opened or is not a regular file.
 */
export async function* lineRecords(abs: string, maxLineBytes: number): AsyncGenerator<LineRecord> {
  const handle = await fs.open(abs, READ_FLAGS);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw Object.assign(new Error(`${abs} is not a regular file`), { code: st.isDirectory() ? 'EISDIR' : 'EINVAL' });
    if (isOwnProcessFile(abs, st)) throw ownProcessRefusal();
    const buf = Buffer.allocUnsafe(CHUNK);
    let parts: Buffer[] = [];
    let length = 0;
    let n = 0;
    let pos = 0;
    const finish = function* (): Generator<LineRecord> {
      n++;
      if (length > maxLineBytes) yield { n, tooLong: length };
      else {
        const text = Buffer.concat(parts, length).toString('utf8');
        if (text.trim()) yield { n, text: text.endsWith('\r') ? text.slice(0, -1) : text };
      }
      parts = [];
      length = 0;
    };
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      let start = 0;
      while (start < bytesRead) {
        const nl = buf.indexOf(0x0a, start);
        const end = nl < 0 || nl >= bytesRead ? bytesRead : nl;
        if (length + (end - start) <= maxLineBytes) parts.push(Buffer.from(buf.subarray(start, end)));
        else parts = [];
        length += end - start;
        if (nl < 0 || nl >= bytesRead) break;
        yield* finish();
        start = nl + 1;
      }
    }
    if (length > 0) yield* finish();
  } finally {
    await handle.close();
  }
}
