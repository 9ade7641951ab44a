import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDir, MEMORY_TYPES } from '../src/memory/memdir';
import { startStandin } from '../test/standin/server';
import { createStandinAgent } from '../test/support/standinAgent';
import { median } from './stats';

const bulk = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}: some data worth keeping in mind`).join('\n');

/**
 * The index with 200 memories; what extraction adds to the user's turn (it runs after the
 * answer); and compaction from session notes against compaction by an LLM summary.
 */
export async function benchMemory(): Promise<Record<string, number>> {
  const memdir = new MemoryDir(join(mkdtempSync(join(tmpdir(), 'tl-bench-mem-')), 'memory'));
  for (let i = 0; i < 200; i++) {
    await memdir.save({ name: `memory_${i}`, description: `Fact number ${i} about the project`, type: MEMORY_TYPES[i % 4]!, body: `Body of memory ${i}.` });
  }
  const loads: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await memdir.loadIndex();
    loads.push(performance.now() - t);
  }

  const standin = await startStandin();
  try {
    const turn = async (memory: boolean) => {
      const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-memturn-'));
      const { agent } = createStandinAgent({
        url: standin.url,
        cwd,
        extra: memory ? { memory: { dir: join(cwd, '..', `${cwd.split('/').pop()}-memory`), enabled: () => true } } : {},
      });
      const times: number[] = [];
      let drainMs = 0;
      for (let i = 0; i < 10; i++) {
        // The extraction fork (when on) gets the stand-in's default reply: nothing to save.
        standin.enqueue({ when: `question ${i}`, content: [{ type: 'text', text: `answer ${i}` }] });
        const t = performance.now();
        await agent.submit(`question ${i}`);
        times.push(performance.now() - t);
        const d = performance.now();
        await agent.drain();
        drainMs += performance.now() - d;
      }
      return { turn: median(times), drain: drainMs / 10 };
    };
    await turn(false); // warm-up: module loading and the first connections
    const off = await turn(false);
    const on = await turn(true);

    // Compaction: from session notes (no request) vs an LLM summary (one request).
    const compaction = async (notes: boolean) => {
      const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-smc-'));
      const notesPath = join(cwd, '.notes', 'n.md');
      const { agent } = createStandinAgent({
        url: standin.url,
        cwd,
        settings: { autoCompact: false },
        extra: notes ? { memory: { dir: join(cwd, '.mem'), enabled: () => false, sessionNotesPath: notesPath } } : {},
      });
      standin.enqueue({ when: 'Please look', content: [{ type: 'text', text: 'Loaded.' }] });
      if (notes) standin.enqueue({ when: 'Update the session notes', content: [{ type: 'tool_use', name: 'Edit', input: { file_path: notesPath, old_string: '## Current task', new_string: '## Current task\nAnalyse the rows.' } }] });
      await agent.submit(`Please look at this:\n${bulk(1200)}`);
      await agent.drain();
      standin.enqueue({ when: 'one more', content: [{ type: 'text', text: 'Second.' }] });
      await agent.submit('one more question');
      // From notes, compaction sends nothing (the figure counts any request it does send).
      if (!notes) standin.enqueue({ when: 'about to be replaced by a summary', content: [{ type: 'text', text: '<summary>1. Primary request: analyse the rows.</summary>' }] });
      const before = standin.requests.length;
      const t = performance.now();
      await agent.compactNow();
      return { ms: performance.now() - t, requests: standin.requests.length - before, tokensAfter: agent.usedTokens() };
    };
    const sm = await compaction(true);
    const llm = await compaction(false);
    return {
      index200LoadMedianMs: +median(loads).toFixed(3),
      turnMsMemoryOff: +off.turn.toFixed(2),
      turnMsMemoryOn: +on.turn.toFixed(2),
      extractionAfterTurnMs: +on.drain.toFixed(2),
      compactFromNotesMs: +sm.ms.toFixed(2),
      compactFromNotesRequests: sm.requests,
      compactFromNotesTokensAfter: sm.tokensAfter,
      compactBySummaryMs: +llm.ms.toFixed(2),
      compactBySummaryRequests: llm.requests,
      compactBySummaryTokensAfter: llm.tokensAfter,
    };
  } finally {
    await standin.close();
  }
}
