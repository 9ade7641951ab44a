import type { MessageParam } from '../api/types';
import { lineRecords } from '../fs/lines';
import { appendToFile, type AppendableFile } from '../fs/write';
import type { ViewMessage } from '../shared/viewState';
import type { CompactionRecord, PromptRef } from '../conversation/undoRecords';
import { parseEvent } from './eventSchema';
import { SCHEMA_VERSION, type SessionEvent } from './events';
import { withoutBlankText } from '../conversation/blankText';
import { capToolResults, TOOL_RESULT_MAX_CHARS } from '../conversation/resultCap';
import { repairToolPairing } from './historyRepair';
import { parseJson } from '../fs/jsonText';

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

/**
 * A transcript line holds one event; the largest, a whole history after a compaction, is a few
 * megabytes. A line past this is reported and skipped, never built into a string.
 */
const TRANSCRIPT_MAX_LINE_BYTES = 64 * 1024 * 1024;

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
  for await (const rec of lineRecords(file, TRANSCRIPT_MAX_LINE_BYTES)) {
    const n = rec.n;
    if ('tooLong' in rec) {
      skipped.push({ line: n, reason: `longer than ${TRANSCRIPT_MAX_LINE_BYTES / 1024 / 1024} MB (${rec.tooLong} bytes)` });
      continue;
    }
    const line = rec.text;
    let raw: unknown;
    try {
      raw = parseJson(line);
    } catch (e) {
      skipped.push({ line: n, reason: e instanceof Error && /nested deeper/.test(e.message) ? e.message : 'not valid JSON (a torn or corrupt line)' });
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
  // Written before results were capped, a transcript may hold one too large to send again: the
  // session would be stuck for good. It comes back with that result cut.
  const capped = capToolResults(mended.history);
  const repairs = capped.capped ? [...mended.repairs, `${capped.capped} tool result(s) over ${TOOL_RESULT_MAX_CHARS} characters were cut to that size`] : mended.repairs;
  if (view.length) view = view.map((m) => (m.kind === 'assistant' && m.streaming ? { ...m, streaming: false } : m));
  return { meta, history: capped.history, view, title, tokens, skipped, repairs, compactions: [...compactions.values()], prompts };
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
export async function cutTornTail(fh: AppendableFile, file: string): Promise<TornLine | undefined> {
  const size = await fh.size();
  if (size === 0) return undefined;
  const last = Buffer.alloc(1);
  await fh.readAt(last, 1, size - 1);
  if (last[0] === 0x0a) return undefined;
  let keep = 0;
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const bytesRead = await fh.readAt(chunk, end - start, start);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl >= 0) {
      keep = start + nl + 1;
      break;
    }
    end = start;
  }
  const torn = Buffer.alloc(size - keep);
  await fh.readAt(torn, torn.length, keep);
  const keptIn = `${file}.torn`;
  await appendToFile(keptIn, Buffer.concat([torn, Buffer.from('\n')]));
  await fh.truncate(keep);
  return { bytes: torn.length, keptIn, sizeAfter: keep };
}
