import { prependUserContent } from '../conversation/history';
import { restoreDanglingPointers } from '../conversation/readPointers';
import { ApiError } from '../api/errors';
import type { AssistantTurn, ContentBlockParam, MessageParam, MessagesRequest, StreamObserver, SystemBlock, TextBlockParam } from '../api/types';
import { estimateTokens } from '../conversation/tokens';
import type { CompactionCoverage } from './coverage';
import { carryBlock, userTexts, type CarriedText } from './verbatim';
import { DEFAULT_COMPACT_LIMITS, type CompactLimits } from './limits';
import { fitSummaryRounds } from './summaryFit';
import { requestSummary, type SharedRequestBuilder } from './summaryRequest';

export const COMPACT_BOUNDARY = '[Conversation compacted]';
const MAX_PTL_RETRIES = 3;
const POST_COMPACT_MAX_FILES = 5;
/** For a 200k window; `compactLimits` scales both to the window. */
const POST_COMPACT_FILE_BUDGET = DEFAULT_COMPACT_LIMITS.fileBudgetTokens;
const POST_COMPACT_FILE_MAX = DEFAULT_COMPACT_LIMITS.fileMaxTokens;

const SUMMARY_SYSTEM = 'You write faithful, structured summaries of coding sessions so that the work can continue from the summary alone.';

/** The nine sections the seeds list; the wording is ours. `scope` says what is summarised, when not all of it. */
export function compactPrompt(focus?: string, scope?: string): string {
  return [
    scope ?? 'The conversation above is about to be replaced by a summary, because the context window is filling up. Write that summary now. Do not call any tools.',
    '',
    'First think in an <analysis> block: go through the conversation in order and note what the user asked, what was done, which files and code mattered, which errors came up and how they were fixed, and what is still open. This block is thrown away.',
    '',
    'Then write the summary in a <summary> block with exactly these sections:',
    '1. Primary request and intent: everything the user asked for, in detail.',
    '2. Key technical concepts: technologies, frameworks and conventions that matter.',
    '3. Files and code: each file read, changed or created, why it matters, with the important snippets in full.',
    '4. Errors and fixes: each error, how it was fixed, and any feedback the user gave about it.',
    '5. Problem solving: what was solved and what is still being worked out.',
    '6. All user messages: every message the user wrote that was not a tool result, verbatim.',
    '7. Pending tasks: what the user asked for that is not done yet.',
    '8. Current work: precisely what was being done just before this summary, with file names and snippets.',
    '9. Next step: the next step, only if it follows directly from the latest request; quote the conversation to show where it comes from.',
    ...(focus ? ['', `The user asked the summary to focus on: ${focus}`] : []),
  ].join('\n');
}

/**
 * Keeps only the <summary>; the <analysis> scratchpad never enters the context. Empty when
 * there is no usable summary (none at all, or an unclosed analysis eating the rest).
 */
export function formatSummary(raw: string): string {
  const m = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(raw);
  if (!m) return '';
  return m[1]!.replace(/<analysis>[\s\S]*?(?:<\/analysis>|$)/gi, '').trim();
}

/** The heading of the block that carries uncovered messages word for word. */
const CARRIED_HEADING = 'Your messages (and fixes reported after errors) from the part no summary covers, word for word:';

/**
 * The fallback when the summary is unusable: keep the most recent rounds that fit the budget,
 * whole (a round never splits a tool_use from its result), after the boundary note, which
 * carries every earlier user message and error fix word for word.
 */
export function truncateWithCoverage(history: readonly MessageParam[], budgetTokens: number, carryTokens = DEFAULT_COMPACT_LIMITS.carryTokens): { history: MessageParam[]; coverage: CompactionCoverage } {
  const rounds = splitRounds(history);
  const kept: MessageParam[][] = [];
  let used = 0;
  for (let i = rounds.length - 1; i >= 0; i--) {
    const cost = estimateTokens(rounds[i]);
    if (kept.length && used + cost > budgetTokens) break;
    kept.unshift(rounds[i]!);
    used += cost;
  }
  // A kept re-read whose earlier result was dropped gets that result's text back.
  const tail = restoreDanglingPointers(history, kept.flat());
  const keptFrom = history.length - tail.length;
  const note = `${COMPACT_BOUNDARY} The earlier part of this conversation was dropped to free context (a summary could not be made); the most recent exchanges follow.`;
  const carried = carryBlock(uncoveredTexts(history, 0, keptFrom), CARRIED_HEADING, carryTokens);
  const head: ContentBlockParam[] = [{ type: 'text', text: carried ? `${note}\n\n${carried}` : note }];
  return { history: prependUserContent(tail, head), coverage: { summaryCovers: null, keptFrom } };
}

export function truncateToRecent(history: readonly MessageParam[], budgetTokens: number): MessageParam[] {
  return truncateWithCoverage(history, budgetTokens).history;
}

/** User texts and error fixes in [from, to): what must be carried when no summary covers them. */
function uncoveredTexts(history: readonly MessageParam[], from: number, to: number): CarriedText[] {
  const fixes = new Map(anchorsWithIndex(history).filter((a) => a.kind === 'resolution').map((a) => [a.index, a.text]));
  const out: CarriedText[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, history.length); i++) {
    for (const text of userTexts(history[i]!)) out.push({ index: i, who: 'User', text });
    const fix = fixes.get(i);
    if (fix) out.push({ index: i, who: 'Assistant', text: fix });
  }
  return out;
}

/** Rounds: a user message and everything up to the next user text message. */
export function splitRounds(history: readonly MessageParam[]): MessageParam[][] {
  const rounds: MessageParam[][] = [];
  for (const m of history) {
    const isUserText = m.role === 'user' && (typeof m.content === 'string' || !m.content.some((b) => b.type === 'tool_result'));
    if (isUserText || rounds.length === 0) rounds.push([m]);
    else rounds[rounds.length - 1]!.push(m);
  }
  return rounds;
}

const CORRECTION = /^(no\b|nope|don'?t\b|do not\b|stop\b|actually\b|instead\b|that'?s (wrong|not)|wrong\b|not what|never\b|please don'?t|undo\b|revert\b)/i;
const RESOLUTION = /\b(fixed|resolved|now passes|all tests pass|tests pass|done|completed|works now)\b/i;

export interface Anchor {
  kind: 'correction' | 'completion' | 'resolution';
  role: 'user' | 'assistant';
  text: string;
}

function textOf(m: MessageParam): string {
  return typeof m.content === 'string'
    ? m.content
    : (m.content as ContentBlockParam[])
        .filter((b): b is TextBlockParam => b.type === 'text')
        .map((b) => b.text)
        .filter((t) => !t.startsWith('<system-reminder'))
        .join('\n');
}

export interface IndexedAnchor extends Anchor {
  /** The message it comes from. */
  index: number;
}

/**
 * The moments kept verbatim through a compaction: the user correcting course, a task
 * reported done, an error reported fixed after a failing tool call. A summary paraphrases; these
 * must survive word for word.
 */
export function anchorsWithIndex(history: readonly MessageParam[]): IndexedAnchor[] {
  const out: IndexedAnchor[] = [];
  let sawError = false;
  history.forEach((m, index) => {
    if (m.role === 'user' && typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result' && b.is_error)) sawError = true;
    const text = textOf(m).trim();
    if (!text || text.length > 2000) return;
    if (m.role === 'user' && CORRECTION.test(text)) out.push({ kind: 'correction', role: 'user', text, index });
    else if (m.role === 'assistant' && RESOLUTION.test(text)) {
      out.push({ kind: sawError ? 'resolution' : 'completion', role: 'assistant', text, index });
      sawError = false;
    }
  });
  return out;
}

export function findAnchors(history: readonly MessageParam[], max = 12): Anchor[] {
  return anchorsWithIndex(history)
    .slice(-max)
    .map(({ kind, role, text }) => ({ kind, role, text }));
}

export interface RecentFile {
  path: string;
  content: string;
}

export interface CompactionResult {
  history: MessageParam[];
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  anchors: Anchor[];
  /** Rounds dropped from the summary request because it was itself too long. */
  droppedRounds: number;
  source: 'llm' | 'session-memory' | 'truncation';
  /** What the summary or notes cover and what is kept word for word (see CompactionCoverage). */
  coverage: CompactionCoverage;
  /** Where the transcript from before this compaction was archived. */
  archive?: string;
  /** The history without the files put back after the summary (when there were any). */
  withoutFiles?: MessageParam[];
}

export interface SummaryClient {
  stream(request: MessagesRequest, signal: AbortSignal, observer: StreamObserver): Promise<AssistantTurn>;
}

export interface CompactOptions {
  history: readonly MessageParam[];
  client: SummaryClient;
  model: string;
  system?: SystemBlock[];
  focus?: string;
  signal: AbortSignal;
  /** Files the agent read recently, newest first; some are put back after the summary. */
  recentFiles?: readonly RecentFile[];
  /** Called with the full transcript before anything is replaced. */
  /** Keeps the full transcript; returns where, so it can be opened later. */
  /** Sized to the window (see compactLimits); the 200k figures when not given. */
  limits?: CompactLimits;
  archive?(history: readonly MessageParam[]): Promise<string | void>;
  /** The main loop's request builder: the summary request then extends the cached conversation. */
  shared?: SharedRequestBuilder;
  /** The summary block's first paragraph, when the summary stands for part of the conversation only. */
  intro?: string;
}

function recentFilesBlock(files: readonly RecentFile[], limits: Pick<CompactLimits, 'fileBudgetTokens' | 'fileMaxTokens'> = DEFAULT_COMPACT_LIMITS): string | undefined {
  const picked: string[] = [];
  let budget = limits.fileBudgetTokens ?? POST_COMPACT_FILE_BUDGET;
  const max = limits.fileMaxTokens ?? POST_COMPACT_FILE_MAX;
  for (const f of files.slice(0, POST_COMPACT_MAX_FILES)) {
    let content = f.content;
    if (estimateTokens(content) > max) content = `${content.slice(0, max * 4)}\n… (cut; read the file again for the rest)`;
    const cost = estimateTokens(content);
    if (cost > budget) break;
    budget -= cost;
    picked.push(`<file path="${f.path}">\n${content}\n</file>`);
  }
  return picked.length ? `Files read recently, as they were at compaction:\n\n${picked.join('\n\n')}` : undefined;
}

/**
 * The history that replaces the conversation: one user message, the API accepts it. `carried`
 * holds the messages the summary does not cover, word for word.
 */
export function compactedHistory(summary: string, anchors: readonly Anchor[], recentFiles: readonly RecentFile[], source: 'llm' | 'session-memory', carried?: string, limits?: CompactLimits, intro?: string): MessageParam[] {
  const parts = [
    intro ?? `${COMPACT_BOUNDARY} This session continues from an earlier conversation that ran out of context. ${source === 'llm' ? 'The summary below covers it' : 'The session notes below cover it'}; the most recent exchanges follow if any were kept.`,
    summary,
  ];
  if (carried) parts.push(carried);
  if (anchors.length) {
    parts.push(
      'Kept word for word from the earlier conversation (corrections, completions and fixes):\n' +
        anchors.map((a) => `- ${a.role === 'user' ? 'User' : 'Assistant'} (${a.kind}): ${JSON.stringify(a.text)}`).join('\n'),
    );
  }
  const files = recentFilesBlock(recentFiles, limits);
  if (files) parts.push(files);
  parts.push('Continue the work from where it left off without asking the user to repeat anything.');
  return [{ role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] }];
}

/**
 * Full compaction by an LLM summary: archive the transcript, ask for the nine-section summary,
 * and replace the history. A summary request that is itself too long drops the oldest rounds
 * and tries again, at most three times.
 */
export async function compactWithSummary(opts: CompactOptions): Promise<CompactionResult> {
  if (!opts.history.length) throw new Error('Nothing to compact yet.');
  const archive = (await opts.archive?.(opts.history)) ?? undefined;
  const limits: CompactLimits = opts.limits ?? DEFAULT_COMPACT_LIMITS;
  const tokensBefore = estimateTokens(opts.history);
  const anchors = findAnchors(opts.history);
  let rounds = splitRounds(opts.history);
  let dropped = 0;
  for (let attempt = 0; ; attempt++) {
    const fit = fitSummaryRounds(opts.history, rounds, limits.requestMaxTokens, dropped, limits.requestHardMaxTokens ?? limits.requestMaxTokens);
    ({ rounds, dropped } = fit);
    const messages = fit.messages;
    // The request must end with the user asking for the summary; tool calls left unanswered
    // by a Stop are answered already, so the history itself is valid.
    const last = messages.at(-1);
    const ask: ContentBlockParam = { type: 'text', text: compactPrompt(opts.focus) };
    if (last?.role === 'user') {
      const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
      messages[messages.length - 1] = { ...last, content: [...content, ask] } as MessageParam;
    } else messages.push({ role: 'user', content: [ask] });
    try {
      const raw = await requestSummary({
        messages,
        client: opts.client,
        model: opts.model,
        maxTokens: limits.summaryMaxTokens,
        system: opts.system ?? [{ type: 'text', text: SUMMARY_SYSTEM }],
        ...(opts.shared ? { shared: opts.shared } : {}),
        signal: opts.signal,
      });
      const summary = formatSummary(raw);
      if (!summary) {
        // No usable summary: keep the latest rounds whole rather than lose everything.
        const { history, coverage } = truncateWithCoverage(opts.history, limits.keepMaxTokens, limits.carryTokens);
        const note = 'The summary came back empty or malformed, so the oldest part of the conversation was dropped instead and the latest exchanges kept as they were (your earlier messages are kept word for word).';
        return { history, summary: note, tokensBefore, tokensAfter: estimateTokens(history), anchors, droppedRounds: dropped, source: 'truncation', coverage, ...(archive ? { archive } : {}) };
      }
      // Rounds dropped to make the summary request fit are not in the summary: carry their
      // messages and fixes word for word.
      const from = opts.history.length - rounds.flat().length;
      const carried = carryBlock(uncoveredTexts(opts.history, 0, from), CARRIED_HEADING, limits.carryTokens);
      const history = compactedHistory(summary, anchors, opts.recentFiles ?? [], 'llm', carried, limits, opts.intro);
      const coverage: CompactionCoverage = { summaryCovers: [from, opts.history.length], keptFrom: opts.history.length };
      // The same without the files put back, for when the whole does not get under the threshold.
      const slim = opts.recentFiles?.length ? compactedHistory(summary, anchors, [], 'llm', carried, limits, opts.intro) : undefined;
      return { history, summary, tokensBefore, tokensAfter: estimateTokens(history), anchors, droppedRounds: dropped, source: 'llm', coverage, ...(slim ? { withoutFiles: slim } : {}), ...(archive ? { archive } : {}) };
    } catch (err) {
      const tooLong = err instanceof ApiError && err.kind === 'prompt_too_long';
      if (!tooLong || attempt >= MAX_PTL_RETRIES || rounds.length <= 1) throw err;
      // Drop the oldest fifth of the rounds (at least one) and ask again.
      const n = Math.max(1, Math.floor(rounds.length / 5));
      rounds = rounds.slice(n);
      dropped += n;
    }
  }
}
