import { createReadStream, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { MessageParam } from '../api/types';
import type { ViewMessage } from '../shared/viewState';
import type { CompactionRecord, PromptRef } from '../conversation/undoRecords';
import { parseEvent } from './eventSchema';
import { SCHEMA_VERSION, type SessionEvent } from './events';
import { withoutBlankText } from '../conversation/blankText';
import { repairToolPairing } from './historyRepair';

export { SCHEMA_VERSION, type SessionEvent } from './events';

const ID = /^[A-Za-z0-9_-]{1,80}$/;

export interface LoadedSession {
  meta: Extract<SessionEvent, { t: 'meta' }>;
  history: MessageParam[];
  view: ViewMessage[];
  title: string | undefined;
  tokens: number;
  /** Lines that could not be read, 1-based; a torn last line from a crash shows up here. */
  skipped: Array<{ line: number; reason: string }>;
  /** What was mended so the API takes the history again (a turn cut off by a crash). */
  repairs: string[];
  /** Every compaction of the session, oldest first: each is undoable while its summary is in the history. */
  compactions: CompactionRecord[];
  /** How Rewind and Fork find each user message again, by its view id. */
  prompts: Record<string, PromptRef>;
}

export class SessionError extends Error {}

export function isSessionId(id: string): boolean {
  return ID.test(id);
}

export function assertSessionId(id: string): string {
  // Ids become file names: nothing that could climb out of the folder.
  if (!ID.test(id)) throw new SessionError(`not a session id: ${JSON.stringify(id).slice(0, 100)}`);
  return id;
}

/** Migrations from older schema versions, applied on read. */
function migrate(e: SessionEvent): SessionEvent {
  return e;
}

/**
 * Reads a transcript as a stream, so a 50 MB file never sits in memory as one string. Each
 * line is checked for its shape first: a line that is not JSON or not a well-formed event is
 * skipped and reported, never replayed.
 */
export async function loadSession(file: string): Promise<LoadedSession> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let meta: LoadedSession['meta'] | undefined;
  let history: MessageParam[] = [];
  let view: ViewMessage[] = [];
  const viewAt = new Map<string, number>();
  /** Every panel message written, by id, including those a later `viewOrder` leaves out. */
  const seen = new Map<string, ViewMessage>();
  let title: string | undefined;
  let tokens = 0;
  const compactions = new Map<string, CompactionRecord>();
  const prompts: Record<string, PromptRef> = {};
  const skipped: LoadedSession['skipped'] = [];
  let n = 0;
  for await (const line of rl) {
    n++;
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      skipped.push({ line: n, reason: 'not valid JSON (a torn or corrupt line)' });
      continue;
    }
    const parsed = parseEvent(raw);
    if (!parsed.ok) {
      skipped.push({ line: n, reason: parsed.reason });
      continue;
    }
    const ev = migrate(parsed.event);
    switch (ev.t) {
      case 'meta':
        // The first header names the session; a second one is a stray line, not a new identity.
        if (meta) skipped.push({ line: n, reason: 'a second session header' });
        else meta = ev;
        break;
      case 'msg':
        history.push(ev.m);
        break;
      case 'history':
        history = ev.h;
        break;
      case 'view': {
        seen.set(ev.v.id, ev.v);
        const i = viewAt.get(ev.v.id);
        if (i !== undefined) view[i] = ev.v;
        else {
          viewAt.set(ev.v.id, view.length);
          view.push(ev.v);
        }
        break;
      }
      case 'viewOrder':
        view = ev.ids.flatMap((id) => {
          const v = seen.get(id);
          return v ? [v] : [];
        });
        viewAt.clear();
        view.forEach((v, i) => viewAt.set(v.id, i));
        break;
      case 'title':
        title = ev.title;
        break;
      case 'usage':
        tokens = ev.tokens;
        break;
      case 'compaction':
        if (!compactions.has(ev.r.id)) compactions.set(ev.r.id, ev.r);
        break;
      case 'prompt':
        prompts[ev.id] = ev.ref;
        break;
    }
  }
  if (!meta) throw new SessionError(`${file} has no session header`);
  if (meta.v > SCHEMA_VERSION) throw new SessionError(`${file} was written by a newer Threadline (schema ${meta.v})`);
  // A crash between a tool call and its result must not leave a history the API refuses.
  const mended = repairToolPairing(withoutBlankText(history));
  if (view.length) view = view.map((m) => (m.kind === 'assistant' && m.streaming ? { ...m, streaming: false } : m));
  return { meta, history: mended.history.slice(), view, title, tokens, skipped, repairs: mended.repairs, compactions: [...compactions.values()], prompts };
}

export interface TornLine {
  /** How many bytes followed the last newline. */
  bytes: number;
  /** Where those bytes were kept, so nothing is lost. */
  keptIn: string;
  /** The transcript's size once cut. */
  sizeAfter: number;
}

/**
 * A crash mid-append leaves a last line without its newline; the next append would join it
 * and both lines would be lost. Cuts the open transcript back to its last newline, keeping the
 * torn bytes in `<file>.torn`. Reads only the tail (one byte when the file is whole).
 */
export async function cutTornTail(fh: FileHandle, file: string): Promise<TornLine | undefined> {
  const { size } = await fh.stat();
  if (size === 0) return undefined;
  const last = Buffer.alloc(1);
  await fh.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return undefined;
  let keep = 0;
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await fh.read(chunk, 0, end - start, start);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl >= 0) {
      keep = start + nl + 1;
      break;
    }
    end = start;
  }
  const torn = Buffer.alloc(size - keep);
  await fh.read(torn, 0, torn.length, keep);
  const keptIn = `${file}.torn`;
  await fs.appendFile(keptIn, Buffer.concat([torn, Buffer.from('\n')]), { mode: 0o600 });
  await fh.truncate(keep);
  return { bytes: torn.length, keptIn, sizeAfter: keep };
}
