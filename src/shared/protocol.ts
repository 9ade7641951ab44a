import { z } from 'zod';
import type { ContextReport } from './contextView';
import { MAX_DRAFT_CHARS, type SessionUi } from './sessionUi';
import type { ViewPatchOp } from './viewPatch';
import type { RestoreScope, SummarizeDirection } from './undoView';
import type { ActionCommand, PermissionDecision, ViewState } from './viewState';

// One protocol for both directions. Each map goes from message type (`domain/verb`) to
// its payload; envelopes, handler tables and validators are all derived from the maps,
// so adding a message without handling it, or without validating it, does not compile.

export interface WebviewToHostMap {
  /** The webview listens now; the host answers with a full snapshot. */
  'view/ready': Record<string, never>;
  /** The webview saw a gap in patch sequence numbers and wants a snapshot. */
  'view/resync': { lastSeq: number };
  'chat/send': { text: string };
  'chat/stop': Record<string, never>;
  'chat/retry': Record<string, never>;
  'chat/continue': Record<string, never>;
  'permission/respond': { requestId: string; decision: PermissionDecision };
  'compaction/undo': { id: string };
  'compaction/openArchive': { id: string };
  'chat/rewind': { id: string };
  'history/show': Record<string, never>;
  'history/hide': Record<string, never>;
  /** The empty state shows: load the latest sessions into `recent`. */
  'history/recent': Record<string, never>;
  'history/resume': { id: string };
  'history/rename': { id: string };
  'history/delete': { id: string };
  'history/export': { id: string };
  'chat/fork': { id: string };
  'command/run': { command: ActionCommand };
  /** A notice's one-click switch to the model it names. */
  'model/switch': { model: string };
  /** Opens a file a tool card names (relative to the workspace, or absolute), at a 1-based line. */
  'editor/openFile': { path: string; line?: number };
  /** Inserts a code block's text at the cursor of the active editor. */
  'editor/insertText': { text: string };
  /** `@` in the composer: list the workspace's files for the picker. */
  'attach/pickFile': Record<string, never>;
  'attach/cancel': Record<string, never>;
  /** A file picked with `@` (a workspace-relative path from the list). */
  'attach/file': { path: string };
  'attach/remove': { id: string };
  /** Opens the pending Write/Edit of this permission request in the diff editor. */
  'edit/review': { requestId: string };
  /** The Context view is open: build a report of the next request (answered by `context/report`). */
  'context/request': Record<string, never>;
  /** The composer's unsent text for a session (debounced; at once on blur and when the panel hides). */
  'draft/save': { sessionId: string; text: string; at: number };
  /** Where the reader is in a session's list: the message at the top, or the bottom. */
  'scroll/save': { sessionId: string; topId: string; atBottom: boolean; at: number };
  /** A project's MCP server may start (remembered for its definition), or stays off; Retry starts a failed one again. */
  'mcp/approve': { name: string };
  'mcp/deny': { name: string };
  'mcp/restart': { name: string };
  /** Restore code (or code and conversation) to before a user message: preview first. */
  'restore/preview': { id: string; scope: RestoreScope };
  /** One file of the preview in the diff editor (its path as the preview named it). */
  'restore/openDiff': { path: string };
  /** Apply the previewed restore; each conflict (by path) restored or kept. */
  'restore/apply': { choices: Record<string, 'restore' | 'keep'> };
  /** Preview undoing the restore just applied. */
  'restore/redo': Record<string, never>;
  'restore/cancel': Record<string, never>;
  /** Every file this session changed, against its first snapshot, in the changes view. */
  'session/diff': Record<string, never>;
  /** "Summarize from here / up to here" chosen on a user message: ask for a focus. */
  'summarize/ask': { id: string; direction: SummarizeDirection };
  /** Write the summary and preview it (nothing applied). */
  'summarize/preview': { focus: string };
  'summarize/apply': { previewId: string };
  'summarize/cancel': Record<string, never>;
}

export interface HostToWebviewMap {
  'state/snapshot': { seq: number; state: ViewState };
  'state/patch': { seq: number; ops: ViewPatchOp[] };
  /** Brings a message into view (after a restore, or to show the card a prompt is about). */
  'view/reveal': { id: string };
  /** The answer to `context/request`. */
  'context/report': { report: ContextReport };
  /** Show Context: open the panel's Context view. */
  'context/open': Record<string, never>;
  /** A session's draft and scroll position as the host kept them (on ready and on each switch). */
  'ui/restore': { sessionId: string } & SessionUi;
  /**
   * A message handed back to the composer of this session for editing (rewound, forked from, or
   * too big to send): it goes in front of whatever is typed there.
   */
  'composer/insert': { sessionId: string; text: string };
}

export type Envelope<M> = { [K in keyof M]: { type: K; payload: M[K] } }[keyof M];
export type WebviewToHostMessage = Envelope<WebviewToHostMap>;
export type HostToWebviewMessage = Envelope<HostToWebviewMap>;

export type HandlerTable<M> = { [K in keyof M]: (payload: M[K]) => void | Promise<void> };

export const MAX_PROMPT_CHARS = 1_000_000;
export const MAX_PATH_CHARS = 4096;

// One schema per message: the webview is a browser page that renders model output and file
// names, so whatever it posts is checked here before any handler sees it.
const empty = z.strictObject({});
const id = z.string().min(1).max(199);
const oldId = z.string().max(199);
const time = z.number().finite().nonnegative();
const path = z.string().min(1).max(MAX_PATH_CHARS).refine((p) => !p.includes('\0'), 'a path has no NUL');
const ACTIONS = ['setApiKey', 'retry', 'continue', 'compact', 'newSession', 'openSettings', 'openMemory', 'selectModel', 'showContextMarkdown', 'undoRewind', 'showContext', 'resumeSession'] as const satisfies readonly ActionCommand[];
/** A model id or alias as the API spells them (`claude-opus-5-5`, `sonnet`, `claude-sonnet-4-6[1m]`). */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}(\[1m\])?$/;
const DECISIONS = ['allow-once', 'allow-session', 'allow-server', 'deny'] as const satisfies readonly PermissionDecision[];
const SCOPES = ['code', 'both'] as const satisfies readonly RestoreScope[];
const DIRECTIONS = ['from', 'upTo'] as const satisfies readonly SummarizeDirection[];
/** Conflict choices: paths (as a preview named them) to restore or keep; a few thousand at most. */
const choices = z
  .record(z.string().min(1).max(MAX_PATH_CHARS), z.enum(['restore', 'keep']))
  .refine((c) => Object.keys(c).length <= 10_000, 'at most 10,000 choices');

const schemas: { [K in keyof WebviewToHostMap]: z.ZodType<WebviewToHostMap[K]> } = {
  'restore/preview': z.object({ id, scope: z.enum(SCOPES) }),
  'restore/openDiff': z.object({ path }),
  'restore/apply': z.object({ choices }),
  'restore/redo': empty,
  'restore/cancel': empty,
  'session/diff': empty,
  'summarize/ask': z.object({ id, direction: z.enum(DIRECTIONS) }),
  'summarize/preview': z.object({ focus: z.string().max(10_000) }),
  'summarize/apply': z.object({ previewId: id }),
  'summarize/cancel': empty,
  'view/ready': empty,
  'view/resync': z.object({ lastSeq: z.number().int() }),
  'chat/send': z.object({ text: z.string().max(MAX_PROMPT_CHARS).refine((t) => t.trim().length > 0, 'an empty prompt') }),
  'chat/stop': empty,
  'chat/retry': empty,
  'chat/continue': empty,
  'permission/respond': z.object({ requestId: z.string(), decision: z.enum(DECISIONS) }),
  'compaction/undo': z.object({ id: oldId }),
  'compaction/openArchive': z.object({ id: oldId }),
  'history/show': empty,
  'history/hide': empty,
  'history/recent': empty,
  'history/resume': z.object({ id: oldId }),
  'history/rename': z.object({ id: oldId }),
  'history/delete': z.object({ id: oldId }),
  'history/export': z.object({ id: oldId }),
  'chat/rewind': z.object({ id: oldId }),
  'chat/fork': z.object({ id: oldId }),
  'command/run': z.object({ command: z.enum(ACTIONS) }),
  'model/switch': z.object({ model: z.string().regex(MODEL_NAME) }),
  'editor/openFile': z.object({ path, line: z.number().int().min(1).optional() }),
  'attach/pickFile': empty,
  'attach/cancel': empty,
  'attach/file': z.object({ path }),
  'attach/remove': z.object({ id: oldId }),
  'edit/review': z.object({ requestId: id }),
  'context/request': empty,
  'editor/insertText': z.object({ text: z.string().min(1).max(MAX_PROMPT_CHARS) }),
  'draft/save': z.object({ sessionId: id, text: z.string().max(MAX_DRAFT_CHARS), at: time }),
  'scroll/save': z.object({ sessionId: id, topId: id, atBottom: z.boolean(), at: time }),
  'mcp/approve': z.object({ name: id }),
  'mcp/deny': z.object({ name: id }),
  'mcp/restart': z.object({ name: id }),
};

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

/** Everything that arrives from the webview is untrusted until it passes here. */
export function parseWebviewMessage(raw: unknown): ParseResult<WebviewToHostMessage> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: 'message is not an object' };
  const { type, payload } = raw as Record<string, unknown>;
  if (typeof type !== 'string' || !Object.hasOwn(schemas, type)) {
    return { ok: false, error: `unknown message type: ${JSON.stringify(type)?.slice(0, 80)}` };
  }
  const parsed = (schemas[type as keyof WebviewToHostMap] as z.ZodType).safeParse(payload);
  if (!parsed.success) return { ok: false, error: `malformed payload for ${type}` };
  // The parsed payload, not the raw one: keys no schema names do not reach a handler.
  return { ok: true, message: { type, payload: parsed.data } as WebviewToHostMessage };
}

export async function dispatch<M>(table: HandlerTable<M>, message: Envelope<M>): Promise<void> {
  const { type, payload } = message as { type: keyof M; payload: M[keyof M] };
  await table[type](payload);
}
