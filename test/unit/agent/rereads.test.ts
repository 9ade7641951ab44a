import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RereadTracker } from '../../../src/agent/rereads';
import { createToolRegistry } from '../../../src/tools/builtin';
import type { MessageParam } from '../../../src/api/types';
import { truncateWithCoverage } from '../../../src/compact/compact';
import { CLEARED_PREFIX, microCompact } from '../../../src/compact/microCompact';
import { compactFromNotes } from '../../../src/compact/notesCompaction';
import { pointerTarget, POINTER_LOST, restoreDanglingPointers } from '../../../src/conversation/readPointers';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const read = createToolRegistry().get('Read')!;
const results = (h: readonly MessageParam[]) =>
  h.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result') as Array<{ tool_use_id: string; content: string }>;

/** A history of Read calls through the tracker, as the loop would record them. */
class Session {
  history: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
  private n = 0;
  constructor(
    readonly cwd: string,
    readonly tracker = new RereadTracker(cwd),
  ) {}

  async read(input: Record<string, unknown>): Promise<{ id: string; content: string }> {
    const id = `toolu_${++this.n}`;
    this.history.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input }] });
    const parsed = read.parse(input);
    assert.ok(parsed.ok);
    const r = await read.call(parsed.value, { cwd: this.cwd, signal: new AbortController().signal });
    const revised = this.tracker.revise({ id, tool: read, input: parsed.value }, r, this.history);
    this.history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: revised.content }] });
    return { id, content: revised.content };
  }
}

function workspace(lines = 400) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-rereads-'));
  writeFileSync(join(cwd, 'a.ts'), Array.from({ length: lines }, (_, i) => `export const a${i} = ${i};`).join('\n'));
  writeFileSync(join(cwd, 'b.ts'), Array.from({ length: lines }, (_, i) => `export const b${i} = ${i};`).join('\n'));
  return cwd;
}

describe('re-reads of unchanged files cost a pointer', () => {
  it('a second Read of an unchanged file names the first result: tool call id, path and range', async () => {
    const s = new Session(workspace());
    const first = await s.read({ file_path: 'a.ts' });
    assert.match(first.content, /export const a0 = 0;/);
    const again = await s.read({ file_path: 'a.ts' });
    assert.equal(pointerTarget(again.content), first.id);
    assert.ok(again.content.includes(join(s.cwd, 'a.ts')), 'names the path');
    assert.match(again.content, /default range/);
    assert.ok(again.content.length < 400, `short: ${again.content.length} characters`);
    // A third read points at the same full result, never at the pointer.
    assert.equal(pointerTarget((await s.read({ file_path: join(s.cwd, 'a.ts') })).content), first.id, 'the same file by its absolute path');
  });

  it('a changed file gives the full text, even with the same size and mtime', async () => {
    const s = new Session(workspace());
    await s.read({ file_path: 'a.ts' });
    const { statSync, utimesSync } = await import('node:fs');
    const file = join(s.cwd, 'a.ts');
    const st = statSync(file);
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => `export const a${i} = ${i === 7 ? 8 : i};`).join('\n'));
    utimesSync(file, st.atime, st.mtime);
    const again = await s.read({ file_path: 'a.ts' });
    assert.equal(pointerTarget(again.content), undefined);
    assert.match(again.content, /a7 = 8;/);
  });

  it('a different range gives the full text; the same range again is a pointer', async () => {
    const s = new Session(workspace());
    await s.read({ file_path: 'a.ts' });
    const part = await s.read({ file_path: 'a.ts', offset: 10, limit: 5 });
    assert.equal(pointerTarget(part.content), undefined);
    assert.match(part.content, /a9 = 9;/);
    const partAgain = await s.read({ file_path: 'a.ts', limit: 5, offset: 10 });
    assert.equal(pointerTarget(partAgain.content), part.id);
    assert.match(partAgain.content, /from line 10, 5 lines/);
  });

  it('a cleared earlier copy gives the full text, which later re-reads point at', async () => {
    const s = new Session(workspace());
    const first = await s.read({ file_path: 'a.ts' });
    s.history = s.history.map((m) =>
      typeof m.content === 'string' ? m : ({ ...m, content: m.content.map((b) => (b.type === 'tool_result' && b.tool_use_id === first.id ? { ...b, content: `${CLEARED_PREFIX}: Read a.ts.]` } : b)) } as MessageParam),
    );
    const again = await s.read({ file_path: 'a.ts' });
    assert.equal(pointerTarget(again.content), undefined);
    const third = await s.read({ file_path: 'a.ts' });
    assert.equal(pointerTarget(third.content), again.id);
  });

  it('after a compaction that removed the earlier result, the full text comes back', async () => {
    const s = new Session(workspace());
    await s.read({ file_path: 'a.ts' });
    s.history = [{ role: 'user', content: [{ type: 'text', text: '[Conversation compacted] summary' }] }];
    const again = await s.read({ file_path: 'a.ts' });
    assert.equal(pointerTarget(again.content), undefined);
  });
});

describe('compaction never leaves a pointer without its text', () => {
  // Files large enough that micro-compaction wants to clear them (~12k tokens each).
  async function rereadSession() {
    const s = new Session(workspace(2000));
    const a = await s.read({ file_path: 'a.ts' });
    for (let i = 0; i < 5; i++) await s.read({ file_path: 'b.ts', offset: 1 + i * 300, limit: 300 });
    // A new prompt: a round of its own, which truncation can keep without the first.
    s.history.push({ role: 'assistant', content: [{ type: 'text', text: 'read them' }] }, { role: 'user', content: [{ type: 'text', text: 'now a.ts again' }] });
    const p = await s.read({ file_path: 'a.ts' });
    s.history.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
    return { s, a, p };
  }
  const compactable = createToolRegistry().names('compactable');

  it('micro-compaction keeps the result a recent re-read points at', async () => {
    const { s, a, p } = await rereadSession();
    assert.equal(pointerTarget(p.content), a.id);
    const d = microCompact({ history: s.history, now: 1, lastAssistantAt: 0, usedTokens: 0, warningAt: 1e9, compactable, config: { keepRecent: 3, cacheTtlMs: 0 } });
    assert.ok(d.cleared > 0, 'something older was cleared');
    const byId = new Map(results(d.history).map((r) => [r.tool_use_id, r.content]));
    assert.equal(byId.get(a.id), a.content, 'the target stays word for word');
    assert.equal(byId.get(p.id), p.content, 'the pointer stays');
  });

  it('micro-compaction keeps the working set: a result re-read within the window stays, past the latest three', async () => {
    const { s, a, p } = await rereadSession();
    for (let i = 0; i < 4; i++) await s.read({ file_path: 'b.ts', offset: 1501 + i * 100, limit: 100 });
    const d = microCompact({ history: s.history, now: 1, lastAssistantAt: 0, usedTokens: 0, warningAt: 1e9, compactable, config: { keepRecent: 3, cacheTtlMs: 0 } });
    assert.ok(d.cleared > 0);
    const byId = new Map(results(d.history).map((r) => [r.tool_use_id, r.content]));
    assert.equal(byId.get(a.id), a.content, 'a.ts was read again 5 results ago: it stays');
    assert.equal(byId.get(p.id), p.content);
  });

  it('micro-compaction clears an old pointer together with its target once it leaves the working set', async () => {
    const { s, a, p } = await rereadSession();
    for (let i = 0; i < 4; i++) await s.read({ file_path: 'b.ts', offset: 1501 + i * 100, limit: 100 });
    const d = microCompact({ history: s.history, now: 1, lastAssistantAt: 0, usedTokens: 0, warningAt: 1e9, compactable, config: { keepRecent: 3, cacheTtlMs: 0, workingSetWindow: 3 } });
    const byId = new Map(results(d.history).map((r) => [r.tool_use_id, r.content]));
    assert.ok(byId.get(a.id)!.startsWith(CLEARED_PREFIX));
    assert.ok(byId.get(p.id)!.startsWith(CLEARED_PREFIX), 'the pointer went with its target');
  });

  /** Every pointer names a result earlier in the same history that holds the text. */
  function assertNoDangling(h: readonly MessageParam[], what: string) {
    const seen = new Map<string, string>();
    for (const r of results(h)) {
      const t = pointerTarget(r.content);
      if (t !== undefined) {
        const target = seen.get(t);
        assert.ok(target !== undefined && !target.startsWith(CLEARED_PREFIX) && pointerTarget(target) === undefined, `${what}: ${r.tool_use_id} points at nothing`);
      }
      seen.set(r.tool_use_id, r.content);
    }
  }

  it('truncation and notes compaction give a kept pointer its dropped target back', async () => {
    const { s, a, p } = await rereadSession();
    s.history.push({ role: 'user', content: [{ type: 'text', text: 'next' }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    const t = truncateWithCoverage(s.history, 2000);
    const kept = new Map(results(t.history).map((r) => [r.tool_use_id, r.content]));
    assert.ok(kept.has(p.id) && !kept.has(a.id), 'the pointer round is kept, the first read is not');
    assert.equal(kept.get(p.id), a.content, 'the pointer carries the text now');
    assertNoDangling(t.history, 'truncation');
    const notes = compactFromNotes(s.history, '# notes\nall of it', s.history.length, { keepMinTokens: 0, keepMaxTokens: 2000, carryTokens: 1000, summaryMaxTokens: 1000 });
    assert.ok(notes.ok);
    const tail = new Map(results(notes.result.history).map((r) => [r.tool_use_id, r.content]));
    assert.ok(tail.has(p.id) && !tail.has(a.id));
    assert.equal(tail.get(p.id), a.content);
    assertNoDangling(notes.result.history, 'notes');
  });

  it('a pointer whose target no copy holds says so instead of pointing at nothing', () => {
    const { content } = { content: '[Unchanged since an earlier read: /x.ts (the default range) is word for word the result of tool call toolu_gone above (same content hash, same range). Use that result; it has not been cleared.]' };
    const h: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_p', name: 'Read', input: { file_path: '/x.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_p', content }] },
    ];
    assert.equal(results(restoreDanglingPointers(h, h))[0]!.content, POINTER_LOST);
  });
});

describe('re-read pointers through the real loop', () => {
  const standin = useStandin();

  it('the second Read of an unchanged file sends a pointer to the first call, and the request is valid', async () => {
    const cwd = workspace();
    const { agent } = createStandinAgent({ url: standin.url, cwd, rules: { allow: ['Read'] }, headless: true });
    standin.enqueue(
      { content: [{ type: 'tool_use', id: 'toolu_first', name: 'Read', input: { file_path: 'a.ts' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_second', name: 'Read', input: { file_path: 'a.ts' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await agent.submit('read a.ts twice');
    const last = standin.requests.at(-1)!;
    assert.equal(last.validationError, null);
    const sent = results((last.body as { messages: MessageParam[] }).messages);
    assert.match(sent[0]!.content, /export const a399 = 399;/);
    assert.equal(pointerTarget(sent[1]!.content), 'toolu_first');
  });
});
