import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import { reportPropertyRuns } from '../../support/propertyReport';
import type { MessageParam } from '../../../src/api/types';
import { compactedHistory, findAnchors, truncateToRecent } from '../../../src/compact/compact';
import { microCompact } from '../../../src/compact/microCompact';
import { applyReminders } from '../../../src/context/reminders';
import { build, check, step } from './generatedHistory';
import { compactWithSummary, truncateWithCoverage } from '../../../src/compact/compact';
import { compactFromNotes, defaultTailStart } from '../../../src/compact/notesCompaction';
import { checkCoverage, checkMicroKeepsText, checkPointers, fakeSummaryClient } from './coverageContract';

export const PROPERTY_RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 2000);

describe('every compaction path produces a request the API accepts (property)', () => {
  it(`holds for ${PROPERTY_RUNS} generated histories`, () => {
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.record({ keepRecent: fc.integer({ min: 0, max: 6 }), clearAtLeastTokens: fc.integer({ min: 0, max: 30_000 }), gap: fc.boolean(), pressure: fc.boolean() }),
        fc.integer({ min: 0, max: 60_000 }),
        (steps, cfg, budget) => {
          const { history, issued } = build(steps);
          check(history, 'the generated history itself', issued);
          runs++;
      const micro = microCompact({
            history,
            lastAssistantAt: cfg.gap ? 0 : 1_000_000,
            now: 1_000_000 + 1000,
            usedTokens: cfg.pressure ? 200_000 : 0,
            warningAt: 100_000,
            compactable: new Set(['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit']),
            config: { keepRecent: cfg.keepRecent, clearAtLeastTokens: cfg.clearAtLeastTokens },
          });
          check(micro.history, 'micro-compaction', issued);
          checkPointers(history, micro.history, 'micro-compaction');
          assert.equal(micro.history.length, history.length, 'micro-compaction keeps every message');
          check(applyReminders(micro.history, [{ type: 'instructions', text: 'rules' }, { type: 'gitStatus', text: 'git' }]), 'reminders', issued);
          check(compactedHistory('summary text', findAnchors(history), [{ path: 'a.ts', content: 'x' }], 'llm'), 'summary compaction', issued);
          check(truncateToRecent(history, budget), 'truncation fallback', issued);
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
    assert.equal(runs, PROPERTY_RUNS);
    reportPropertyRuns('compaction validity', runs);
  });
});

// The coverage contract: whatever path compacts, no user message and no error fix is
// lost without a summary or the notes covering it, and the request stays valid.
describe('every compaction path keeps the coverage contract (property)', () => {
  it(`holds for ${PROPERTY_RUNS} generated histories: notes, summary (with dropped rounds), truncation, micro`, async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.record({ notesAt: fc.nat(), tooLong: fc.integer({ min: 0, max: 4 }), usable: fc.boolean(), budget: fc.integer({ min: 0, max: 60_000 }), gap: fc.boolean() }),
        async (steps, p) => {
          const { history, issued } = build(steps);
          runs++;
          const withReminders = (h: MessageParam[]) => applyReminders(h, [{ type: 'instructions', text: 'rules' }]);

          const covered = p.notesAt % (history.length + 1);
          const notes = compactFromNotes(history, '# Session notes\nwhat happened', covered);
          if (notes.ok) {
            checkCoverage(history, notes.result, 'notes');
            assert.ok(notes.result.coverage.keptFrom <= covered, 'the notes cover everything before the kept tail');
            check(withReminders(notes.result.history), 'notes compaction', issued);
          } else {
            const start = defaultTailStart(history);
            assert.ok(!(start >= 1 && covered >= start), `notes covering ${covered} >= tail start ${start} must be usable: ${notes.reason}`);
          }

          const client = fakeSummaryClient({ tooLong: p.tooLong, usable: p.usable });
          const summary = await compactWithSummary({ history, client, model: 'm', signal: new AbortController().signal }).catch((e: unknown) => e);
          // What the summary request saw: rounds dropped to fit take their reads along.
          for (const r of client.requests) checkPointers(history, r.messages, 'summary request');
          if (summary instanceof Error) assert.match(summary.message, /too long/, 'only a summary that never fits may fail (and then nothing is replaced)');
          else {
            checkCoverage(history, summary as Awaited<ReturnType<typeof compactWithSummary>>, `summary (${(summary as { source: string }).source})`);
            check(withReminders((summary as { history: MessageParam[] }).history), 'summary compaction', issued);
          }

          const truncated = truncateWithCoverage(history, p.budget);
          checkCoverage(history, { ...truncated, summary: '', tokensBefore: 0, tokensAfter: 0, anchors: [], droppedRounds: 0, source: 'truncation' }, 'truncation');
          check(withReminders(truncated.history), 'truncation', issued);

          const micro = microCompact({ history, lastAssistantAt: p.gap ? 0 : 1_000_000, now: 1_001_000, usedTokens: 0, warningAt: 100_000, compactable: new Set(['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit']), config: { clearAtLeastTokens: 0 } });
          checkMicroKeepsText(history, micro.history);
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
    reportPropertyRuns('compaction coverage contract', runs);
    assert.equal(runs, PROPERTY_RUNS);
  });
});
