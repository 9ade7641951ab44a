// What a micro-compaction clearing costs in the prompt cache, measured on the stand-in's cache
// simulation through the real agent: the clearing request reads back everything before the
// first result it clears, and the request just before it does not write a tail that the
// clearing is about to rewrite.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLEARED_PREFIX } from '../../../src/compact/microCompact';
import type { RecordedRequest } from '../../standin/server';
import { promptSegments } from '../../standin/tokens';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

type Block = { type: string; tool_use_id?: string; content?: unknown; cache_control?: unknown };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };
const bodyOf = (r: RecordedRequest) => r.body as Body;
const blocks = (b: Body) => b.messages.flatMap((m) => (typeof m.content === 'string' ? [{ type: 'text' } as Block] : m.content));
const clearedIds = (b: Body) => new Set(blocks(b).flatMap((x) => (x.type === 'tool_result' && typeof x.content === 'string' && x.content.startsWith(CLEARED_PREFIX) ? [x.tool_use_id!] : [])));
const tailMarked = (b: Body) => {
  const last = b.messages.at(-1)!;
  return typeof last.content !== 'string' && last.content.some((x) => x.cache_control);
};

/** Tokens of the request before the block at `index` (of the message blocks). */
function tokensBefore(body: Body, index: number): number {
  const segments = promptSegments(body as unknown as Record<string, unknown>);
  const messageStart = segments.length - blocks(body).length;
  return segments.slice(0, messageStart + index).reduce((n, s) => n + s.tokens, 0);
}

/** A workspace of `n` files of about 8k tokens each, all different. */
function workspace(n: number): string {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-clearcache-'));
  for (let i = 0; i < n; i++) {
    writeFileSync(join(cwd, `f${i}.ts`), Array.from({ length: 700 }, (_, k) => `export const f${i}_${k} = combine(${k}, ${i * 7 + k});`).join('\n'));
  }
  return cwd;
}

function agentFor(cwd: string) {
  return createStandinAgent({
    url: standin.url,
    cwd,
    settings: { model: 'claude-sonnet-4-6', contextWindow: 200_000 },
    rules: { allow: ['Read'] },
    headless: true,
    maxTurns: 40,
  }).agent;
}

const reads = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ content: [{ type: 'tool_use' as const, name: 'Read', input: { file_path: `f${from + i}.ts` } }] }));
// Enough words before the first read that what precedes it is a real share of the prompt.
const longPrompt = `Read f0.ts to f29.ts in turn. Background for the review:\n${Array.from({ length: 400 }, (_, i) => `note ${i}: the modules share one helper and must agree on its arguments`).join('\n')}`;

describe('clearing and the prompt cache', () => {
  it('each clearing request reads back the prefix before the first result it clears, and the request before it writes no tail', async () => {
    const cwd = workspace(30);
    const agent = agentFor(cwd);
    standin.enqueue(...reads(0, 30), { content: [{ type: 'text', text: 'Done.' }] });
    await agent.submit(longPrompt);
    await agent.drain();
    const rs = standin.requests;
    let clearings = 0;
    for (let i = 1; i < rs.length; i++) {
      const before = clearedIds(bodyOf(rs[i - 1]!));
      const now = bodyOf(rs[i]!);
      const fresh = blocks(now).findIndex((b) => b.type === 'tool_result' && clearedIds(now).has(b.tool_use_id!) && !before.has(b.tool_use_id!));
      if (fresh < 0) continue;
      clearings++;
      const prefix = tokensBefore(now, fresh);
      const u = rs[i]!.usage!;
      assert.ok(u.cache_read_input_tokens >= prefix, `clearing at request ${i} read ${u.cache_read_input_tokens} of the ${prefix} tokens before its first cleared result`);
      const prev = rs[i - 1]!.usage!;
      assert.equal(tailMarked(bodyOf(rs[i - 1]!)), false, `request ${i - 1}, before the clearing, leaves its tail out of the cache`);
      assert.ok(prev.cache_creation_input_tokens < 500, `request ${i - 1} wrote ${prev.cache_creation_input_tokens} tokens the clearing rewrites`);
      assert.ok(prev.cache_read_input_tokens >= tokensBefore(bodyOf(rs[i - 1]!), blocks(bodyOf(rs[i - 1]!)).length - 2), `request ${i - 1} still reads what the request before it wrote`);
    }
    assert.ok(clearings >= 2, `the loop cleared ${clearings} times`);
    // Every request but those just before a clearing writes its tail for the next to read.
    const marked = rs.filter((r) => tailMarked(bodyOf(r))).length;
    assert.equal(marked, rs.length - clearings);
  });

  it('when the model stops where a clearing was expected, nothing is lost and the next prompt writes the tail', async () => {
    const cwd = workspace(30);
    // First run: where does the loop first leave a tail out of the cache?
    standin.enqueue(...reads(0, 30), { content: [{ type: 'text', text: 'Done.' }] });
    await agentFor(cwd).submit(longPrompt);
    const at = standin.requests.findIndex((r, i) => i > 0 && !tailMarked(bodyOf(r)));
    assert.ok(at > 0, 'some request expected a clearing after it');
    standin.reset();
    // Second run: the model answers that request with text and ends the turn instead.
    const agent = agentFor(cwd);
    standin.enqueue(...reads(0, at), { content: [{ type: 'text', text: 'Stopping here.' }] }, { content: [{ type: 'text', text: 'Carrying on.' }] });
    await agent.submit(longPrompt);
    await agent.submit('Go on.');
    await agent.drain();
    const rs = standin.requests;
    assert.equal(rs.length, at + 2);
    assert.ok(rs.every((r) => r.status === 200));
    const last = bodyOf(rs.at(-1)!);
    const results = blocks(last).filter((b) => b.type === 'tool_result');
    assert.equal(results.length, at, 'every result is still paired with its call');
    // The three latest reads are there word for word, whatever was cleared.
    for (const r of results.slice(-3)) assert.ok(typeof r.content === 'string' && !r.content.startsWith(CLEARED_PREFIX));
    assert.ok(tailMarked(last), 'the next request writes its tail again');
    assert.ok(rs.at(-1)!.usage!.cache_read_input_tokens > 0);
  });
});
