// The coverage contract every compaction path must keep, as a checker the property tests share
// (see validity.property.test.ts): every user message and every error/fix anchor of the history
// is kept word for word, or lies inside the range the summary or notes say they cover.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { AssistantTurn, MessageParam, MessagesRequest } from '../../../src/api/types';
import { anchorsWithIndex, type CompactionResult, type SummaryClient } from '../../../src/compact/compact';
import { CLEARED_PREFIX } from '../../../src/compact/microCompact';
import { CUT_MARKER, MIN_CARRIED_CHARS, userTexts } from '../../../src/compact/verbatim';
import { pointerTarget, resultText } from '../../../src/conversation/readPointers';

function resultTexts(history: readonly MessageParam[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of history) if (typeof m.content !== 'string') for (const b of m.content) if (b.type === 'tool_result') out.set(b.tool_use_id, resultText(b));
  return out;
}

/**
 * Re-read pointers never dangle: each pointer in `after` names a result before it in
 * `after` that holds, word for word, the text the original pointer stood for; a pointer that is
 * no longer one holds that text itself or was cleared.
 */
export function checkPointers(original: readonly MessageParam[], after: readonly MessageParam[], what: string): void {
  const before = resultTexts(original);
  const seen = new Map<string, string>();
  for (const m of after) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const text = resultText(b);
      const was = before.get(b.tool_use_id);
      const stoodFor = was === undefined ? undefined : pointerTarget(was);
      const target = pointerTarget(text);
      if (target !== undefined) {
        const held = seen.get(target);
        assert.ok(held !== undefined && pointerTarget(held) === undefined && !held.startsWith(CLEARED_PREFIX), `${what}: ${b.tool_use_id} points at ${target}, which is not there word for word`);
        if (stoodFor !== undefined) assert.equal(held, before.get(stoodFor), `${what}: ${b.tool_use_id} points at the text it stood for`);
      } else if (stoodFor !== undefined && !text.startsWith(CLEARED_PREFIX)) {
        assert.equal(text, before.get(stoodFor), `${what}: ${b.tool_use_id} carries the text of ${stoodFor}`);
      }
      seen.set(b.tool_use_id, text);
    }
  }
}

/** The original message with its pointer results as `m` has them (checked by checkPointers). */
function withPointersOf(o: MessageParam, m: MessageParam): MessageParam {
  if (typeof o.content === 'string' || typeof m.content === 'string' || o.content.length !== m.content.length) return o;
  const mc = m.content;
  return { ...o, content: o.content.map((b, i) => (b.type === 'tool_result' && pointerTarget(resultText(b)) !== undefined ? mc[i]! : b)) } as MessageParam;
}

function allText(history: readonly MessageParam[]): string {
  return history
    .flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' && typeof b.content === 'string' ? b.content : ''))))
    .join('\n');
}

/** Kept word for word, or (past the carry budget) its beginning with a marked cut. */
function carried(text: string, haystack: string): boolean {
  if (haystack.includes(text)) return true;
  return text.length > MIN_CARRIED_CHARS && haystack.includes(`${text.slice(0, MIN_CARRIED_CHARS)}`) && haystack.includes(CUT_MARKER);
}

/** The tail the result claims to keep is really the original's, in order, word for word. */
function checkTail(original: readonly MessageParam[], result: CompactionResult, what: string): void {
  const tail = original.slice(result.coverage.keptFrom);
  if (!tail.length) return;
  const out = result.history.slice(-tail.length);
  assert.equal(out.length, tail.length, `${what}: the kept tail is whole`);
  out.forEach((m, i) => {
    const o = tail[i]!;
    assert.equal(m.role, o.role, `${what}: tail message ${i} role`);
    if (i === 0 && typeof m.content !== 'string' && typeof o.content !== 'string') {
      // The head may be merged into the first kept message: its own blocks end it.
      assert.deepEqual(m.content.slice(m.content.length - o.content.length), o.content, `${what}: first kept message`);
    } else {
      assert.deepEqual(m, withPointersOf(o, m), `${what}: tail message ${i} is verbatim (a re-read pointer may carry its target's text)`);
    }
  });
}

export function checkCoverage(original: readonly MessageParam[], result: CompactionResult, what: string): void {
  checkPointers(original, result.history, what);
  const { summaryCovers, keptFrom, keptBefore = 0 } = result.coverage;
  assert.ok(keptFrom >= 0 && keptFrom <= original.length, `${what}: keptFrom in range`);
  assert.ok(keptBefore >= 0 && keptBefore <= keptFrom, `${what}: keptBefore in range`);
  // A "from here" compaction keeps the start word for word: the same messages, in place.
  assert.deepEqual(result.history.slice(0, keptBefore), original.slice(0, keptBefore), `${what}: the kept start is verbatim`);
  checkTail(original, result, what);
  const covered = (i: number) => (summaryCovers !== null && i >= summaryCovers[0] && i < summaryCovers[1]) || i >= keptFrom || i < keptBefore;
  const text = allText(result.history);
  original.forEach((m, i) => {
    if (covered(i)) return;
    for (const t of userTexts(m)) assert.ok(carried(t, text), `${what}: user message ${i} ${JSON.stringify(t.slice(0, 60))} is neither covered nor kept`);
  });
  for (const a of anchorsWithIndex(original)) {
    if (a.kind !== 'resolution' || covered(a.index)) continue;
    assert.ok(carried(a.text, text), `${what}: the fix at ${a.index} ${JSON.stringify(a.text.slice(0, 60))} is neither covered nor kept`);
  }
}

/** Micro-compaction changes tool results only: every user text and anchor stays, in place. */
export function checkMicroKeepsText(original: readonly MessageParam[], after: readonly MessageParam[]): void {
  checkPointers(original, after, 'micro');
  assert.equal(after.length, original.length);
  original.forEach((m, i) => assert.deepEqual(userTexts(after[i]!), userTexts(m), `micro: user text of message ${i}`));
  for (const a of anchorsWithIndex(original)) assert.ok(allText([after[a.index]!]).includes(a.text), `micro: anchor at ${a.index}`);
}

/**
 * A summary model that answers differently from a script: it may fail as too long a few
 * times (the caller then drops rounds), or return nothing usable (truncation follows).
 */
export function fakeSummaryClient(plan: { tooLong: number; usable: boolean }): SummaryClient & { requests: MessagesRequest[] } {
  let failures = 0;
  const requests: MessagesRequest[] = [];
  return {
    requests,
    async stream(request): Promise<AssistantTurn> {
      requests.push(request);
      if (failures < plan.tooLong) {
        failures++;
        throw new ApiError('prompt_too_long', 'prompt is too long: 300000 tokens > 200000 maximum', 400, undefined);
      }
      const text = plan.usable ? '<analysis>notes</analysis><summary>1. Primary request: the work so far.</summary>' : '<analysis>never closed';
      return { blocks: [{ type: 'text', text }], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, model: 'm' };
    },
  };
}
