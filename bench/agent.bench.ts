import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStandinAgent } from '../test/support/standinAgent';
import { startStandin } from '../test/standin/server';
import { median } from './stats';

/**
 * Time to first token: a bare SDK stream vs. our agent (system prompt, tools, store updates,
 * the loop), both against the local stand-in, so the difference is our overhead.
 */
export async function benchAgent(): Promise<Record<string, number>> {
  const standin = await startStandin();
  const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-agent-'));
  const N = 40;
  try {
    const sdk = new Anthropic({ apiKey: 'k', baseURL: standin.url, maxRetries: 0 });
    const bare: number[] = [];
    for (let i = 0; i < N; i++) {
      standin.enqueue({ content: [{ type: 'text', text: 'hello there, this is a reply' }] });
      const t0 = performance.now();
      const stream = await sdk.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], stream: true });
      let first = 0;
      for await (const ev of stream) if (!first && ev.type === 'content_block_delta') first = performance.now() - t0;
      bare.push(first);
    }

    let t0 = 0;
    let first = 0;
    const { agent } = createStandinAgent({ url: standin.url, cwd, extra: { loopEvents: { onTextDelta: () => void (first ||= performance.now() - t0) } } });
    const ours: number[] = [];
    for (let i = 0; i < N; i++) {
      standin.enqueue({ content: [{ type: 'text', text: 'hello there, this is a reply' }] });
      first = 0;
      t0 = performance.now();
      await agent.submit('hi');
      ours.push(first);
    }
    // A long scripted session: heap after 500 turns, with GC forced when available.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 500; i++) {
      standin.enqueue({ content: [{ type: 'text', text: `turn ${i}: ${'lorem ipsum '.repeat(40)}` }] });
      await agent.submit(`question ${i}`);
      if (i % 100 === 99) standin.reset();
    }
    gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    return {
      ttftBareSdkMs: +median(bare).toFixed(2),
      ttftAgentMs: +median(ours).toFixed(2),
      ttftOverheadMs: +(median(ours) - median(bare)).toFixed(2),
      heapGrowthMbAfter500Turns: +((heapAfter - heapBefore) / 1e6).toFixed(1),
      historyMessagesAfter500Turns: agent.messages.length,
    };
  } finally {
    await standin.close();
  }
}
