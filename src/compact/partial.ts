import { ApiError } from '../api/errors';
import type { ContentBlockParam, MessageParam, SystemBlock } from '../api/types';
import { appendUserContent, prependUserContent } from '../conversation/history';
import { restoreDanglingPointers } from '../conversation/readPointers';
import { estimateTokens } from '../conversation/tokens';
import { COMPACT_BOUNDARY, compactedHistory, compactPrompt, compactWithSummary, findAnchors, formatSummary, type CompactionResult, type SummaryClient } from './compact';
import { splitPendingPrompt } from './compactor';
import { DEFAULT_COMPACT_LIMITS, type CompactLimits } from './limits';
import { requestSummary, type SharedRequestBuilder } from './summaryRequest';
import { userTexts } from './verbatim';

/**
 * "Summarize from here": the messages before the chosen one stay word for word, it and the rest
 * are summarised. "Summarize up to here": everything before it is summarised, it and the rest stay.
 */
export type PartialDirection = 'from' | 'upTo';

/** A partial compaction that would not help (nothing to summarise, or no smaller); nothing changed. */
export class CompactionRefused extends Error {}

export interface PartialOptions {
  history: readonly MessageParam[];
  /** Index of the chosen message: a user message that starts a round (see partialPoints). */
  at: number;
  direction: PartialDirection;
  focus?: string;
  client: SummaryClient;
  model: string;
  system?: SystemBlock[];
  signal: AbortSignal;
  limits?: CompactLimits;
  /** The main loop's request builder: "from here" then reads the conversation's cache. */
  shared?: SharedRequestBuilder;
  /** Keeps the full transcript before anything is replaced; returns where. */
  archive?(history: readonly MessageParam[]): Promise<string | void>;
  /** Size of a request with this history (system and tools too); message tokens when not given. */
  measure?(history: readonly MessageParam[]): number;
}

const isRoundStart = (m: MessageParam) => m.role === 'user' && (typeof m.content === 'string' || !m.content.some((b) => b.type === 'tool_result')) && userTexts(m).length > 0;

/**
 * Where a partial compaction may be asked for: user messages that start a round (never a tool
 * result, whose call must stay beside it). "Up to here" needs something before the message;
 * "from here" something from it on other than a prompt not answered yet.
 */
export function partialPoints(history: readonly MessageParam[], direction: PartialDirection): number[] {
  const { head } = splitPendingPrompt(history);
  const out: number[] = [];
  history.forEach((m, i) => {
    if (!isRoundStart(m)) return;
    if (direction === 'upTo' ? i >= 1 : i < head.length) out.push(i);
  });
  return out;
}

function quote(m: MessageParam): string {
  const text = userTexts(m).join('\n').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

const FROM_INTRO = `${COMPACT_BOUNDARY} The rest of this conversation, from here on, was summarised at the user's request; the messages above it are kept word for word. The summary below covers the part it replaced.`;
const UP_TO_INTRO = `${COMPACT_BOUNDARY} The earlier part of this conversation was summarised at the user's request; the summary below covers it, and the messages after it are kept word for word.`;

/** "From here": the whole conversation is sent (it reads the cache), the summary covers only its end. */
async function summarizeFrom(opts: PartialOptions, head: readonly MessageParam[], limits: CompactLimits): Promise<{ summary: CompactionResult; from: number }> {
  const segment = head.slice(opts.at);
  const scope = `Only the end of the conversation above is about to be replaced by a summary: the part that starts with the user message quoted below and runs to the end. Everything before that message stays in the context word for word, so do not summarise it; use it only to understand the rest. Write that summary now. Do not call any tools.\n\nThe part starts with: ${JSON.stringify(quote(head[opts.at]!))}`;
  const messages = appendUserContent(head, [{ type: 'text', text: compactPrompt(opts.focus, scope) }]);
  try {
    const raw = await requestSummary({ messages, client: opts.client, model: opts.model, maxTokens: limits.summaryMaxTokens, system: opts.system ?? [{ type: 'text', text: 'You write faithful, structured summaries of coding sessions.' }], ...(opts.shared ? { shared: opts.shared } : {}), signal: opts.signal });
    const summary = formatSummary(raw);
    if (!summary) throw new CompactionRefused('the summary came back empty or malformed; nothing was changed');
    const anchors = findAnchors(segment);
    const history = compactedHistory(summary, anchors, [], 'llm', undefined, limits, FROM_INTRO);
    return { summary: { history, summary, tokensBefore: estimateTokens(segment), tokensAfter: estimateTokens(history), anchors, droppedRounds: 0, source: 'llm', coverage: { summaryCovers: [0, segment.length], keptFrom: segment.length } }, from: opts.at };
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === 'prompt_too_long')) throw err;
    // Too long with the kept part as context: the part to replace alone, rounds dropped as needed.
    return { summary: await compactWithSummary({ history: segment, client: opts.client, model: opts.model, signal: opts.signal, limits, intro: FROM_INTRO, ...(opts.system ? { system: opts.system } : {}), ...(opts.focus ? { focus: opts.focus } : {}) }), from: opts.at };
  }
}

const shift = (r: [number, number] | null, by: number): [number, number] | null => (r ? [r[0] + by, r[1] + by] : null);

/**
 * A partial compaction, for a preview: the history it would leave, the summary, and the tokens
 * before and after. Nothing is applied; the caller sets the history if the user agrees. Refuses
 * (CompactionRefused) when the result would not be smaller, or no usable summary came back.
 */
export async function compactPartially(opts: PartialOptions): Promise<CompactionResult> {
  const { history, at, direction } = opts;
  if (!partialPoints(history, direction).includes(at)) {
    throw new CompactionRefused(direction === 'upTo' ? 'summarising up to a message needs a message of yours with something before it' : 'summarising from a message needs a message of yours with something after it to summarise');
  }
  const limits = opts.limits ?? DEFAULT_COMPACT_LIMITS;
  const { head, prompt } = splitPendingPrompt(history);
  const archive = (await opts.archive?.(history)) ?? undefined;
  let out: MessageParam[];
  let summary: CompactionResult;
  let coverage: CompactionResult['coverage'];
  if (direction === 'upTo') {
    summary = await compactWithSummary({ history: history.slice(0, at), client: opts.client, model: opts.model, signal: opts.signal, limits, intro: UP_TO_INTRO, ...(opts.system ? { system: opts.system } : {}), ...(opts.focus ? { focus: opts.focus } : {}), ...(opts.shared ? { shared: opts.shared } : {}) });
    if (summary.source !== 'llm') throw new CompactionRefused('the summary came back empty or malformed; nothing was changed');
    // A kept re-read whose earlier result the summary replaces gets that result's text back.
    const kept = restoreDanglingPointers(history, history.slice(at));
    out = prependUserContent(kept, summary.history[0]!.content as ContentBlockParam[]);
    coverage = { summaryCovers: summary.coverage.summaryCovers, keptFrom: at };
  } else {
    const r = await summarizeFrom(opts, head, limits);
    summary = r.summary;
    if (summary.source !== 'llm') throw new CompactionRefused('the summary came back empty or malformed; nothing was changed');
    out = [...history.slice(0, at), ...summary.history];
    if (prompt) out = appendUserContent(out, prompt);
    coverage = { summaryCovers: shift(summary.coverage.summaryCovers, at), keptFrom: head.length, keptBefore: at };
  }
  const measure = opts.measure ?? ((h: readonly MessageParam[]) => estimateTokens(h));
  const tokensBefore = measure(history);
  const tokensAfter = measure(out);
  if (tokensAfter >= tokensBefore) throw new CompactionRefused(`it would not make the conversation smaller (about ${tokensBefore} tokens before, ${tokensAfter} after); nothing was changed`);
  return { history: out, summary: summary.summary, tokensBefore, tokensAfter, anchors: summary.anchors, droppedRounds: summary.droppedRounds, source: 'llm', coverage, ...(archive ? { archive } : {}) };
}
