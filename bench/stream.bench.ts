import Anthropic from '@anthropic-ai/sdk';
import { MessagesClient } from '../src/api/messagesClient';
import type { MessagesRequest } from '../src/api/types';
import { startStandin, type ScriptedTurn } from '../test/standin/server';
import { median } from './stats';

/**
 * One long streamed answer (thinking, 12 KB of text in 8-character deltas, a tool call) read
 * three ways against the local stand-in: the bare SDK event iterator (no accumulation), the SDK's
 * MessageStream, and our client (MessageStream plus the idle watch, the observer and the turn).
 * The ratios to the bare iterator, measured in the same run, are the cost of accumulating.
 */
export async function benchStream(opts: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const standin = await startStandin({ recordBodies: false });
  const N = opts.quick ? 10 : 40;
  const turn: ScriptedTurn = {
    content: [
      { type: 'thinking', thinking: 'Weigh the options. '.repeat(100) },
      { type: 'text', text: 'All work and no play makes a long answer. '.repeat(290) },
      { type: 'tool_use', name: 'Read', input: { file_path: 'src/some/file.ts', offset: 1, limit: 2000 } },
    ],
    repeat: true,
  };
  const body = { model: 'claude-sonnet-4-6', max_tokens: 32_000, messages: [{ role: 'user' as const, content: 'go' }] };
  const request: MessagesRequest = { model: body.model, maxTokens: body.max_tokens, system: [{ type: 'text', text: 'sys' }], tools: [], messages: body.messages, source: 'main' };
  // Interleaved, each round in a rotating order, so load from other processes hits all three alike.
  const timeAll = async (runs: Array<() => Promise<unknown>>) => {
    const out = runs.map(() => [] as number[]);
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < runs.length; k++) {
        const j = (i + k) % runs.length;
        const t0 = performance.now();
        await runs[j]!();
        out[j]!.push(performance.now() - t0);
      }
    }
    return out.map(median);
  };
  try {
    standin.enqueue(turn);
    const sdk = new Anthropic({ apiKey: 'k', baseURL: standin.url, maxRetries: 0 });
    const ours = new MessagesClient({ apiKey: 'k', baseUrl: standin.url });
    let deltas = 0;
    // Warm up each path once (tokenizer, connection pool, JIT).
    await ours.stream(request, new AbortController().signal);
    const [bare, messageStream, client] = (await timeAll([
      async () => {
        const s = await sdk.messages.create({ ...body, stream: true });
        for await (const ev of s) if (ev.type === 'content_block_delta') deltas++;
      },
      () => sdk.messages.stream(body).finalMessage(),
      () => ours.stream(request, new AbortController().signal, { onTextDelta: () => void deltas++ }),
    ])) as [number, number, number];
    return {
      longAnswerBareSdkMs: +bare.toFixed(2),
      longAnswerMessageStreamMs: +messageStream.toFixed(2),
      longAnswerClientMs: +client.toFixed(2),
      messageStreamVsBare: +(messageStream / bare).toFixed(2),
      clientVsBare: +(client / bare).toFixed(2),
      deltasPerAnswer: Math.round(deltas / (2 * N)),
    };
  } finally {
    await standin.close();
  }
}
