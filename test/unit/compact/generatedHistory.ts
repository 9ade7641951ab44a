// Generated conversation histories for the compaction properties, built only through the helpers
// the agent uses, with the thinking blocks a real model issues (and that the API wants back).
import assert from 'node:assert/strict';
import { fc } from '../../support/fastCheck';
import { appendUserContent, INTERRUPTED_MARKER, INTERRUPTED_TOOL_RESULT } from '../../../src/conversation/history';
import type { ContentBlockParam, MessageParam } from '../../../src/api/types';
import { pointerText } from '../../../src/conversation/readPointers';
import { buildMessagesRequest } from '../../../src/context/requestBuilder';
import { thinkingParam } from '../../../src/api/thinking';
import { redactedThinkingData, signThinking } from '../../standin/thinking';
import { validateRequest } from '../../standin/validate';

const TOOLS = ['Read', 'Bash', 'Grep', 'Glob', 'Write', 'Edit', 'AskUser'];

/** The thinking an assistant turn opens with (display "omitted" sends empty thinking text). */
type Thinking = 'none' | 'thinking' | 'empty' | 'redacted' | 'both';

export type Step =
  | { kind: 'user'; text: string; image: boolean }
  | { kind: 'answer'; text: string; thinking: Thinking }
  | { kind: 'tools'; calls: Array<{ tool: string; size: number; error: boolean }>; thinking: Thinking; text: string }
  | { kind: 'interrupted'; partial: string; withTool: boolean; thinking: Thinking }
  | { kind: 'summary'; text: string }
  | { kind: 'reread'; pick: number };

const thinkingKind = fc.constantFrom<Thinking>('none', 'thinking', 'empty', 'redacted', 'both');

export const text = fc.string({ minLength: 1, maxLength: 40 }).map((s) => (s.trim() ? s : 'x'));
export const step: fc.Arbitrary<Step> = fc.oneof(
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
  // A re-read of an unchanged file: a pointer to an earlier Read's full result.
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
 * the thinking each tool call came with, which the API insists on getting back with it. Steps
 * can be added in several goes, and the history replaced in between (by a compaction).
 */
export class HistoryBuilder {
  history: MessageParam[] = [];
  readonly issued = new Map<string, string[]>();
  private id = 0;
  private readonly fullReads: string[] = [];

  /** Adds the steps; `finish` ends with a user message, as a request needs. */
  apply(steps: readonly Step[], finish = true): this {
    const issued = this.issued;
    const fullReads = this.fullReads;
    let h = this.history;
    let id = this.id;
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
    if (finish) needUser();
    this.history = h;
    this.id = id;
    return this;
  }
}

export function build(steps: Step[]): { history: MessageParam[]; issued: Map<string, string[]> } {
  const b = new HistoryBuilder().apply(steps);
  return { history: b.history, issued: b.issued };
}

/** Models that think adaptively, by budget only, and not at all: the request builder picks per model. */
const PROFILES = [{ thinking: { adaptive: true, enabled: true, disabled: true } }, { thinking: { adaptive: false, enabled: true, disabled: true } }, {}];
const MAX_TOKENS = 8000;

export function check(messages: MessageParam[], what: string, issued: ReadonlyMap<string, string[]>) {
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
