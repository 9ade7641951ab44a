import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MessageParam } from '../api/types';
import { folderNames } from '../fs/list';
import { realPathOf, within } from '../fs/paths';
import { inspect } from '../fs/stat';
import { DEFAULT_MODEL, resolveModel } from '../api/models';
import { estimateTokens } from '../conversation/tokens';
import { computeThresholds } from '../conversation/thresholds';
import type { ViewMessage } from '../shared/viewState';
import { buildChain } from './claudeChain';
import { convertChain } from './claudeConvert';
import { lineStream, readClaudeTranscript, type ClaudeEntry, type ClaudeLine, type SkipCounts, type SkipReason } from './claudeTranscript';
import { formatTokens } from '../shared/format';
import { parseJson } from '../fs/jsonText';

/** The variables Claude Code reads to find its folder. */
export interface ClaudeEnv {
  HOME?: string | undefined;
  CLAUDE_CONFIG_DIR?: string | undefined;
}

function claudeProjectsRoot(env: ClaudeEnv = process.env): string {
  return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'), 'projects');
}

// Claude Code caps folder names at this many characters and adds a hash of the full path.
const KEY_MAX = 200;

/** The folder name Claude Code keeps a workspace's transcripts under: every non-alphanumeric becomes '-'. */
export function projectKey(path: string): string {
  const key = path.replace(/[^A-Za-z0-9]/g, '-');
  if (key.length <= KEY_MAX) return key;
  let h = 0;
  for (let i = 0; i < path.length; i++) h = (h * 31 + path.charCodeAt(i)) | 0;
  return `${key.slice(0, KEY_MAX)}-${Math.abs(h).toString(36)}`;
}

export function claudeProjectDir(cwd: string, env: ClaudeEnv = process.env): string {
  return join(claudeProjectsRoot(env), projectKey(resolve(cwd)));
}

/**
 * Every folder that may hold this workspace's transcripts: keyed on the real path (as Claude
 * Code keys it) and on the path as given; for long paths, any folder with the same capped
 * prefix, since builds of Claude Code hash the rest differently.
 */
async function folderPaths(cwd: string): Promise<Set<string>> {
  return new Set([resolve(cwd), (await realPathOf(cwd)) ?? resolve(cwd)]);
}

/**
 * Whether a transcript whose first prompt was typed in `sessionCwd` belongs to this folder: the
 * folder key maps every punctuation mark to '-', so `~/a/b-c` and `~/a/b/c` share one.
 */
function ofThisFolder(s: ClaudeSessionSummary, paths: ReadonlySet<string>): boolean {
  return s.cwd === undefined || [...paths].some((p) => within(p, s.cwd!));
}

async function projectDirs(cwd: string, env: ClaudeEnv): Promise<string[]> {
  const root = claudeProjectsRoot(env);
  const paths = await folderPaths(cwd);
  const out = new Set([...paths].map((p) => join(root, projectKey(p))));
  const prefixes = [...paths].map((p) => projectKey(p)).filter((k) => k.length > KEY_MAX).map((k) => k.slice(0, KEY_MAX + 1));
  if (prefixes.length) {
    for (const name of await folderNames(root)) if (prefixes.some((p) => name.startsWith(p))) out.add(join(root, name));
  }
  return [...out];
}

export interface ClaudeSessionSummary {
  id: string;
  file: string;
  title: string;
  updatedAt: number;
  /** The working folder of the first prompt. */
  cwd?: string;
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,80}$/;

/** The text of a prompt the user typed, or undefined for tool results, meta lines and command wrappers. */
function promptText(l: ClaudeLine): string | undefined {
  if (l.type !== 'user' || l.isSidechain === true || l.isMeta === true || l.isCompactSummary === true) return undefined;
  const c = l.message?.content;
  const first = typeof c === 'string' ? c : Array.isArray(c) ? (c.find((b) => (b as { type?: unknown }).type === 'text') as { text?: unknown } | undefined)?.text : undefined;
  if (typeof first !== 'string') return undefined;
  const t = first.replace(/\s+/g, ' ').trim();
  return t && !t.startsWith('<') ? t : undefined;
}

function shortTitle(t: string): string {
  const s = t.replace(/\s+/g, ' ').trim();
  return s.length > 60 ? `${s.slice(0, 57).trimEnd()}…` : s;
}

async function summaryOf(file: string, id: string): Promise<ClaudeSessionSummary | undefined> {
  // The title is the first prompt: read only as far as it, not the whole transcript.
  for await (const raw of lineStream(file)) {
    let l: ClaudeLine;
    try {
      l = parseJson(raw) as ClaudeLine;
    } catch {
      continue;
    }
    const t = l && typeof l === 'object' ? promptText(l) : undefined;
    if (!t) continue;
    const st = await inspect(file);
    return { id, file, title: shortTitle(t), updatedAt: st.mtimeMs, ...(typeof l.cwd === 'string' ? { cwd: l.cwd } : {}) };
  }
  return undefined;
}

/** This folder's Claude Code sessions that hold at least one prompt, newest first. */
export async function listClaudeSessions(cwd: string, env: ClaudeEnv = process.env): Promise<ClaudeSessionSummary[]> {
  const out = new Map<string, ClaudeSessionSummary>();
  const paths = await folderPaths(cwd);
  for (const dir of await projectDirs(cwd, env)) {
    const names = await folderNames(dir);
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!name.endsWith('.jsonl') || !SESSION_ID.test(id) || out.has(id)) continue;
      // Only regular files: opening a FIFO would wait for a writer forever.
      if ((await inspect(join(dir, name))).kind !== 'file') continue;
      const s = await summaryOf(join(dir, name), id).catch(() => undefined);
      if (s && ofThisFolder(s, paths)) out.set(id, s);
    }
  }
  return [...out.values()].sort((a, b) => b.updatedAt - a.updatedAt);
}

/** The Claude Code session of this folder with that id, if there is one. */
export async function findClaudeSession(cwd: string, id: string, env: ClaudeEnv = process.env): Promise<ClaudeSessionSummary | undefined> {
  if (!SESSION_ID.test(id)) return undefined;
  for (const dir of await projectDirs(cwd, env)) {
    const file = join(dir, `${id}.jsonl`);
    const st = await inspect(file);
    if (st.kind !== 'file') continue;
    const s = await summaryOf(file, id);
    if (s && !ofThisFolder(s, await folderPaths(cwd))) continue;
    return s ?? { id, file, title: 'Claude Code session', updatedAt: st.mtimeMs };
  }
  return undefined;
}

export interface ImportOptions {
  /** The model the session continues with: its window decides whether the import fits. */
  model?: string;
  contextWindow?: number;
  /** Room kept for the system prompt, tools and instruction files (default 10k tokens). */
  reserveTokens?: number;
}

export interface ConvertedSession {
  title: string;
  /** The working folder Claude Code recorded, if any. */
  cwd: string | undefined;
  history: MessageParam[];
  view: ViewMessage[];
  /** Unreadable lines (not JSON, or not shaped like their type). */
  skipped: number;
  /** Every line that did not become part of the conversation, by reason. */
  skips: SkipCounts;
  /** Compact boundaries in the file; the import starts at the last one's summary. */
  compactions: number;
  fromSummary: boolean;
  /** A rough count of the history (the API's usage is the truth). */
  estimatedTokens: number;
  /**
   * Too big for the window even after the last summary: the caller must compact before the
   * first request (and tell the user so).
   */
  mustCompact: boolean;
  /** One sentence for the user: what was imported and what was left out. */
  notice: string;
}

const DEFAULT_RESERVE = 10_000;

const REASONS: Array<[SkipReason, string]> = [
  ['beforeCompaction', 'before the last compaction (its summary stands for them)'],
  ['offChain', 'on a branch left by a rewind'],
  ['sidechain', 'from sub-agents'],
  ['malformed', 'unreadable'],
  ['unknownType', 'of a kind this version does not know'],
];

function noticeFor(c: Omit<ConvertedSession, 'notice'>): string {
  const parts = [`Imported the Claude Code session "${c.title}" as a new Threadline session; its transcript is unchanged.`];
  if (c.fromSummary) parts.push(`It starts from the summary of its last compaction (${c.compactions} in the file).`);
  const left = REASONS.filter(([r]) => c.skips[r] > 0).map(([r, why]) => `${c.skips[r]} ${why}`);
  if (left.length) parts.push(`Lines left out: ${left.join(', ')}.`);
  if (c.mustCompact) parts.push(`At about ${formatTokens(c.estimatedTokens)} tokens it does not fit the context window and needs compacting before the next request.`);
  return parts.join(' ');
}

function firstPrompt(entries: Iterable<ClaudeEntry>): string | undefined {
  for (const e of entries) {
    const t = promptText(e.line);
    if (t) return t;
  }
  return undefined;
}

/**
 * Converts a Claude Code transcript on read (the file is never changed) into the conversation
 * Claude Code itself would resume: the leaf's branch, from the last compaction summary on.
 */
export async function loadClaudeSession(file: string, opts: ImportOptions = {}): Promise<ConvertedSession> {
  const t = await readClaudeTranscript(file);
  const skips = { ...t.skips };
  // The first prompt is taken before the chain is cut at the last summary.
  const first = firstPrompt(t.entries.values());
  const chain = buildChain(t, skips);
  const { history, view } = convertChain(chain, skips);
  const leaf = chain.leaf;
  const title = t.customTitle ?? (leaf ? t.summaries.get(leaf.uuid) : undefined) ?? [...t.summaries.values()].at(-1) ?? t.aiTitle ?? first ?? 'Claude Code session';
  const cwd = [leaf, ...[...t.entries.values()].reverse()].map((e) => e?.line.cwd).find((c): c is string => typeof c === 'string' && c.length > 0);
  const model = resolveModel(opts.model ?? DEFAULT_MODEL, opts.contextWindow ? { contextWindow: opts.contextWindow } : {});
  const budget = computeThresholds(model.contextWindow, model.maxOutputTokens).autoCompactAt - (opts.reserveTokens ?? DEFAULT_RESERVE);
  const estimatedTokens = estimateTokens(history);
  const fromSummary = chain.entries.some((e) => e.line.isCompactSummary === true);
  const out = { title: shortTitle(title), cwd, history, view, skipped: skips.malformed, skips, compactions: chain.compactions, fromSummary, estimatedTokens, mustCompact: estimatedTokens > budget };
  return { ...out, notice: noticeFor(out) };
}
