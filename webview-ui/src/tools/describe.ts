import type { ToolStatus } from '../../../src/shared/viewState';

// What a tool card shows a person, read from what the host already sends: the tool's name,
// its input as JSON and its result text (in the formats of src/tools/builtin/*). Pure, so the
// parsing is tested in Node; anything it does not recognise falls back to the raw input.

export interface ToolMessageLike {
  name: string;
  input: string;
  status: ToolStatus;
  result?: string;
}

/** A place a card links to: a file, and a line when the tool pointed at one. */
export interface FileRef {
  path: string;
  line?: number;
}

export type BashOutcome =
  | { kind: 'exit'; code: number }
  | { kind: 'signal'; signal: string }
  | { kind: 'timeout'; after: string }
  | { kind: 'interrupted' }
  | { kind: 'failed'; reason: string };

export interface SearchHit extends FileRef {
  /** The matching line's text (Grep content mode) or the count (count mode). */
  text?: string;
}

export type ToolDetail =
  | { kind: 'read'; file: FileRef; range?: string; linesShown?: number }
  | { kind: 'write'; file: FileRef; lines: number }
  | { kind: 'edit'; file: FileRef; added: number; removed: number; replaceAll: boolean }
  | { kind: 'bash'; command: string; description?: string; outcome?: BashOutcome; output: string }
  | { kind: 'search'; tool: 'Grep' | 'Glob'; pattern: string; where?: string; hits: SearchHit[]; files: number; matches?: number; note?: string }
  | { kind: 'other' };

type Input = Record<string, unknown>;

function parseInput(json: string): Input | undefined {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Input) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
const lineCount = (s: string): number => (s === '' ? 0 : s.replace(/\n$/, '').split('\n').length);

/** Splits off the notes the search tools append after a blank line, e.g. "(Stopped at 250 results …)". */
function splitNotes(result: string): { body: string[]; note?: string } {
  const lines = result.split('\n');
  const notes: string[] = [];
  while (lines.length && /^\(.*\)$/.test(lines.at(-1)!.trim())) notes.unshift(lines.pop()!.trim());
  while (lines.length && lines.at(-1)!.trim() === '') lines.pop();
  return notes.length ? { body: lines, note: notes.join(' ') } : { body: lines };
}

const CLIPPED = /\n… \(\d+ more characters\)$/;

/** Reads the end of a Bash result as src/tools/builtin/bash.ts writes it. */
function bashOutcome(result: string | undefined, status: ToolStatus): { outcome?: BashOutcome; output: string } {
  if (result === undefined) return { output: '' };
  if (status === 'done') return { outcome: { kind: 'exit', code: 0 }, output: result === '(no output)' ? '' : result };
  if (status !== 'error' && status !== 'interrupted') return { output: result };
  // The host clips long results for the view; the exit line went with the end.
  if (CLIPPED.test(result)) return { output: result };
  const tail = (re: RegExp): RegExpExecArray | null => re.exec(result);
  const before = (m: RegExpExecArray) => result.slice(0, m.index).replace(/\n+$/, '');
  let m = tail(/(?:^|\n\n)Exit code (-?\d+)$/);
  if (m) return { outcome: { kind: 'exit', code: Number(m[1]) }, output: before(m) };
  m = tail(/(?:^|\n\n)Killed by signal (\S+)$/);
  if (m) return { outcome: { kind: 'signal', signal: m[1]! }, output: before(m) };
  m = tail(/(?:^|\n\n)Timed out after ([^:]+): the command and every process it started were killed\.$/);
  if (m) return { outcome: { kind: 'timeout', after: m[1]! }, output: before(m) };
  m = tail(/(?:^|\n\n)Interrupted by the user[^\n]*$/);
  if (m || status === 'interrupted') return { outcome: { kind: 'interrupted' }, output: m ? before(m) : result };
  return { outcome: { kind: 'failed', reason: result.split('\n')[0] ?? result }, output: '' };
}

function grepHits(body: string[], mode: string): { hits: SearchHit[]; matches?: number } {
  if (mode === 'content') {
    const hits: SearchHit[] = [];
    for (const l of body) {
      const m = /^(.*?):(\d+):(.*)$/.exec(l);
      if (m) hits.push({ path: m[1]!, line: Number(m[2]), text: m[3]! });
    }
    return { hits, matches: hits.length };
  }
  if (mode === 'count') {
    let matches = 0;
    const hits: SearchHit[] = [];
    for (const l of body) {
      const m = /^(.*):(\d+)$/.exec(l);
      if (!m) continue;
      matches += Number(m[2]);
      hits.push({ path: m[1]!, text: m[2]! });
    }
    return { hits, matches };
  }
  return { hits: body.filter((l) => l.trim()).map((path) => ({ path })) };
}

export function describeTool(message: ToolMessageLike): ToolDetail {
  const input = parseInput(message.input);
  if (!input) return { kind: 'other' };
  const path = str(input.file_path);
  switch (message.name) {
    case 'Read': {
      if (!path) return { kind: 'other' };
      const offset = int(input.offset);
      const limit = int(input.limit);
      const from = offset ?? 1;
      const range = offset || limit ? (limit === 1 ? `line ${from}` : limit ? `lines ${from}–${from + limit - 1}` : `from line ${from}`) : undefined;
      const shown = message.status === 'done' && message.result ? message.result.split('\n').filter((l) => /^\s*\d+\t/.test(l)).length : undefined;
      return { kind: 'read', file: offset ? { path, line: offset } : { path }, ...(range ? { range } : {}), ...(shown !== undefined ? { linesShown: shown } : {}) };
    }
    case 'Write':
      return path ? { kind: 'write', file: { path }, lines: lineCount(str(input.content) ?? '') } : { kind: 'other' };
    case 'Edit': {
      if (!path) return { kind: 'other' };
      const removed = lineCount(typeof input.old_string === 'string' ? input.old_string : '');
      const added = lineCount(typeof input.new_string === 'string' ? input.new_string : '');
      return { kind: 'edit', file: { path }, added, removed, replaceAll: input.replace_all === true };
    }
    case 'Bash': {
      const command = str(input.command);
      if (!command) return { kind: 'other' };
      const description = str(input.description);
      return { kind: 'bash', command, ...(description ? { description } : {}), ...bashOutcome(message.result, message.status) };
    }
    case 'Grep':
    case 'Glob': {
      const pattern = str(input.pattern);
      if (!pattern) return { kind: 'other' };
      const where = [str(input.glob), str(input.path)].filter(Boolean).join(' in ') || undefined;
      const base = { kind: 'search' as const, tool: message.name, pattern, ...(where ? { where } : {}) };
      if (message.status !== 'done' || message.result === undefined) return { ...base, hits: [], files: 0 };
      if (/^No (matches for|files match) /.test(message.result)) return { ...base, hits: [], files: 0, matches: 0 };
      const { body, note } = splitNotes(message.result);
      const mode = message.name === 'Grep' ? (str(input.output_mode) ?? 'files_with_matches') : 'files';
      const { hits, matches } = grepHits(body, mode);
      const files = new Set(hits.map((h) => h.path)).size;
      return { ...base, hits, files, ...(matches !== undefined ? { matches } : {}), ...(note ? { note } : {}) };
    }
    default:
      return { kind: 'other' };
  }
}
