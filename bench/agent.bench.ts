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
export async function benchAgent(opts: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const standin = await startStandin();
  const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-agent-'));
  // Rounds of pairs, each round a fresh agent: a millisecond-scale ratio needs many pairs to hold
  // still on a shared machine, and one conversation growing through all of them would make the
  // figure depend on how many were taken.
  const ROUNDS = opts.quick ? 4 : 8;
  const PAIRS = 20;
  const TURNS = opts.quick ? 100 : 500;
  try {
    const sdk = new Anthropic({ apiKey: 'k', baseURL: standin.url, maxRetries: 0 });
    // The bare stream sends the very request the agent just sent (system prompt, tools, history),
    // so both pay the stand-in the same and the difference is the agent's own work.
    const bareOnce = async (body: Record<string, unknown>) => {
      standin.enqueue({ content: [{ type: 'text', text: 'hello there, this is a reply' }] });
      const t0 = performance.now();
      const stream = await sdk.messages.create({ ...(body as unknown as Anthropic.MessageCreateParamsNonStreaming), stream: true });
      let first = 0;
      for await (const ev of stream) if (!first && ev.type === 'content_block_delta') first = performance.now() - t0;
      return first;
    };
    let t0 = 0;
    let first = 0;
    const newAgent = () => createStandinAgent({ url: standin.url, cwd, extra: { loopEvents: { onTextDelta: () => void (first ||= performance.now() - t0) } } }).agent;
    const agentOnce = async (agent: ReturnType<typeof newAgent>) => {
      standin.enqueue({ content: [{ type: 'text', text: 'hello there, this is a reply' }] });
      first = 0;
      t0 = performance.now();
      await agent.submit('hi');
      return first;
    };
    const lastBody = () => standin.requests.at(-1)!.body as Record<string, unknown>;
    const bare: number[] = [];
    const ours: number[] = [];
    let agent = newAgent();
    for (let round = 0; round < ROUNDS; round++) {
      agent = newAgent();
      // Warm both paths up, then alternate them, so JIT and machine noise fall on both alike.
      for (let i = 0; i < 5; i++) {
        await agentOnce(agent);
        await bareOnce(lastBody());
      }
      for (let i = 0; i < PAIRS; i++) {
        ours.push(await agentOnce(agent));
        bare.push(await bareOnce(lastBody()));
      }
      standin.reset();
    }
    // A long scripted session: heap after 500 turns, with GC forced when available.
    agent = newAgent();
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < TURNS; i++) {
      standin.enqueue({ content: [{ type: 'text', text: `turn ${i}: ${'lorem ipsum '.repeat(40)}` }] });
      await agent.submit(`question ${i}`);
      if (i % 100 === 99) standin.reset();
    }
    gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    return {
      ttftBareSdkMs: +median(bare).toFixed(2),
      ttftAgentMs: +median(ours).toFixed(2),
      ttftOverheadMs: +median(ours.map((o, i) => o - bare[i]!)).toFixed(2),
      // The median of each pair's ratio: a pair is measured back to back, so a burst of load
      // from elsewhere lands on both of its halves, where a ratio of medians mixes moments.
      ttftAgentOverBare: +median(ours.map((o, i) => o / bare[i]!)).toFixed(3),
      // Scaled to 500 turns in the quick variant, so the target means the same.
      heapGrowthMbAfter500Turns: +(((heapAfter - heapBefore) / 1e6) * (500 / TURNS)).toFixed(1),
      historyMessagesAfter500Turns: Math.round(agent.messages.length * (500 / TURNS)),
    };
  } finally {
    await standin.close();
  }
}
