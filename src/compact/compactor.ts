import type { NameSet } from '../tools/registry';
import type { ContentBlockParam, MessageParam } from '../api/types';
import { appendUserContent } from '../conversation/history';
import { estimateTokens } from '../conversation/tokens';
import { Emitter } from '../base/event';
import { truncateWithCoverage, type CompactionResult } from './compact';
import { cacheHints, microCompact, type CacheHints, type MicroCompactConfig, type MicroCompactDecision } from './microCompact';
import type { Thresholds } from '../conversation/thresholds';
import { compactLimits, type CompactLimits } from './limits';
import type { CompactRequest } from './compactTool';

export const MAX_CONSECUTIVE_FAILURES = 3;
/** Compacting again this soon, still over the threshold, means compaction is not helping. */
const THRASH_TURNS = 3;

export type CompactTrigger = 'auto' | 'manual' | 'prompt_too_long' | 'tool';

export interface CompactorDeps {
  settings(): { autoCompact: boolean; microCompact: boolean };
  thresholds(): Thresholds;
  /** Tools whose old results micro-compaction may clear (from the tool registry). */
  compactable: NameSet;
  /** Session memory first (no LLM call) when it is usable; undefined falls back to a summary. */
  fromSessionMemory?(history: readonly MessageParam[], limits: CompactLimits): Promise<CompactionResult | undefined>;
  /** The nine-section summary by the model; `signal` is Stop's, so a summary nobody waits for ends. */
  summarize(history: readonly MessageParam[], focus: string | undefined, limits: CompactLimits, signal: AbortSignal): Promise<CompactionResult>;
  now(): number;
  microConfig?: Partial<MicroCompactConfig>;
  /** Exact count of what a request with this history would hold (count_tokens). */
  countTokens?(history: readonly MessageParam[]): Promise<number>;
  /** Estimated size of a request with this history (system and tools too); messages only when not given. */
  measure?(history: readonly MessageParam[]): number;
  /** Where the model's Compact tool leaves its request; without it the model cannot ask. */
  modelRequest?: CompactRequest;
}

/** Within this share of the threshold, an estimate is not good enough to decide on. */
const NEAR_THRESHOLD = 0.1;

export interface CompactedEvent {
  result: CompactionResult;
  /** The history as it was, for Undo. */
  before: MessageParam[];
  trigger: CompactTrigger;
  focus: string | undefined;
}

export interface RequestContext {
  /** Estimated tokens the next request will hold. */
  usedTokens: number;
  lastAssistantAt: number | undefined;
  /** The turn's Stop: a compaction it starts ends with it. */
  signal: AbortSignal;
}

/** What goes out next: the history to send (and keep), and how that request should place its cache marks. */
export interface PreparedRequest {
  history: MessageParam[];
  /**
   * Where the next clearing starts, and whether it is expected at the very next request (see
   * cacheHints), for the request of exactly this history. Undefined with micro-compaction off.
   */
  hints: CacheHints | undefined;
}

/**
 * Keeps one session under its context window: micro-compaction before each request, an
 * automatic summary above the threshold (with a circuit breaker and a guard against
 * compacting in a loop), and manual compaction on request.
 */
export class Compactor {
  private consecutiveFailures = 0;
  private requests = 0;
  private lastAutoAt: number | undefined;
  private autoDisabled: string | undefined;
  private running: Promise<CompactionResult> | undefined;
  private readonly compacted = new Emitter<CompactedEvent>();
  private readonly micro = new Emitter<MicroCompactDecision>();
  private readonly notices = new Emitter<{ level: 'info' | 'warning' | 'error'; text: string }>();
  readonly onDidCompact = this.compacted.event;
  readonly onDidMicroCompact = this.micro.event;
  readonly onNotice = this.notices.event;

  constructor(private readonly deps: CompactorDeps) {}

  get autoDisabledReason(): string | undefined {
    return this.autoDisabled;
  }

  /** New session: every guard starts over. */
  reset(): void {
    this.consecutiveFailures = 0;
    this.requests = 0;
    this.lastAutoAt = undefined;
    this.autoDisabled = undefined;
  }

  /** True when a new prompt must not be sent as things are. */
  isBlocked(usedTokens: number): boolean {
    return usedTokens >= this.deps.thresholds().blockingAt;
  }

  /**
   * Runs before each main request. Returns the history to send (and keep) with the cache hints
   * for the request of that history; never throws: a failed compaction leaves the history as it was.
   */
  async beforeRequest(history: readonly MessageParam[], ctx: RequestContext): Promise<PreparedRequest> {
    const next = await this.prepare(history, ctx);
    const hints =
      this.deps.settings().microCompact && next.length > 0
        ? cacheHints({ history: next, lastAssistantAt: ctx.lastAssistantAt, now: this.deps.now(), usedTokens: ctx.usedTokens, warningAt: this.deps.thresholds().warningAt, compactable: this.deps.compactable, ...(this.deps.microConfig ? { config: this.deps.microConfig } : {}) })
        : undefined;
    return { history: next, hints };
  }

  private async prepare(history: readonly MessageParam[], ctx: RequestContext): Promise<MessageParam[]> {
    this.requests++;
    let current = history.slice();
    let used = ctx.usedTokens;
    const t = this.deps.thresholds();
    if (this.deps.settings().microCompact) {
      const d = microCompact({ history: current, lastAssistantAt: ctx.lastAssistantAt, now: this.deps.now(), usedTokens: used, warningAt: t.warningAt, compactable: this.deps.compactable, ...(this.deps.microConfig ? { config: this.deps.microConfig } : {}) });
      if (d.cleared > 0) {
        current = d.history;
        used = Math.max(0, used - d.tokensSaved);
        this.micro.fire(d);
      }
    }
    // undefined is a request with no focus: only null means none is pending.
    const focus = this.deps.modelRequest ? this.deps.modelRequest.take() : null;
    if (focus !== null) {
      try {
        return (await this.compact(current, 'tool', ctx.signal, focus)).history;
      } catch {
        return current;
      }
    }
    if (!this.deps.settings().autoCompact) return current;
    // Before the first answer there is nothing to summarise: compacting now would replace the
    // user's only request with a summary of it.
    if (!current.some((m) => m.role === 'assistant')) return current;
    // Near the line, ask the API for the exact figure rather than compact (or not) on a guess.
    if (this.deps.countTokens && Math.abs(used - t.autoCompactAt) < t.autoCompactAt * NEAR_THRESHOLD) {
      used = await this.deps.countTokens(current).catch(() => used);
    }
    if (used < t.autoCompactAt) return current;
    if (this.autoDisabled) return current;
    if (this.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) return current;
    if (this.lastAutoAt !== undefined && this.requests - this.lastAutoAt <= THRASH_TURNS) {
      this.autoDisabled = 'the conversation was over the limit again right after compacting';
      this.notices.fire({
        level: 'warning',
        text:
        'Automatic compaction stopped: the conversation filled up again within a few turns of the last compaction, so compacting is not freeing enough room. Start a new session, or compact by hand with a focus.',
      });
      return current;
    }
    try {
      const r = await this.compact(current, 'auto', ctx.signal);
      this.lastAutoAt = this.requests;
      return r.history;
    } catch {
      return current;
    }
  }

  /**
   * A compaction must end below the auto-compact threshold, or it only moves the problem (the
   * next request trips the thrash guard, or goes out over the limit); an automatic one starts
   * above it, so it always ends smaller. (A manual one of a short conversation may grow a
   * little: the user asked for it, and Undo is there.) Tried in turn: the result, the result without the files put back, the latest
   * rounds kept whole (truncation); none small enough fails the compaction.
   */
  private smallEnough(head: readonly MessageParam[], prompt: ContentBlockParam[] | undefined, compacted: CompactionResult, limits: CompactLimits): CompactionResult {
    const measure = this.deps.measure ?? ((h: readonly MessageParam[]) => estimateTokens(h));
    const limit = this.deps.thresholds().autoCompactAt;
    const candidates: Array<() => CompactionResult> = [
      () => withPrompt(compacted, prompt),
      ...(compacted.withoutFiles ? [() => withPrompt({ ...compacted, history: compacted.withoutFiles!, tokensAfter: estimateTokens(compacted.withoutFiles!) }, prompt)] : []),
      () => {
        const cut = truncateWithCoverage(head, limits.keepMaxTokens, limits.carryTokens);
        const note = 'The compacted conversation was still too large, so the oldest part was dropped instead and the latest exchanges kept as they were (your earlier messages are kept word for word).';
        const { withoutFiles: _drop, ...rest } = compacted;
        return withPrompt({ ...rest, history: cut.history, summary: note, tokensAfter: estimateTokens(cut.history), source: 'truncation', coverage: cut.coverage }, prompt);
      },
    ];
    let size = 0;
    for (const candidate of candidates) {
      const r = candidate();
      size = measure(r.history);
      if (size < limit) return r;
    }
    throw new Error(`it would leave about ${size} tokens, not below ${limit}; the conversation was left as it was`);
  }

  /**
   * Compacts now; rejects on failure (after counting it for the circuit breaker). `signal` is
   * Stop's: a stopped compaction leaves the history as it was and is not counted as a failure.
   */
  async compact(history: readonly MessageParam[], trigger: CompactTrigger, signal: AbortSignal, focus?: string): Promise<CompactionResult> {
    // Two triggers at once (a manual compact during an automatic one) share the one run.
    if (this.running) return this.running;
    const run = (async () => {
      try {
        // A prompt the model has not answered yet stays word for word after the summary: it is
        // the question the next request must answer, not history.
        const { head, prompt } = splitPendingPrompt(history);
        const limits = compactLimits(this.deps.thresholds());
        const fromMemory = !focus && this.deps.fromSessionMemory ? await this.deps.fromSessionMemory(head, limits) : undefined;
        const compacted = fromMemory ?? (await this.deps.summarize(head, focus, limits, signal));
        signal.throwIfAborted();
        const result = this.smallEnough(head, prompt, compacted, limits);
        this.consecutiveFailures = 0;
        this.compacted.fire({ result, before: history.slice(), trigger, focus });
        return result;
      } catch (err) {
        if (signal.aborted) {
          this.notices.fire({ level: 'info', text: 'Compaction stopped; the conversation is as it was.' });
          throw err;
        }
        this.consecutiveFailures++;
        const why = err instanceof Error ? err.message : String(err);
        if (this.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
          this.notices.fire({ level: 'error', text: `Compaction failed ${MAX_CONSECUTIVE_FAILURES} times in a row (${why}); automatic compaction is off for this session.` });
        } else {
          this.notices.fire({ level: 'warning', text: `Compaction failed: ${why}` });
        }
        throw err;
      } finally {
        this.running = undefined;
      }
    })();
    this.running = run;
    return run;
  }
}

const withPrompt = (r: CompactionResult, prompt: ContentBlockParam[] | undefined): CompactionResult =>
  prompt ? { ...r, history: appendUserContent(r.history, prompt), tokensAfter: r.tokensAfter + estimateTokens(prompt) } : r;

/**
 * Splits off a trailing user prompt that no answer follows yet (text the user typed, not tool
 * results, which need their tool calls beside them). Anything else: all of it is history.
 */
export function splitPendingPrompt(history: readonly MessageParam[]): { head: readonly MessageParam[]; prompt: ContentBlockParam[] | undefined } {
  const last = history.at(-1);
  if (history.length < 2 || last?.role !== 'user') return { head: history, prompt: undefined };
  const blocks: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  if (blocks.length === 0 || blocks.some((b) => b.type === 'tool_result')) return { head: history, prompt: undefined };
  return { head: history.slice(0, -1), prompt: blocks };
}
