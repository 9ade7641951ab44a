import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { reportPropertyRuns } from '../../support/propertyReport';
import { appendUserContent, INTERRUPTED_MARKER, INTERRUPTED_TOOL_RESULT } from '../../../src/conversation/history';
import type { ContentBlockParam, MessageParam } from '../../../src/api/types';
import { compactedHistory, findAnchors, truncateToRecent } from '../../../src/compact/compact';
import { microCompact } from '../../../src/compact/microCompact';
import { applyReminders } from '../../../src/context/reminders';
import { buildMessagesRequest } from '../../../src/context/requestBuilder';
import { validateRequest } from '../../standin/validate';

export const PROPERTY_RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 2000);

const TOOLS = ['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit', 'AskUser'];

type Step =
  | { kind: 'user'; text: string; image: boolean }
  | { kind: 'answer'; text: string; thinking: boolean }
  | { kind: 'tools'; calls: Array<{ tool: string; size: number; error: boolean }>; thinking: boolean; text: string }
  | { kind: 'interrupted'; partial: string; withTool: boolean }
  | { kind: 'summary'; text: string };

const text = fc.string({ minLength: 1, maxLength: 40 }).map((s) => (s.trim() ? s : 'x'));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), text, image: fc.boolean() }),
  fc.record({ kind: fc.constant('answer' as const), text, thinking: fc.boolean() }),
  fc.record({
    kind: fc.constant('tools' as const),
    calls: fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), size: fc.integer({ min: 0, max: 40_000 }), error: fc.boolean() }), { minLength: 1, maxLength: 4 }),
    thinking: fc.boolean(),
    text: fc.oneof(fc.constant(''), text),
  }),
  fc.record({ kind: fc.constant('interrupted' as const), partial: text, withTool: fc.boolean() }),
  fc.record({ kind: fc.constant('summary' as const), text }),
);

/** Builds a history the way the agent does: only through the same helpers. */
function build(steps: Step[]): MessageParam[] {
  let h: MessageParam[] = [];
  let id = 0;
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
        const content: ContentBlockParam[] = [];
        if (s.thinking) content.push({ type: 'thinking', thinking: 'hmm', signature: 'sig' });
        content.push({ type: 'text', text: s.text });
        h = [...h, { role: 'assistant', content }];
        break;
      }
      case 'tools': {
        needUser();
        const content: ContentBlockParam[] = [];
        if (s.thinking) content.push({ type: 'thinking', thinking: 'plan', signature: 'sig' });
        if (s.text) content.push({ type: 'text', text: s.text });
        const ids = s.calls.map(() => `toolu_${id++}`);
        s.calls.forEach((c, i) => content.push({ type: 'tool_use', id: ids[i]!, name: c.tool, input: { file_path: `f${i}.ts`, command: 'ls' } }));
        h = [...h, { role: 'assistant', content }];
        h = appendUserContent(
          h,
          s.calls.map((c, i) => ({ type: 'tool_result' as const, tool_use_id: ids[i]!, content: 'r'.repeat(c.size) || '(no output)', ...(c.error ? { is_error: true } : {}) })),
        );
        break;
      }
      case 'interrupted': {
        needUser();
        const content: ContentBlockParam[] = [{ type: 'text', text: s.partial }];
        const tid = `toolu_${id++}`;
        if (s.withTool) content.push({ type: 'tool_use', id: tid, name: 'Bash', input: { command: 'sleep 9' } });
        h = [...h, { role: 'assistant', content }];
        h = appendUserContent(h, [...(s.withTool ? [{ type: 'tool_result' as const, tool_use_id: tid, content: INTERRUPTED_TOOL_RESULT, is_error: true }] : []), { type: 'text', text: INTERRUPTED_MARKER }]);
        break;
      }
    }
  }
  needUser();
  return h;
}

function check(messages: MessageParam[], what: string) {
  const req = buildMessagesRequest({ model: 'm', maxTokens: 100, system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], tools: [], history: messages });
  const err = validateRequest({ model: req.model, max_tokens: req.maxTokens, system: req.system, messages: req.messages });
  assert.equal(err, null, `${what}: ${err}`);
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
          const history = build(steps);
          check(history, 'the generated history itself');
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
          check(micro.history, 'micro-compaction');
          assert.equal(micro.history.length, history.length, 'micro-compaction keeps every message');
          check(applyReminders(micro.history, [{ type: 'instructions', text: 'rules' }, { type: 'gitStatus', text: 'git' }]), 'reminders');
          check(compactedHistory('summary text', findAnchors(history), [{ path: 'a.ts', content: 'x' }], 'llm'), 'summary compaction');
          check(truncateToRecent(history, budget), 'truncation fallback');
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
    assert.equal(runs, PROPERTY_RUNS);
    reportPropertyRuns('compaction validity', runs);
  });
});
