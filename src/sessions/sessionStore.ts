import { createReadStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { MessageParam } from '../api/types';
import { withFileLock, writeFileAtomic } from '../base/atomicFile';
import type { ViewMessage } from '../shared/viewState';

export const SCHEMA_VERSION = 1;
const INDEX_FILE = 'index.json';
const ID = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * One line of a transcript. Append-only: a compaction or an undo writes a `history` event
 * that replaces the API history from there on; nothing earlier is ever rewritten.
 */
export type SessionEvent =
  | { t: 'meta'; v: number; id: string; createdAt: number; cwd: string; model: string; branch?: string }
  | { t: 'msg'; m: MessageParam }
  | { t: 'history'; h: MessageParam[]; reason: string }
  | { t: 'view'; v: ViewMessage }
  | { t: 'title'; title: string }
  | { t: 'usage'; tokens: number };

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model: string;
  messageCount: number;
  tokens: number;
  cwd: string;
  branch?: string;
  /** What the user asked, for searching beyond the title (capped). */
  preview?: string;
}

export interface LoadedSession {
  meta: Extract<SessionEvent, { t: 'meta' }>;
  history: MessageParam[];
  view: ViewMessage[];
  title: string | undefined;
  tokens: number;
  /** Lines that could not be read, 1-based; a torn last line from a crash shows up here. */
  skipped: Array<{ line: number; reason: string }>;
}

export class SessionError extends Error {}

export function assertSessionId(id: string): string {
  // Ids become file names: nothing that could climb out of the folder.
  if (!ID.test(id)) throw new SessionError(`not a session id: ${JSON.stringify(id).slice(0, 100)}`);
  return id;
}

/** Migrations from older schema versions, applied on read. */
function migrate(e: SessionEvent): SessionEvent {
  return e;
}

function isEvent(x: unknown): x is SessionEvent {
  return typeof x === 'object' && x !== null && typeof (x as { t?: unknown }).t === 'string';
}

/** Reads a transcript as a stream, so a 50 MB file never sits in memory as one string. */
export async function loadSession(file: string): Promise<LoadedSession> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let meta: LoadedSession['meta'] | undefined;
  let history: MessageParam[] = [];
  let view: ViewMessage[] = [];
  let title: string | undefined;
  let tokens = 0;
  const skipped: LoadedSession['skipped'] = [];
  let n = 0;
  for await (const line of rl) {
    n++;
    if (!line.trim()) continue;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      skipped.push({ line: n, reason: 'not valid JSON (a torn or corrupt line)' });
      continue;
    }
    if (!isEvent(e)) {
      skipped.push({ line: n, reason: 'not a session event' });
      continue;
    }
    const ev = migrate(e);
    switch (ev.t) {
      case 'meta':
        meta = ev;
        break;
      case 'msg':
        history.push(ev.m);
        break;
      case 'history':
        history = ev.h;
        break;
      case 'view': {
        const i = view.findIndex((m) => m.id === ev.v.id);
        if (i >= 0) view[i] = ev.v;
        else view.push(ev.v);
        break;
      }
      case 'title':
        title = ev.title;
        break;
      case 'usage':
        tokens = ev.tokens;
        break;
      default:
        skipped.push({ line: n, reason: `unknown event type ${JSON.stringify((ev as { t: string }).t).slice(0, 40)}` });
    }
  }
  if (!meta) throw new SessionError(`${file} has no session header`);
  if (meta.v > SCHEMA_VERSION) throw new SessionError(`${file} was written by a newer Threadline (schema ${meta.v})`);
  // A crash between a tool call and its result must not leave a history the API refuses.
  if (view.length) view = view.map((m) => (m.kind === 'assistant' && m.streaming ? { ...m, streaming: false } : m));
  return { meta, history, view, title, tokens, skipped };
}

/**
 * Sessions of one workspace: a JSONL transcript each, plus an index for fast listing.
 * Each window writes only its own sessions' files; the shared index is updated under a
 * cross-process lock and replaced atomically, so two windows never lose each other's entries.
 */
export class SessionStore {
  constructor(readonly dir: string) {}

  file(id: string): string {
    return join(this.dir, `${assertSessionId(id)}.jsonl`);
  }

  async append(id: string, events: readonly SessionEvent[]): Promise<void> {
    if (!events.length) return;
    await fs.mkdir(this.dir, { recursive: true });
    // One write per batch, each event on its own line: a kill mid-write tears at most the
    // last line, which the loader skips and reports.
    await fs.appendFile(this.file(id), events.map((e) => JSON.stringify(e)).join('\n') + '\n', 'utf8');
  }

  async load(id: string): Promise<LoadedSession> {
    return loadSession(this.file(id));
  }

  async updateIndex(entry: SessionSummary): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await withFileLock(join(this.dir, `${INDEX_FILE}.lock`), async () => {
      const all = await this.readIndex();
      all.set(entry.id, entry);
      await writeFileAtomic(join(this.dir, INDEX_FILE), JSON.stringify([...all.values()]));
    });
  }

  async removeFromIndex(id: string): Promise<void> {
    await withFileLock(join(this.dir, `${INDEX_FILE}.lock`), async () => {
      const all = await this.readIndex();
      all.delete(id);
      await writeFileAtomic(join(this.dir, INDEX_FILE), JSON.stringify([...all.values()]));
    });
  }

  private async readIndex(): Promise<Map<string, SessionSummary>> {
    try {
      const list = JSON.parse(await fs.readFile(join(this.dir, INDEX_FILE), 'utf8')) as SessionSummary[];
      return new Map(list.filter((s) => s && typeof s.id === 'string' && ID.test(s.id)).map((s) => [s.id, s]));
    } catch {
      // Missing or corrupt: it is derived data, rebuilt from the transcripts by `rebuildIndex`.
      return new Map();
    }
  }

  async rename(id: string, title: string): Promise<void> {
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (!clean) throw new SessionError('a title cannot be empty');
    await this.append(id, [{ t: 'title', title: clean }]);
    const entry = (await this.readIndex()).get(id) ?? summarize(await this.load(id), Date.now());
    await this.updateIndex({ ...entry, title: clean });
  }

  /**
   * Moves a session to the trash folder (nothing is destroyed, so Undo can bring it back);
   * `restore` undoes it.
   */
  async delete(id: string): Promise<void> {
    const trash = join(this.dir, '.trash');
    await fs.mkdir(trash, { recursive: true });
    await fs.rename(this.file(id), join(trash, `${assertSessionId(id)}.jsonl`));
    await this.removeFromIndex(id);
  }

  async restore(id: string): Promise<void> {
    await fs.rename(join(this.dir, '.trash', `${assertSessionId(id)}.jsonl`), this.file(id));
    const st = await fs.stat(this.file(id));
    await this.updateIndex(summarize(await this.load(id), st.mtimeMs));
  }

  /** Newest first. */
  async list(): Promise<SessionSummary[]> {
    return [...(await this.readIndex()).values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Recreates the index from the transcripts (a lost or corrupt index loses no session). */
  async rebuildIndex(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = (await fs.readdir(this.dir)).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const out: SessionSummary[] = [];
    for (const name of names) {
      const file = join(this.dir, name);
      try {
        const s = await loadSession(file);
        const st = await fs.stat(file);
        out.push(summarize(s, st.mtimeMs));
      } catch {
        // An unreadable transcript stays on disk untouched; it just is not listed.
      }
    }
    await withFileLock(join(this.dir, `${INDEX_FILE}.lock`), () => writeFileAtomic(join(this.dir, INDEX_FILE), JSON.stringify(out)));
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }
}

export function summarize(s: LoadedSession, updatedAt: number): SessionSummary {
  return {
    id: s.meta.id,
    title: s.title ?? titleFrom(s.view) ?? 'Untitled session',
    createdAt: s.meta.createdAt,
    updatedAt,
    model: s.meta.model,
    messageCount: s.view.filter((m) => m.kind === 'user' || m.kind === 'assistant').length,
    tokens: s.tokens,
    cwd: s.meta.cwd,
    ...(s.meta.branch ? { branch: s.meta.branch } : {}),
    preview: previewFrom(s.view),
  };
}

/** The user's own words across the session, for search: the first 400 characters. */
export function previewFrom(view: readonly ViewMessage[]): string {
  return view
    .filter((m): m is Extract<ViewMessage, { kind: 'user' }> => m.kind === 'user')
    .map((m) => m.text.replace(/\s+/g, ' ').trim())
    .join(' · ')
    .slice(0, 400);
}

/** The conversation as a markdown document, for sharing or keeping. */
export function sessionToMarkdown(s: LoadedSession): string {
  const out = [`# ${s.title ?? titleFrom(s.view) ?? 'Threadline session'}`, '', `Session ${s.meta.id}, ${new Date(s.meta.createdAt).toISOString()}, model ${s.meta.model}.`, ''];
  for (const m of s.view) {
    switch (m.kind) {
      case 'user':
        out.push('## You', '', m.text, '');
        break;
      case 'assistant':
        out.push('## Threadline', '', m.text, '');
        break;
      case 'tool':
        out.push(`> **${m.name}** ${m.summary} — ${m.status}${m.durationMs !== undefined ? `, ${(m.durationMs / 1000).toFixed(1)} s` : ''}`, '');
        break;
      case 'compaction':
        out.push(`---`, '', `*Compacted: ${m.tokensBefore} → ${m.tokensAfter} tokens.*`, '', m.summary, '', '---', '');
        break;
      case 'notice':
        out.push(`> ${m.text}`, '');
        break;
    }
  }
  return out.join('\n');
}

/** A short title from the first thing the user asked. */
export function titleFrom(view: readonly ViewMessage[]): string | undefined {
  const first = view.find((m) => m.kind === 'user');
  if (!first || first.kind !== 'user') return undefined;
  const line = first.text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line || undefined;
}

/** An archived pre-compaction transcript (one API message per line) as read-only markdown. */
export function archiveToMarkdown(jsonl: string): string {
  const out = ['# Conversation before compaction', '', '*Read-only: this is the transcript Threadline archived before summarising it.*', ''];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let m: MessageParam;
    try {
      m = JSON.parse(line) as MessageParam;
    } catch {
      out.push('> (an unreadable line was skipped)', '');
      continue;
    }
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type === 'text') {
        if (b.text.startsWith('<system-reminder')) continue;
        out.push(m.role === 'user' ? '## You' : '## Threadline', '', b.text, '');
      } else if (b.type === 'tool_use') out.push(`> **${b.name}** \`${JSON.stringify(b.input).slice(0, 200)}\``, '');
      else if (b.type === 'tool_result') {
        const text = typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? '');
        out.push('```', text.length > 2000 ? `${text.slice(0, 2000)}\n… (${text.length - 2000} more characters)` : text, '```', '');
      }
    }
  }
  return out.join('\n');
}
