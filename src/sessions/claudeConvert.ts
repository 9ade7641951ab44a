import type { ContentBlockParam, MessageParam, ToolResultBlockParam, ToolUseBlockParam } from '../api/types';
import { matchResults, uniqueToolUseIds } from '../conversation/toolUseIds';
import type { ViewMessage } from '../shared/viewState';
import type { ClaudeChain } from './claudeChain';
import type { ClaudeEntry, SkipCounts } from './claudeTranscript';

/**
 * The chain of a Claude Code transcript as a Threadline history the API accepts, plus the
 * panel's messages. Blocks are rebuilt from the fields the API defines (so nothing Claude Code
 * adds, such as a stale `cache_control`, rides along); thinking keeps its signature; pairing is
 * repaired the way the API insists on (an unanswered call gets a "not recorded" result, an
 * orphaned result is dropped, results come first).
 */
export interface Converted {
  history: MessageParam[];
  view: ViewMessage[];
}

const NOT_RECORDED = 'Result not recorded in the Claude Code transcript.';
const IMPORT_OPENER = '(conversation imported from Claude Code)';
// Files Claude Code re-attached after compacting can be long; the rest is a Read away.
const ATTACHED_FILE_MAX_CHARS = 20_000;

type Block = ContentBlockParam;
type ResultPart = Exclude<ToolResultBlockParam['content'], string | undefined>[number];
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonBlank = (s: unknown): s is string => typeof s === 'string' && s.trim().length > 0;

/** One block of a tool result's content: only what a tool result may hold. */
function resultPart(b: unknown): ResultPart | undefined {
  if (!isObject(b)) return undefined;
  if (b.type === 'text') return nonBlank(b.text) ? { type: 'text', text: b.text } : undefined;
  if (b.type === 'image' || b.type === 'document') return withoutCacheControl(b) as ResultPart;
  return undefined;
}

/** Images and documents are passed on as written, minus any cache breakpoint. */
function withoutCacheControl(b: Json): Block {
  const { cache_control: _drop, ...rest } = b;
  return rest as unknown as Block;
}

function userBlock(b: unknown): Block | undefined {
  if (!isObject(b)) return undefined;
  switch (b.type) {
    case 'text':
      return nonBlank(b.text) ? { type: 'text', text: b.text } : undefined;
    case 'image':
    case 'document':
      return withoutCacheControl(b);
    case 'tool_result': {
      if (typeof b.tool_use_id !== 'string') return undefined;
      const parts = Array.isArray(b.content) ? b.content.map(resultPart).filter((x) => x !== undefined) : [];
      const content = typeof b.content === 'string' && b.content.length ? b.content : parts.length ? parts : '(no output)';
      return { type: 'tool_result', tool_use_id: b.tool_use_id, content, ...(b.is_error === true ? { is_error: true } : {}) };
    }
    default:
      return undefined;
  }
}

function assistantBlock(b: unknown): Block | undefined {
  if (!isObject(b)) return undefined;
  switch (b.type) {
    case 'text':
      return nonBlank(b.text) ? { type: 'text', text: b.text } : undefined;
    case 'thinking':
      return typeof b.thinking === 'string' && typeof b.signature === 'string' ? { type: 'thinking', thinking: b.thinking, signature: b.signature } : undefined;
    case 'redacted_thinking':
      return typeof b.data === 'string' ? { type: 'redacted_thinking', data: b.data } : undefined;
    case 'tool_use':
      if (typeof b.id !== 'string' || typeof b.name !== 'string') return undefined;
      return { type: 'tool_use', id: b.id, name: b.name, input: isObject(b.input) ? b.input : {} };
    default:
      // Server tools (web search) pair inside one message and have no Threadline counterpart.
      return undefined;
  }
}

function contentOf(e: ClaudeEntry): unknown[] {
  const c = e.line.message?.content;
  return typeof c === 'string' ? [{ type: 'text', text: c }] : Array.isArray(c) ? c : [];
}

/** A file Claude Code put back after compacting, as a reminder the model reads and the panel hides. */
function attachedFile(e: ClaudeEntry): Block | undefined {
  const a = e.line.attachment;
  if (!a || a.type !== 'file' || !isObject(a.content)) return undefined;
  const file = isObject(a.content.file) ? a.content.file : undefined;
  const path = typeof a.filename === 'string' ? a.filename : typeof file?.filePath === 'string' ? file.filePath : undefined;
  const text = typeof file?.content === 'string' ? file.content : undefined;
  if (!path || text === undefined) return undefined;
  const body = text.length > ATTACHED_FILE_MAX_CHARS ? `${text.slice(0, ATTACHED_FILE_MAX_CHARS)}\n… (cut; read the file again for the rest)` : text;
  return { type: 'text', text: `<system-reminder>\nThe file ${path}, as it was when the conversation was last compacted (it may have changed since):\n${body}\n</system-reminder>` };
}

interface Piece {
  role: 'user' | 'assistant';
  blocks: Block[];
  entry: ClaudeEntry;
}

function pieces(chain: ClaudeChain, skips: SkipCounts): Piece[] {
  const out: Piece[] = [];
  for (const e of chain.entries) {
    if (e.kind === 'user') {
      const blocks = contentOf(e).map(userBlock).filter((b) => b !== undefined);
      if (blocks.length) out.push({ role: 'user', blocks, entry: e });
      else skips.notCarried++;
    } else if (e.kind === 'assistant' && e.line.isApiErrorMessage !== true) {
      const blocks = contentOf(e).map(assistantBlock).filter((b) => b !== undefined);
      if (blocks.length) out.push({ role: 'assistant', blocks, entry: e });
      else skips.notCarried++;
    } else if (e.kind === 'attachment' && attachedFile(e)) {
      out.push({ role: 'user', blocks: [attachedFile(e)!], entry: e });
    } else {
      skips.notCarried++;
    }
  }
  return out;
}

export function convertChain(chain: ClaudeChain, skips: SkipCounts): Converted {
  const ps = pieces(chain, skips);
  return { history: pairUp(merge(ps)), view: viewOf(ps, chain) };
}

/** Consecutive pieces of one role are one API message (Claude Code writes a line per block). */
function merge(ps: Piece[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const p of ps) {
    const prev = out.at(-1);
    if (prev?.role === p.role) (prev.content as Block[]).push(...p.blocks);
    else out.push({ role: p.role, content: [...p.blocks] } as MessageParam);
  }
  return out;
}

const notRecorded = (id: string): Block => ({ type: 'tool_result', tool_use_id: id, content: NOT_RECORDED, is_error: true });

function pairUp(raw: MessageParam[]): MessageParam[] {
  const history: MessageParam[] = [];
  // Ids repeated anywhere in the transcript (a proxy that reuses them) are renamed, as the loop
  // does, and each result follows its call: the API refuses a request with a repeated id.
  const taken = new Set<string>();
  // The last answer's calls: the id each had in the transcript and the one it has now.
  let calls: Array<{ original: string; id: string }> = [];
  for (const m of raw) {
    let content = m.content as Block[];
    if (m.role === 'user') {
      const results = matchResults(content.filter((b) => b.type === 'tool_result'), calls);
      const answered = new Set(results.map((b) => (b as ToolResultBlockParam).tool_use_id));
      content = [...calls.filter((c) => !answered.has(c.id)).map((c) => notRecorded(c.id)), ...results, ...content.filter((b) => b.type !== 'tool_result')];
      calls = [];
      if (!content.length) continue;
    } else {
      if (history.length === 0) history.push({ role: 'user', content: [{ type: 'text', text: IMPORT_OPENER }] });
      else if (history.at(-1)!.role === 'assistant') {
        // Only after a dropped user message; the calls it answered are answered here.
        history.push({ role: 'user', content: calls.length ? calls.map((c) => notRecorded(c.id)) : [{ type: 'text', text: '(continued)' }] });
      }
      const renamed = uniqueToolUseIds(content, taken);
      calls = content.flatMap((b, i) => (b.type === 'tool_use' ? [{ original: b.id, id: (renamed[i] as ToolUseBlockParam).id }] : []));
      content = renamed;
    }
    history.push({ role: m.role, content } as MessageParam);
  }
  // A last call with no result is answered too, so the next request is valid.
  if (calls.length) history.push({ role: 'user', content: calls.map((c) => notRecorded(c.id)) });
  return history;
}

function viewOf(ps: Piece[], chain: ClaudeChain): ViewMessage[] {
  const view: ViewMessage[] = [];
  let n = 0;
  for (const p of ps) {
    const createdAt = Number.isNaN(p.entry.time) ? 0 : p.entry.time;
    if (p.role === 'user' && p.entry.line.isCompactSummary === true) {
      const meta = chain.boundary?.line.compactMetadata;
      const summary = p.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      view.push({
        kind: 'compaction',
        id: `cc${n++}`,
        tokensBefore: typeof meta?.preTokens === 'number' ? meta.preTokens : 0,
        tokensAfter: typeof meta?.postTokens === 'number' ? meta.postTokens : Math.ceil(summary.length / 4),
        summary,
        canUndo: false,
        createdAt,
      });
      continue;
    }
    // Meta lines (command wrappers, "continue" nudges) and Claude Code's own filler answers are
    // for the model, not the reader.
    if (p.role === 'user' && p.entry.line.isMeta === true) continue;
    if (p.role === 'assistant' && p.entry.line.message?.model === '<synthetic>') continue;
    for (const b of p.blocks) {
      const id = `cc${n++}`;
      if (p.role === 'user' && b.type === 'text' && !b.text.trimStart().startsWith('<')) view.push({ kind: 'user', id, text: b.text, createdAt });
      else if (p.role === 'assistant' && b.type === 'text') view.push({ kind: 'assistant', id, text: b.text, streaming: false, createdAt });
      else if (b.type === 'tool_use') view.push({ kind: 'tool', id, name: b.name, summary: summarizeInput(b.input), input: JSON.stringify(b.input, null, 2), status: 'done', createdAt });
    }
  }
  return view;
}

function summarizeInput(input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const v = i.file_path ?? i.command ?? i.pattern ?? i.path;
  return typeof v === 'string' ? v.slice(0, 120) : '';
}
