import { createReadStream, promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ContentBlockParam, MessageParam } from '../api/types';
import type { ViewMessage } from '../shared/viewState';

/** Where the Claude Code CLI keeps a folder's transcripts: every non-alphanumeric becomes '-'. */
export function claudeProjectDir(cwd: string, home = homedir()): string {
  return join(home, '.claude', 'projects', resolve(cwd).replace(/[^A-Za-z0-9]/g, '-'));
}

export interface ClaudeSessionSummary {
  id: string;
  file: string;
  title: string;
  updatedAt: number;
}

export interface ConvertedSession {
  title: string;
  history: MessageParam[];
  view: ViewMessage[];
  /** Lines that were not JSON, skipped. */
  skipped: number;
}

interface Line {
  type?: string;
  isSidechain?: boolean;
  message?: { role?: string; content?: unknown };
  uuid?: string;
  timestamp?: string;
}

async function* lines(file: string): AsyncGenerator<Line | undefined> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const rl = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const l of rl) {
      if (!l.trim()) continue;
      try {
        yield JSON.parse(l) as Line;
      } catch {
        yield undefined;
      }
    }
  } finally {
    // A caller that stops early (listing needs only the first prompt) closes the file too.
    rl.close();
    input.destroy();
  }
}

function firstText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const t = content.find((b) => (b as { type?: string }).type === 'text') as { text?: string } | undefined;
    return t?.text;
  }
  return undefined;
}

/** This folder's Claude Code sessions that hold at least one user message, newest first. */
export async function listClaudeSessions(cwd: string, home = homedir()): Promise<ClaudeSessionSummary[]> {
  const dir = claudeProjectDir(cwd, home);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const out: ClaudeSessionSummary[] = [];
  for (const name of names) {
    const file = join(dir, name);
    // The title is the first prompt: read only as far as it, not the whole transcript.
    let title: string | undefined;
    for await (const l of lines(file)) {
      if (l?.type !== 'user' || l.isSidechain) continue;
      const t = firstText(l.message?.content);
      if (t && !t.startsWith('<')) {
        title = t;
        break;
      }
    }
    if (!title) continue;
    const st = await fs.stat(file);
    const t = title.replace(/\s+/g, ' ').trim();
    out.push({ id: name.slice(0, -6), file, title: t.length > 60 ? `${t.slice(0, 57)}…` : t, updatedAt: st.mtimeMs });
  }
  return out.sort((a, b) => b.updatedAt - a.updatedAt);
}

// Thinking stays behind: its signatures were issued to another conversation (perhaps for another
// model or account), and one the API cannot verify would fail every later request. The API lets
// earlier turns go without their thinking.
const KEEP_ASSISTANT = new Set(['text', 'tool_use']);
const KEEP_USER = new Set(['text', 'tool_result', 'image']);

/**
 * Converts a Claude Code transcript on read (the file is never changed): main-thread user and
 * assistant messages, consecutive ones of a role merged, and the pairing the API insists on
 * repaired (an unanswered tool call gets a "not recorded" result; an orphaned result is dropped).
 */
export async function loadClaudeSession(file: string): Promise<ConvertedSession> {
  const raw: MessageParam[] = [];
  let skipped = 0;
  let title: string | undefined;
  for await (const l of lines(file)) {
    if (!l) {
      skipped++;
      continue;
    }
    if ((l.type !== 'user' && l.type !== 'assistant') || l.isSidechain || !l.message) continue;
    const role = l.type;
    const content = l.message.content;
    const blocks = (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : []) as ContentBlockParam[];
    const kept = blocks.filter((b) => (role === 'assistant' ? KEEP_ASSISTANT : KEEP_USER).has(b.type) && !(b.type === 'text' && !b.text.trim()));
    if (!kept.length) continue;
    if (role === 'user' && !title) {
      const t = firstText(kept);
      if (t && !t.startsWith('<')) title = t;
    }
    const prev = raw.at(-1);
    if (prev?.role === role) raw[raw.length - 1] = { role, content: [...(prev.content as ContentBlockParam[]), ...kept] } as MessageParam;
    else raw.push({ role, content: kept } as MessageParam);
  }
  // Repair the pairing, message by message.
  const history: MessageParam[] = [];
  for (let i = 0; i < raw.length; i++) {
    const m = raw[i]!;
    let content = m.content as ContentBlockParam[];
    if (m.role === 'user') {
      const prev = history.at(-1);
      const asked = new Set(prev?.role === 'assistant' ? (prev.content as ContentBlockParam[]).filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id) : []);
      content = content.filter((b) => b.type !== 'tool_result' || asked.has(b.tool_use_id));
      const answered = new Set(content.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id));
      const missing = [...asked].filter((id) => !answered.has(id));
      content = [
        ...missing.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'Result not recorded in the Claude Code transcript.', is_error: true })),
        ...content.filter((b) => b.type === 'tool_result'),
        ...content.filter((b) => b.type !== 'tool_result'),
      ];
      if (!content.length) continue;
    } else if (history.length === 0) {
      history.push({ role: 'user', content: [{ type: 'text', text: '(conversation imported from Claude Code)' }] });
    } else if (history.at(-1)!.role === 'assistant') {
      history.push({ role: 'user', content: [{ type: 'text', text: '(continued)' }] });
    }
    history.push({ role: m.role, content } as MessageParam);
  }
  // A final unanswered tool call is answered too, so the next request is valid.
  const last = history.at(-1);
  if (last?.role === 'assistant') {
    const ids = (last.content as ContentBlockParam[]).filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
    if (ids.length) history.push({ role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'Result not recorded in the Claude Code transcript.', is_error: true })) });
  }
  const view: ViewMessage[] = [];
  let n = 0;
  for (const m of history) {
    for (const b of m.content as ContentBlockParam[]) {
      const id = `cc${n++}`;
      if (m.role === 'user' && b.type === 'text' && !b.text.startsWith('<')) view.push({ kind: 'user', id, text: b.text, createdAt: 0 });
      else if (m.role === 'assistant' && b.type === 'text') view.push({ kind: 'assistant', id, text: b.text, streaming: false, createdAt: 0 });
      else if (b.type === 'tool_use') view.push({ kind: 'tool', id, name: b.name, summary: summarizeInput(b.input), input: JSON.stringify(b.input, null, 2), status: 'done', createdAt: 0 });
    }
  }
  return { title: title ?? 'Claude Code session', history, view, skipped };
}

function summarizeInput(input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const v = i.file_path ?? i.command ?? i.pattern ?? i.path;
  return typeof v === 'string' ? v.slice(0, 120) : '';
}
