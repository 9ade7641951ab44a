import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import { reportPropertyRuns } from '../../support/propertyReport';
import { appendUserContent, INTERRUPTED_MARKER, INTERRUPTED_TOOL_RESULT } from '../../../src/conversation/history';
import type { ContentBlockParam, MessageParam } from '../../../src/api/types';
import { compactedHistory, findAnchors, truncateToRecent } from '../../../src/compact/compact';
import { microCompact } from '../../../src/compact/microCompact';
import { pointerText } from '../../../src/conversation/readPointers';
import { applyReminders } from '../../../src/context/reminders';
import { buildMessagesRequest } from '../../../src/context/requestBuilder';
import { thinkingParam } from '../../../src/api/thinking';
import { redactedThinkingData, signThinking } from '../../standin/thinking';
import { validateRequest } from '../../standin/validate';
import { compactWithSummary, truncateWithCoverage } from '../../../src/compact/compact';
import { compactFromNotes, defaultTailStart } from '../../../src/compact/notesCompaction';
import { checkCoverage, checkMicroKeepsText, checkPointers, fakeSummaryClient } from './coverageContract';

export const PROPERTY_RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 2000);

const TOOLS = ['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit', 'AskUser'];

/** The thinking an assistant turn opens with (display "omitted" sends empty thinking text). */
type Thinking = 'none' | 'thinking' | 'empty' | 'redacted' | 'both';

type Step =
  | { kind: 'user'; text: string; image: boolean }
  | { kind: 'answer'; text: string; thinking: Thinking }
  | { kind: 'tools'; calls: Array<{ tool: string; size: number; error: boolean }>; thinking: Thinking; text: string }
  | { kind: 'interrupted'; partial: string; withTool: boolean; thinking: Thinking }
  | { kind: 'summary'; text: string }
  | { kind: 'reread'; pick: number };

const thinkingKind = fc.constantFrom<Thinking>('none', 'thinking', 'empty', 'redacted', 'both');

const text = fc.string({ minLength: 1, maxLength: 40 }).map((s) => (s.trim() ? s : 'x'));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), text, image: fc.boolean() }),
  fc.record({ kind: fc.constant('answer' as const), text, thinking: thinkingKind }),
  fc.record({
    kind: fc.constant('tools' as const),
    calls: fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), size: fc.integer({ min: 0, max: 40_000 }), error: fc.boolean() }), { minLength: 1, maxLength: 4 }),
    thinking: thinkingKind,
    text: fc.oneof(fc.constant(''), text),
  }),
  fc.record({ kind: fc.constant('interrupted' as const), partial: text, withTool: fc.boolean(), thinking: thinkingKind }),
  fc.record({ kind: fc.constant('summary' as const), text }),
  // A re-read of an unchanged file: a pointer to an earlier Read's full result (issue 15).
  fc.record({ kind: fc.constant('reread' as const), pick: fc.nat() }),
);

/** Signed blocks, as the stand-in issues them: they lead the assistant turn, in order. */
function thinkingBlocks(kind: Thinking, text: string): ContentBlockParam[] {
  const signed = (t: string): ContentBlockParam => ({ type: 'thinking', thinking: t, signature: signThinking(t) });
  const redacted: ContentBlockParam = { type: 'redacted_thinking', data: redactedThinkingData() };
  switch (kind) {
    case 'none':
      return [];
    case 'thinking':
      return [signed(text)];
    case 'empty':
      return [signed('')];
    case 'redacted':
      return [redacted];
    case 'both':
      return [signed(text), redacted];
  }
}

const identity = (b: ContentBlockParam) => (b.type === 'thinking' ? b.signature : b.type === 'redacted_thinking' ? b.data : '');

/**
 * Builds a history the way the agent does: only through the same helpers. `issued` records
 * the thinking each tool call came with, which the API insists on getting back with it.
 */
function build(steps: Step[]): { history: MessageParam[]; issued: Map<string, string[]> } {
  let h: MessageParam[] = [];
  const issued = new Map<string, string[]>();
  let id = 0;
  const fullReads: string[] = [];
  const needUser = () => {
    if (h.at(-1)?.role !== 'user') h = appendUserContent(h, [{ type: 'text', text: 'go on' }]);
  };
  for (const s of steps) {
    switch (s.kind) {
      case 'user': {
        const blocks: ContentBlockParam[] = [{ type: 'text', text: s.text }];
        if (s.image) blocks.unshift({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
        h = appendUserContent(h, blocks);
        break;
      }
      case 'summary':
        if (h.length === 0) h = [{ role: 'user', content: [{ type: 'text', text: `[Conversation compacted] ${s.text}` }] }];
        else h = appendUserContent(h, [{ type: 'text', text: `[Conversation compacted] ${s.text}` }]);
        break;
      case 'answer': {
        needUser();
        const content: ContentBlockParam[] = [...thinkingBlocks(s.thinking, 'hmm')];
        content.push({ type: 'text', text: s.text });
        h = [...h, { role: 'assistant', content }];
        break;
      }
      case 'tools': {
        needUser();
        const thought = thinkingBlocks(s.thinking, 'plan');
        const content: ContentBlockParam[] = [...thought];
        if (s.text) content.push({ type: 'text', text: s.text });
        const ids = s.calls.map(() => `toolu_${id++}`);
        if (thought.length) for (const i of ids) issued.set(i, thought.map(identity));
        s.calls.forEach((c, i) => content.push({ type: 'tool_use', id: ids[i]!, name: c.tool, input: { file_path: `f${i}.ts`, command: 'ls' } }));
        h = [...h, { role: 'assistant', content }];
        h = appendUserContent(
          h,
          s.calls.map((c, i) => ({ type: 'tool_result' as const, tool_use_id: ids[i]!, content: 'r'.repeat(c.size) || '(no output)', ...(c.error ? { is_error: true } : {}) })),
        );
        s.calls.forEach((c, i) => {
          if (c.tool === 'Read' && !c.error) fullReads.push(ids[i]!);
        });
        break;
      }
      case 'reread': {
        if (!fullReads.length) break;
        needUser();
        const target = fullReads[s.pick % fullReads.length]!;
        const rid = `toolu_${id++}`;
        h = [...h, { role: 'assistant', content: [{ type: 'tool_use', id: rid, name: 'Read', input: { file_path: 'f0.ts' } }] }];
        h = appendUserContent(h, [{ type: 'tool_result', tool_use_id: rid, content: pointerText({ targetId: target, path: 'f0.ts', range: 'the default range' }) }]);
        break;
      }
      case 'interrupted': {
        needUser();
        // What Stop keeps: finished (signed) thinking, the partial text, a finished tool call.
        const thought = thinkingBlocks(s.thinking, 'partial plan');
        const content: ContentBlockParam[] = [...thought, { type: 'text', text: s.partial }];
        const tid = `toolu_${id++}`;
        if (s.withTool && thought.length) issued.set(tid, thought.map(identity));
        if (s.withTool) content.push({ type: 'tool_use', id: tid, name: 'Bash', input: { command: 'sleep 9' } });
        h = [...h, { role: 'assistant', content }];
        h = appendUserContent(h, [...(s.withTool ? [{ type: 'tool_result' as const, tool_use_id: tid, content: INTERRUPTED_TOOL_RESULT, is_error: true }] : []), { type: 'text', text: INTERRUPTED_MARKER }]);
        break;
      }
    }
  }
  needUser();
  return { history: h, issued };
}

/** Models that think adaptively, by budget only, and not at all: the request builder picks per model. */
const PROFILES = [{ thinking: { adaptive: true, enabled: true, disabled: true } }, { thinking: { adaptive: false, enabled: true, disabled: true } }, {}];
const MAX_TOKENS = 8000;

function check(messages: MessageParam[], what: string, issued: ReadonlyMap<string, string[]>) {
  for (const profile of PROFILES) {
    const req = buildMessagesRequest({ model: 'm', maxTokens: MAX_TOKENS, system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], tools: [], history: messages });
    const thinking = thinkingParam(profile, 'adaptive', MAX_TOKENS, messages);
    const err = validateRequest(
      { model: req.model, max_tokens: req.maxTokens, system: req.system, messages: req.messages, ...(thinking ? { thinking } : {}) },
      { thinking: { issuedWith: (toolId) => issued.get(toolId) } },
    );
    assert.equal(err, null, `${what} (thinking ${thinking?.type ?? 'off'}): ${err}`);
  }
}

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

// The coverage contract (issue 14): whatever path compacts, no user message and no error fix is
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
