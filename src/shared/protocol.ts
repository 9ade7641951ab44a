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
}

export type Envelope<M> = { [K in keyof M]: { type: K; payload: M[K] } }[keyof M];
export type WebviewToHostMessage = Envelope<WebviewToHostMap>;
export type HostToWebviewMessage = Envelope<HostToWebviewMap>;

export type HandlerTable<M> = { [K in keyof M]: (payload: M[K]) => void | Promise<void> };

export const MAX_PROMPT_CHARS = 1_000_000;
export const MAX_PATH_CHARS = 4096;

type Validator<T> = (payload: unknown) => payload is T;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown): v is Record<string, never> => isRecord(v) && Object.keys(v).length === 0;
const ACTIONS: readonly ActionCommand[] = ['setApiKey', 'retry', 'continue', 'compact', 'newSession', 'openSettings', 'openMemory', 'selectModel', 'showContextMarkdown'];
/** A model id or alias as the API spells them (`claude-opus-5-5`, `sonnet`, `claude-sonnet-4-6[1m]`). */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}(\[1m\])?$/;
const DECISIONS: readonly PermissionDecision[] = ['allow-once', 'allow-session', 'allow-server', 'deny'];
const isShortId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length < 200;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

const SCOPES: readonly RestoreScope[] = ['code', 'both'];
const DIRECTIONS: readonly SummarizeDirection[] = ['from', 'upTo'];
/** Conflict choices: paths (as a preview named them) to restore or keep; a few thousand at most. */
const isChoices = (v: unknown): v is Record<string, 'restore' | 'keep'> =>
  isRecord(v) && Object.keys(v).length <= 10_000 && Object.entries(v).every(([k, c]) => k.length > 0 && k.length <= MAX_PATH_CHARS && (c === 'restore' || c === 'keep'));

type UndoMessage = 'restore/preview' | 'restore/openDiff' | 'restore/apply' | 'restore/redo' | 'restore/cancel' | 'session/diff' | 'summarize/ask' | 'summarize/preview' | 'summarize/apply' | 'summarize/cancel';

const undoValidators: { [K in UndoMessage]: Validator<WebviewToHostMap[K]> } = {
  'restore/preview': (p): p is WebviewToHostMap['restore/preview'] => isRecord(p) && isShortId(p.id) && SCOPES.includes(p.scope as RestoreScope),
  'restore/openDiff': (p): p is { path: string } => isRecord(p) && typeof p.path === 'string' && p.path.length > 0 && p.path.length <= MAX_PATH_CHARS && !p.path.includes('\0'),
  'restore/apply': (p): p is WebviewToHostMap['restore/apply'] => isRecord(p) && isChoices(p.choices),
  'restore/redo': isEmpty,
  'restore/cancel': isEmpty,
  'session/diff': isEmpty,
  'summarize/ask': (p): p is WebviewToHostMap['summarize/ask'] => isRecord(p) && isShortId(p.id) && DIRECTIONS.includes(p.direction as SummarizeDirection),
  'summarize/preview': (p): p is { focus: string } => isRecord(p) && typeof p.focus === 'string' && p.focus.length <= 10_000,
  'summarize/apply': (p): p is { previewId: string } => isRecord(p) && isShortId(p.previewId),
  'summarize/cancel': isEmpty,
};

const validators: { [K in keyof WebviewToHostMap]: Validator<WebviewToHostMap[K]> } = {
  ...undoValidators,
  'view/ready': isEmpty,
  'view/resync': (p): p is { lastSeq: number } => isRecord(p) && Number.isInteger(p.lastSeq),
  'chat/send': (p): p is { text: string } =>
    isRecord(p) && typeof p.text === 'string' && p.text.trim().length > 0 && p.text.length <= MAX_PROMPT_CHARS,
  'chat/stop': isEmpty,
  'chat/retry': isEmpty,
  'chat/continue': isEmpty,
  'permission/respond': (p): p is WebviewToHostMap['permission/respond'] =>
    isRecord(p) && typeof p.requestId === 'string' && DECISIONS.includes(p.decision as PermissionDecision),
  'compaction/undo': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'compaction/openArchive': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'history/show': isEmpty,
  'history/hide': isEmpty,
  'history/recent': isEmpty,
  'history/resume': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'history/rename': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'history/delete': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'history/export': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'chat/rewind': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'chat/fork': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'command/run': (p): p is { command: ActionCommand } => isRecord(p) && ACTIONS.includes(p.command as ActionCommand),
  'model/switch': (p): p is { model: string } => isRecord(p) && typeof p.model === 'string' && MODEL_NAME.test(p.model),
  'editor/openFile': (p): p is { path: string; line?: number } =>
    isRecord(p) &&
    typeof p.path === 'string' &&
    p.path.length > 0 &&
    p.path.length <= MAX_PATH_CHARS &&
    !p.path.includes('\0') &&
    (p.line === undefined || (Number.isInteger(p.line) && (p.line as number) >= 1)),
  'attach/pickFile': isEmpty,
  'attach/cancel': isEmpty,
  'attach/file': (p): p is { path: string } => isRecord(p) && typeof p.path === 'string' && p.path.length > 0 && p.path.length <= MAX_PATH_CHARS && !p.path.includes('\0'),
  'attach/remove': (p): p is { id: string } => isRecord(p) && typeof p.id === 'string' && p.id.length < 200,
  'edit/review': (p): p is { requestId: string } => isRecord(p) && isShortId(p.requestId),
  'context/request': isEmpty,
  'editor/insertText': (p): p is { text: string } => isRecord(p) && typeof p.text === 'string' && p.text.length > 0 && p.text.length <= MAX_PROMPT_CHARS,
  'draft/save': (p): p is WebviewToHostMap['draft/save'] =>
    isRecord(p) && isShortId(p.sessionId) && typeof p.text === 'string' && p.text.length <= MAX_DRAFT_CHARS && isTime(p.at),
  'scroll/save': (p): p is WebviewToHostMap['scroll/save'] =>
    isRecord(p) && isShortId(p.sessionId) && isShortId(p.topId) && typeof p.atBottom === 'boolean' && isTime(p.at),
  'mcp/approve': (p): p is { name: string } => isRecord(p) && isShortId(p.name),
  'mcp/deny': (p): p is { name: string } => isRecord(p) && isShortId(p.name),
  'mcp/restart': (p): p is { name: string } => isRecord(p) && isShortId(p.name),
};


export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

/** Everything that arrives from the webview is untrusted until it passes here. */
export function parseWebviewMessage(raw: unknown): ParseResult<WebviewToHostMessage> {
  if (!isRecord(raw)) return { ok: false, error: 'message is not an object' };
  const { type, payload } = raw;
  if (typeof type !== 'string' || !Object.hasOwn(validators, type)) {
    return { ok: false, error: `unknown message type: ${JSON.stringify(type)?.slice(0, 80)}` };
  }
  const validate = validators[type as keyof WebviewToHostMap] as Validator<unknown>;
  if (!validate(payload)) return { ok: false, error: `malformed payload for ${type}` };
  return { ok: true, message: { type, payload } as WebviewToHostMessage };
}

export async function dispatch<M>(table: HandlerTable<M>, message: Envelope<M>): Promise<void> {
  const { type, payload } = message as { type: keyof M; payload: M[keyof M] };
  await table[type](payload);
}
