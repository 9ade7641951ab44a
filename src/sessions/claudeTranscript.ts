import { lineRecords } from '../fs/lines';
import { parseJson } from '../fs/jsonText';

/**
 * Reading a Claude Code transcript (`~/.claude/projects/<folder>/<session>.jsonl`) into the graph
 * its lines form: every message line names its parent by `parentUuid`, so a rewind leaves a
 * branch in the file and a compaction starts a new root. Which branch counts is claudeChain's job.
 */

/** The fields of a line this importer reads; everything else Claude Code writes is ignored. */
export interface ClaudeLine {
  type?: unknown;
  subtype?: unknown;
  uuid?: unknown;
  parentUuid?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  isApiErrorMessage?: unknown;
  timestamp?: unknown;
  cwd?: unknown;
  message?: { id?: unknown; model?: unknown; content?: unknown };
  attachment?: { type?: unknown; filename?: unknown; content?: unknown };
  compactMetadata?: {
    preTokens?: unknown;
    postTokens?: unknown;
    preservedMessages?: { anchorUuid?: unknown; uuids?: unknown };
    preservedSegment?: { headUuid?: unknown; anchorUuid?: unknown; tailUuid?: unknown };
  };
  leafUuid?: unknown;
  explicit?: unknown;
  summary?: unknown;
  customTitle?: unknown;
  aiTitle?: unknown;
}

export type EntryKind = 'user' | 'assistant' | 'system' | 'attachment';

/** A line that is a node of the conversation graph. */
export interface ClaudeEntry {
  kind: EntryKind;
  uuid: string;
  /** Rewritten by the chain builder when a compaction kept messages after its summary. */
  parentUuid: string | null;
  /** Position of the first line with this uuid (Claude Code sometimes writes a line twice). */
  order: number;
  isSidechain: boolean;
  /** Milliseconds; NaN when the line has none. */
  time: number;
  line: ClaudeLine;
}

/** Why a line of the file did not become part of the imported conversation. */
export type SkipReason =
  /** Not JSON, or JSON without the fields its type needs (a torn line from a crash, say). */
  | 'malformed'
  /** A line type this importer does not know (a newer Claude Code). */
  | 'unknownType'
  /** Sub-agent work, which Claude Code keeps out of the main conversation too. */
  | 'sidechain'
  /** A branch left behind by a rewind, or a line nothing on the chain leads to. */
  | 'offChain'
  /** Replaced by the summary of the last compaction. */
  | 'beforeCompaction'
  /** On the chain but with no Threadline equivalent: progress, tool listings, API error notes. */
  | 'notCarried'
  /** The same line written twice. */
  | 'duplicate';

export type SkipCounts = Record<SkipReason, number>;

function emptySkips(): SkipCounts {
  return { malformed: 0, unknownType: 0, sidechain: 0, offChain: 0, beforeCompaction: 0, notCarried: 0, duplicate: 0 };
}

export interface ClaudeTranscript {
  /** Graph nodes by uuid, in the order they first appear. */
  entries: Map<string, ClaudeEntry>;
  /** The last non-sidechain node line of the file. */
  lastUuid: string | undefined;
  /** The same, while reading: the parent of a line that names none. */
  lastNode?: string;
  /** The leaf the last `last-prompt` line names; `explicit` when a rewind set it and nothing followed. */
  leafHint: { uuid: string; explicit: boolean } | undefined;
  /** A rewind to before the first message, with nothing after it. */
  cleared: boolean;
  /** `summary` lines by the leaf they describe. */
  summaries: Map<string, string>;
  customTitle: string | undefined;
  aiTitle: string | undefined;
  /** Progress lines: their uuid and parent, so a child of one hangs off the progress line's parent. */
  collapsed: Map<string, string | null>;
  skips: SkipCounts;
  lines: number;
}

const NODE_TYPES = new Set<unknown>(['user', 'assistant', 'system', 'attachment']);
// Lines that carry state of the session (titles, modes, snapshots, queue) rather than messages.
const META_TYPES = new Set<unknown>([
  'summary',
  'last-prompt',
  'custom-title',
  'ai-title',
  'tag',
  'relocated',
  'agent-name',
  'agent-color',
  'agent-setting',
  'mode',
  'permission-mode',
  'isolation-latch',
  'worktree-state',
  'pr-link',
  'bridge-session',
  'file-history-snapshot',
  'attribution-snapshot',
  'content-replacement',
  'fork-context-ref',
  'marble-origami-commit',
  'marble-origami-snapshot',
  'marble-origami-reset',
  'queue-operation',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A line that names a message must carry one the API could take. */
function wellShaped(l: ClaudeLine): boolean {
  if (l.type !== 'user' && l.type !== 'assistant') return true;
  if (!isObject(l.message)) return false;
  const c = l.message.content;
  return typeof c === 'string' || Array.isArray(c);
}

/** Reads one transcript as a stream, line by line; never changes the file. */
export async function readClaudeTranscript(file: string): Promise<ClaudeTranscript> {
  const t: ClaudeTranscript = {
    entries: new Map(),
    lastUuid: undefined,
    leafHint: undefined,
    cleared: false,
    summaries: new Map(),
    customTitle: undefined,
    aiTitle: undefined,
    collapsed: new Map(),
    skips: emptySkips(),
    lines: 0,
  };
  for await (const raw of lineStream(file)) {
    t.lines++;
    let l: unknown;
    try {
      l = parseJson(raw);
    } catch {
      t.skips.malformed++;
      continue;
    }
    if (!isObject(l)) {
      t.skips.malformed++;
      continue;
    }
    take(t, l as ClaudeLine);
  }
  return t;
}

function take(t: ClaudeTranscript, l: ClaudeLine): void {
  if (l.type === 'progress' && str(l.uuid)) {
    t.collapsed.set(l.uuid as string, str(l.parentUuid) ?? null);
    t.skips.notCarried++;
    return;
  }
  if (NODE_TYPES.has(l.type)) {
    const uuid = str(l.uuid);
    if (!uuid || !wellShaped(l)) {
      t.skips.malformed++;
      return;
    }
    const prev = t.entries.get(uuid);
    if (prev) t.skips.duplicate++;
    // Claude Code always writes the key (null for a root); a line without it (written by hand or
    // by another tool) follows the line before it.
    const parentUuid = 'parentUuid' in l ? (str(l.parentUuid) ?? null) : (t.lastNode ?? null);
    const entry: ClaudeEntry = {
      kind: l.type as EntryKind,
      uuid,
      parentUuid,
      order: prev?.order ?? t.entries.size,
      isSidechain: l.isSidechain === true,
      time: typeof l.timestamp === 'string' ? Date.parse(l.timestamp) : NaN,
      line: l,
    };
    t.entries.set(uuid, entry);
    if (!entry.isSidechain) {
      t.lastNode = uuid;
      t.lastUuid = uuid;
      // A message after a rewind's marker makes the marker history.
      if (t.leafHint) t.leafHint.explicit = false;
      t.cleared = false;
    }
    return;
  }
  if (!META_TYPES.has(l.type)) {
    t.skips.unknownType++;
    return;
  }
  switch (l.type) {
    case 'last-prompt': {
      const leaf = str(l.leafUuid);
      if (leaf) {
        // An explicit marker stays explicit while later markers repeat the same leaf.
        const explicit = l.explicit === true || (t.leafHint?.explicit === true && t.leafHint.uuid === leaf);
        t.leafHint = { uuid: leaf, explicit };
        t.cleared = false;
      } else if (l.leafUuid === null && l.explicit === true) {
        t.leafHint = undefined;
        t.cleared = true;
      }
      break;
    }
    case 'summary':
      if (str(l.leafUuid) && str(l.summary)) t.summaries.set(l.leafUuid as string, l.summary as string);
      break;
    case 'custom-title':
      t.customTitle = str(l.customTitle) ?? t.customTitle;
      break;
    case 'ai-title':
      t.aiTitle = str(l.aiTitle) ?? t.aiTitle;
      break;
  }
}

/** Claude Code writes one event a line; a line past this is not one it wrote, and is skipped unbuilt. */
const CLAUDE_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Non-empty lines of a file (regular files only); a caller that stops early closes it. */
export async function* lineStream(file: string): AsyncGenerator<string> {
  for await (const rec of lineRecords(file, CLAUDE_MAX_LINE_BYTES)) if ('text' in rec) yield rec.text;
}
