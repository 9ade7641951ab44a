// Partial compaction ("summarize from here", "summarize up to here") and undo of any compaction,
// over generated histories: every history stays one the API accepts, the coverage contract holds,
// the context never grows, and undoing gives back the conversation word for word, in any order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/api/errors';
import type { AssistantTurn, ContentBlockParam, MessageParam, MessagesRequest } from '../../../src/api/types';
import { compactWithSummary, truncateWithCoverage, type CompactionResult, type SummaryClient } from '../../../src/compact/compact';
import { splitPendingPrompt } from '../../../src/compact/compactor';
import { compactFromNotes } from '../../../src/compact/notesCompaction';
import { CompactionRefused, compactPartially, partialPoints, type PartialDirection } from '../../../src/compact/partial';
import { historyBefore, recordCompaction, undoableCompactions, undoCompaction, type CompactionRecord } from '../../../src/compact/undo';
import { applyReminders } from '../../../src/context/reminders';
import { appendUserContent } from '../../../src/conversation/history';
import { estimateTokens } from '../../../src/conversation/tokens';
import { userTexts } from '../../../src/compact/verbatim';
import { fc } from '../../support/fastCheck';
import { reportPropertyRuns } from '../../support/propertyReport';
import { checkCoverage } from './coverageContract';
import { build, check, HistoryBuilder, step, text, type Step } from './generatedHistory';

const RUNS = Math.max(100, Math.round(Number(process.env.THREADLINE_PROPERTY_RUNS ?? 2000) / 4));

/** A summariser whose every summary differs (as real ones do), failing as too long a few times first. */
function summarizer(tooLong: number): SummaryClient & { requests: MessagesRequest[] } {
  let calls = 0;
  const requests: MessagesRequest[] = [];
  return {
    requests,
    async stream(request): Promise<AssistantTurn> {
      requests.push(request);
      if (calls++ < tooLong) throw new ApiError('prompt_too_long', 'prompt is too long: 300000 tokens > 200000 maximum', 400, undefined);
      return { blocks: [{ type: 'text', text: `<analysis>a</analysis><summary>Summary number ${calls}.</summary>` }], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, model: 'm' };
    },
  };
}

const signal = new AbortController().signal;
/** A history as the next request sends it: with the user's next message when an answer ends it. */
const next = (h: readonly MessageParam[]) => (h.at(-1)?.role === 'user' ? [...h] : appendUserContent(h, [{ type: 'text', text: 'next' }]));
const withReminders = (h: MessageParam[]) => applyReminders(h, [{ type: 'instructions', text: 'rules' }]);
const allUserTexts = (h: readonly MessageParam[]) => h.flatMap(userTexts);
/** Signatures are sealed with a fresh nonce each time: two builders of the same steps differ only there. */
const unsealed = (h: readonly MessageParam[]) =>
  h.map((m) => (typeof m.content === 'string' ? m : { ...m, content: m.content.map((b) => (b.type === 'thinking' ? { ...b, signature: '' } : b.type === 'redacted_thinking' ? { ...b, data: '' } : b)) }));

describe('partial compaction (property)', () => {
  it(`keeps the request valid and the coverage contract, never grows, and undoes word for word (${RUNS} histories)`, async () => {
    let runs = 0;
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), fc.constantFrom<PartialDirection>('from', 'upTo'), fc.nat(), fc.integer({ min: 0, max: 2 }), fc.option(text), async (steps, direction, pick, tooLong, focus) => {
        runs++;
        const { history, issued } = build(steps);
        const points = partialPoints(history, direction);
        for (const p of points) {
          const m = history[p]!;
          assert.ok(m.role === 'user' && typeof m.content !== 'string' && !m.content.some((b) => b.type === 'tool_result'), 'a point is a user message that starts a round');
        }
        if (!points.length) {
          await assert.rejects(compactPartially({ history, at: 0, direction, client: summarizer(0), model: 'm', signal }), CompactionRefused);
          return;
        }
        const at = points[pick % points.length]!;
        const client = summarizer(tooLong);
        const r = await compactPartially({ history, at, direction, client, model: 'm', signal, ...(focus ? { focus } : {}) }).catch((e: unknown) => e);
        for (const req of client.requests) check(req.messages, 'the summary request', issued);
        if (r instanceof CompactionRefused) {
          assert.match(r.message, /not make the conversation smaller/);
          return;
        }
        // A summary request that never fits fails, and nothing is replaced.
        if (r instanceof ApiError && r.kind === 'prompt_too_long') return;
        assert.ok(!(r instanceof Error), String(r));
        const result = r as CompactionResult;
        applied++;
        check(result.history, `${direction} ${at}`, issued);
        check(withReminders(result.history), `${direction} ${at} with reminders`, issued);
        checkCoverage(history, result, `${direction} ${at}`);
        assert.ok(result.tokensAfter < result.tokensBefore, 'the context does not grow');
        // (The tail "up to here" keeps is checked by the coverage contract.)
        if (direction === 'from') assert.deepEqual(result.history.slice(0, at), history.slice(0, at), 'everything before the chosen message stays');
        const { record, history: kept } = recordCompaction('c1', history, result);
        assert.equal(kept, result.history, 'a first compaction needs no counter');
        assert.deepEqual(undoCompaction(kept, record), history, 'undo gives back the conversation word for word');
      }),
      { numRuns: RUNS },
    );
    assert.equal(runs, RUNS);
    assert.ok(applied > RUNS / 4, `most runs compacted (${applied} of ${RUNS})`);
    reportPropertyRuns('partial compaction', runs);
  });
});

type Kind = 'full' | 'truncate' | 'notes' | 'from' | 'upTo';

/** One compaction of any kind, as the compactor would make it (a pending prompt kept after it). */
async function compactAny(kind: Kind, history: readonly MessageParam[], pick: number): Promise<CompactionResult | undefined> {
  const { head, prompt } = splitPendingPrompt(history);
  const withPrompt = (r: CompactionResult): CompactionResult => (prompt ? { ...r, history: appendUserContent(r.history, prompt), coverage: { ...r.coverage, keptFrom: head.length === r.coverage.keptFrom ? head.length : r.coverage.keptFrom } } : r);
  switch (kind) {
    case 'full': {
      const r = await compactWithSummary({ history: head, client: summarizer(0), model: 'm', signal });
      return withPrompt(r);
    }
    case 'truncate': {
      const t = truncateWithCoverage(head, (pick % 5) * 200);
      return withPrompt({ ...t, summary: '', tokensBefore: 0, tokensAfter: 0, anchors: [], droppedRounds: 0, source: 'truncation' });
    }
    case 'notes': {
      const n = compactFromNotes(head, `# Session notes ${pick}`, head.length);
      return n.ok ? withPrompt(n.result) : undefined;
    }
    default: {
      const points = partialPoints(history, kind);
      if (!points.length) return undefined;
      return compactPartially({ history, at: points[pick % points.length]!, direction: kind, client: summarizer(0), model: 'm', signal }).catch((e: unknown) => {
        if (e instanceof CompactionRefused) return undefined;
        throw e;
      });
    }
  }
}

const chunk = fc.record({
  lead: fc.record({ kind: fc.constant('user' as const), text: text.map((t) => `${t} ·${Math.random().toString(36).slice(2, 8)}`), image: fc.constant(false) }),
  steps: fc.array(step, { maxLength: 6 }),
  close: fc.record({ kind: fc.constant('answer' as const), text, thinking: fc.constant('none' as const) }),
  compact: fc.option(fc.record({ kind: fc.constantFrom<Kind>('full', 'truncate', 'notes', 'from', 'upTo'), pick: fc.nat(), pending: fc.boolean() })),
});

describe('every compaction can be undone, in any order (property)', () => {
  it(`holds for ${RUNS} sessions of turns and compactions of every kind; rewind reaches across them`, async () => {
    let runs = 0;
    let undone = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(chunk, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), fc.nat(), async (chunks, order, rewindPick) => {
        runs++;
        const session = new HistoryBuilder();
        const reference = new HistoryBuilder();
        const records: CompactionRecord[] = [];
        const compactNow = async (c: NonNullable<(typeof chunks)[number]['compact']>) => {
          const r = await compactAny(c.kind, session.history, c.pick);
          if (!r) return;
          const { record, history } = recordCompaction(`c${records.length}`, session.history, r, records);
          records.push(record);
          session.history = history;
          check(next(session.history), `after ${c.kind}`, session.issued);
        };
        for (const c of chunks) {
          const steps: Step[] = [c.lead, ...c.steps, c.close];
          // A compaction with a prompt pending (not answered yet), or between turns.
          if (c.compact?.pending) {
            session.apply([c.lead], false);
            reference.apply([c.lead], false);
            await compactNow(c.compact);
            session.apply(steps.slice(1), false);
            reference.apply(steps.slice(1), false);
          } else {
            session.apply(steps, false);
            reference.apply(steps, false);
            if (c.compact) await compactNow(c.compact);
          }
        }
        // Rewind to a user message of the reference, whatever compactions hide it.
        const leads = chunks.map((c) => c.lead.text);
        const target = leads[rewindPick % leads.length]!;
        const isTarget = (b: ContentBlockParam) => b.type === 'text' && b.text === target;
        const rewound = historyBefore(session.history, records, isTarget);
        assert.ok(rewound, 'the target is reachable');
        const refIndex = reference.history.findIndex((m) => typeof m.content !== 'string' && m.content.some(isTarget));
        const earlier = new Set(allUserTexts(reference.history.slice(0, refIndex)));
        for (const t of allUserTexts(rewound.history)) if (!t.startsWith('[Conversation compacted]')) assert.ok(earlier.has(t), `a rewind keeps only what came before the target: ${t.slice(0, 40)}`);
        assert.ok(!allUserTexts(rewound.history).includes(target));
        if (rewound.history.length) check(next(rewound.history), 'after a rewind', session.issued);
        // Undo every compaction that can be undone, in a generated order.
        let h = session.history;
        const done: string[] = [];
        for (let k = 0; ; k++) {
          const ids = undoableCompactions(h, records).filter((id) => !done.includes(id));
          if (!ids.length) break;
          const id = ids[order[k % order.length]! % ids.length]!;
          const undoneHistory = undoCompaction(h, records.find((r) => r.id === id)!);
          assert.ok(undoneHistory, `${id} is undoable`);
          h = undoneHistory;
          done.push(id);
          check(next(h), `after undoing ${id}`, session.issued);
          assert.ok(estimateTokens(h) >= 0);
        }
        undone += done.length;
        assert.equal(done.length, records.length, 'every compaction was undone');
        // All undone: the conversation as if nothing had been compacted (user texts at least,
        // word for word; exactly when the undos ran newest first, which reverses each step).
        assert.deepEqual(allUserTexts(h), allUserTexts(reference.history));
        const newestFirst = done.every((id, i) => i === 0 || Number(id.slice(1)) < Number(done[i - 1]!.slice(1)));
        if (newestFirst) assert.deepEqual(unsealed(h), unsealed(reference.history));
      }),
      { numRuns: RUNS },
    );
    assert.ok(undone > RUNS / 2, `compactions were made and undone (${undone})`);
    reportPropertyRuns('compaction undo', runs);
  });
});
