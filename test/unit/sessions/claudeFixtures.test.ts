import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { loadClaudeSession } from '../../../src/sessions/claudeCode';
import { FIXTURES, placeFixture } from '../../support/claudeFixtures';
import { ClaudeTranscriptWriter } from '../../support/claudeTranscript';
import { validateRequest } from '../../standin/validate';

type Block = Record<string, unknown>;

// What Claude Code adds while it resumes (not in the file's chain): a nudge after a transcript
// that ended on a user message, and an empty answer to keep turns alternating.
const RESUME_FILLERS = new Set(['Continue from where you left off.', 'No response requested.']);

/** The same projection scripts/makeClaudeFixtures.mjs applies to the reference's request, flattened. */
function project(messages: Array<{ role: string; content: unknown }>): string[] {
  const out: string[] = [];
  for (const m of messages) {
    const blocks = (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content) as Block[];
    for (const b of blocks) {
      if (b.type === 'text') {
        const t = String(b.text).trim();
        if (m.role === 'user' && t.startsWith('<')) continue;
        out.push(`${m.role} text ${t}`);
      } else if (b.type === 'tool_use') out.push(`${m.role} tool_use ${String(b.id)} ${String(b.name)}`);
      else if (b.type === 'tool_result') out.push(`${m.role} tool_result ${String(b.tool_use_id)}`);
      else if (b.type === 'thinking') out.push(`${m.role} thinking ${String(b.signature)}`);
      else out.push(`${m.role} ${String(b.type)}`);
    }
  }
  return out;
}

const withoutFillers = (xs: string[]) => xs.filter((x) => !RESUME_FILLERS.has(x.replace(/^(user|assistant) text /, '')));

const blocksOf = (m: MessageParam | undefined): Block[] => (m ? (m.content as unknown as Block[]) : []);

function assertValid(history: MessageParam[], prompt = 'Go on.') {
  const messages = [...history, { role: 'user' as const, content: [{ type: 'text' as const, text: prompt }] }];
  assert.equal(validateRequest({ model: 'm', max_tokens: 10, messages }), null);
}

describe('Claude Code transcripts recorded by the reference CLI', () => {
  for (const name of FIXTURES) {
    it(`${name}: imports as the conversation Claude Code itself resumes, valid for the API`, async () => {
      const p = placeFixture(name);
      const before = readFileSync(p.file);
      const s = await loadClaudeSession(p.file);
      assert.deepEqual(readFileSync(p.file), before, 'the transcript is never changed');
      const theirs = p.expected.resumeRequest.slice();
      // The reference's request ends with the prompt it was resumed with.
      assert.deepEqual(theirs.pop(), { role: 'user', content: [{ type: 'text', text: p.expected.resumePrompt }] });
      assert.deepEqual(withoutFillers(project(s.history)), withoutFillers(project(theirs)));
      assertValid(s.history);
      assert.equal(s.cwd, p.cwd);
      assert.equal(s.skipped, 0);
      assert.equal(s.mustCompact, false);
    });
  }

  it('rewind: the abandoned branch is left out and counted', async () => {
    const s = await loadClaudeSession(placeFixture('rewind').file);
    const text = JSON.stringify(s.history);
    assert.doesNotMatch(text, /Double it|Fourteen/);
    assert.match(text, /Halve it instead/);
    assert.equal(s.skips.offChain, 2);
    assert.match(s.notice, /2 on a branch left by a rewind/);
    assert.equal(s.title, 'Pick a number between one and ten.');
  });

  it('compact-manual: starts at the summary, shown as a compaction; what came before is counted, the title is the first prompt', async () => {
    const s = await loadClaudeSession(placeFixture('compact-manual').file);
    assert.equal(s.fromSummary, true);
    assert.equal(s.compactions, 1);
    assert.match(JSON.stringify(s.history[0]), /This session is being continued/);
    assert.doesNotMatch(JSON.stringify(s.history), /What does notes\.md say\?/);
    assert.ok(s.skips.beforeCompaction > 0);
    assert.equal(s.view[0]?.kind, 'compaction');
    assert.equal(s.title, 'What does notes.md say?');
    // The re-attached file reaches the model, hidden from the panel.
    assert.match(JSON.stringify(s.history), /Fix the parser/);
    assert.ok(!s.view.some((v) => v.kind === 'user' && v.text.includes('Fix the parser')));
    assert.ok(!s.view.some((v) => v.kind === 'assistant' && v.text === 'No response requested.'), 'Claude Code\'s own filler is not shown');
  });

  it('compact-auto: the messages the compaction kept come right after the summary, their pairing intact', async () => {
    const s = await loadClaudeSession(placeFixture('compact-auto').file);
    assert.equal(s.fromSummary, true);
    const [summary, call, result] = s.history;
    assert.match(JSON.stringify(summary), /Pending: show lines 10 to 14/);
    assert.equal(call?.role, 'assistant');
    const id = blocksOf(call)[0]!.id;
    assert.equal(blocksOf(result)[0]!.tool_use_id, id);
    assert.doesNotMatch(JSON.stringify(s.history), /Result not recorded/);
  });

  it('tools: thinking keeps its signature, and both parallel results are found', async () => {
    const p = placeFixture('tools');
    const s = await loadClaudeSession(p.file);
    const signed = readFileSync(p.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message?: { content?: Block[] } })
      .flatMap((l) => (Array.isArray(l.message?.content) ? l.message.content : []))
      .find((b) => b.type === 'thinking');
    const thinking = blocksOf(s.history[1]).find((b) => b.type === 'thinking');
    assert.deepEqual(thinking, { type: 'thinking', thinking: signed!.thinking, signature: signed!.signature });
    assert.deepEqual(
      blocksOf(s.history[2]).map((b) => b.type),
      ['tool_result', 'tool_result'],
    );
  });
});

describe('a long Claude Code session with three compactions (the shape of the issue\'s 534-line example)', () => {
  function longSession(): { text: string; w: ClaudeTranscriptWriter } {
    const w = new ClaudeTranscriptWriter();
    // ~8k-token files: 60 of them would be ~500k tokens if the whole file were imported.
    const file = (i: number) => Array.from({ length: 400 }, (_, k) => `export const v${i}_${k} = ${k}; // line ${k} of module ${i}, kept long on purpose`).join('\n');
    for (let i = 0; i < 60; i++) {
      w.prompt(`Review module${i}.ts`, { attachments: i % 2 ? 0 : 1 });
      const calls = w.answer([{ type: 'text', text: `Reading module${i}.ts.` }, { type: 'tool_use', name: 'Read', input: { file_path: `/work/project/module${i}.ts` } }]);
      w.results(calls, [file(i)]);
      w.answer([{ type: 'text', text: `module${i}.ts is fine.` }]);
      w.raw(JSON.stringify({ type: 'api-request', requestId: `r${i}` }));
      if (i === 19 || i === 39 || i === 54) {
        w.compact(`Summary after module${i}: modules 0 to ${i} reviewed, all fine.`, { keep: 2, files: [{ path: `/work/project/module${i}.ts`, content: file(i) }] });
      }
    }
    return { text: w.finish(), w };
  }

  it('imports as its last summary plus what followed, within the window, valid for the API', async () => {
    const { text, w } = longSession();
    const lines = text.trim().split('\n').length;
    assert.ok(lines > 500 && lines < 600, `${lines} lines`);
    const file = join(mkdtempSync(join(tmpdir(), 'tl-cc3-')), 'long.jsonl');
    writeFileSync(file, text);
    const s = await loadClaudeSession(file);
    assert.equal(s.compactions, 3);
    assert.equal(s.fromSummary, true);
    assert.match(JSON.stringify(s.history[0]), /Summary after module54/);
    const prompts = s.view.filter((v) => v.kind === 'user').map((v) => (v.kind === 'user' ? v.text : ''));
    assert.deepEqual(prompts, w.expected.filter((m) => m.prompt).map((m) => m.prompt));
    assert.deepEqual(prompts, ['Review module55.ts', 'Review module56.ts', 'Review module57.ts', 'Review module58.ts', 'Review module59.ts']);
    assert.equal(s.skips.unknownType, 60, 'the api-request lines');
    assert.ok(s.skips.beforeCompaction > 250, `${s.skips.beforeCompaction}`);
    assert.equal(s.mustCompact, false);
    assert.ok(s.estimatedTokens < 80_000, `${s.estimatedTokens} tokens`);
    assertValid(s.history);
  });
});
