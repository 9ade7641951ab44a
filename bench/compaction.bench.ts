import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MicroCompactConfig } from '../src/compact/microCompact';
import type { AppSettings } from '../src/state/appState';
import { createStandinAgent } from '../test/support/standinAgent';
import { startStandin } from '../test/standin/server';

const TURNS = 100;
const WINDOW = 200_000;

interface Strategy {
  name: string;
  settings: Partial<AppSettings>;
  micro?: Partial<MicroCompactConfig>;
}

/**
 * A 100-turn session in which the model reads a different large file each turn (about 7k
 * tokens each, 700k in all: more than the window holds), under the stand-in's prompt-cache
 * simulation. Billed input = base x1 + cache write x1.25 + cache read x0.1.
 */
async function runStrategy(s: Strategy): Promise<Record<string, number>> {
  const standin = await startStandin();
  const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-compact-'));
  for (let i = 0; i < TURNS; i++) {
    const lines = Array.from({ length: 500 }, (_, k) => `export const value_${i}_${k} = ${k * i}; // generated line ${k} of module ${i}`);
    writeFileSync(join(cwd, `module${i}.ts`), lines.join('\n'));
  }
  try {
    let billed = 0;
    let peak = 0;
    let refused = 0;
    let compactions = 0;
    let latestResultsVerbatim = true;
    const threshold = () => store.getState().tokens.autoCompactAt;
    let overThreshold = 0;
    const { agent, store } = createStandinAgent({
      url: standin.url,
      cwd,
      settings: s.settings,
      extra: {
        ...(s.micro ? { microConfig: s.micro } : {}),
        loopEvents: {
          onTurnComplete: (turn, request) => {
            const u = turn.usage;
            const input = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
            billed += u.inputTokens + u.cacheCreationInputTokens * 1.25 + u.cacheReadInputTokens * 0.1;
            peak = Math.max(peak, input);
            if (input > WINDOW && s.settings.contextWindow === WINDOW) refused++;
            if (s.settings.autoCompact !== false && input > threshold()) overThreshold++;
            // The three latest tool results must be there word for word.
            const results = request.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
            if (results.slice(-3).some((b) => JSON.stringify(b.content).includes('Old tool result cleared'))) latestResultsVerbatim = false;
          },
        },
      },
    });
    agent['deps'].compactor?.onDidCompact(() => compactions++);
    // Summary requests are answered apart from the main turns.
    standin.enqueue({ when: 'about to be replaced by a summary', repeat: true, content: [{ type: 'text', text: '<summary>1. Primary request: review every module.\n8. Current work: reviewing modules in order.</summary>' }] });
    for (let i = 0; i < TURNS; i++) {
      standin.enqueue(
        { when: `Review module${i}.ts`, content: [{ type: 'tool_use', name: 'Read', input: { file_path: `module${i}.ts` } }] },
        { when: `value_${i}_499`, content: [{ type: 'text', text: `module${i}.ts defines 500 constants; nothing to change.` }] },
      );
      await agent.submit(`Review module${i}.ts`);
    }
    // Every request the stand-in answered, summaries included.
    const allBilled = standin.requests.reduce((n, r) => n + (r.status === 200 ? 1 : 0), 0);
    return {
      billedInputTokensK: +(billed / 1000).toFixed(0),
      peakRequestTokensK: +(peak / 1000).toFixed(1),
      compactions,
      requestsRefusedTooLong: refused,
      requestsOverAutoCompactThreshold: overThreshold,
      latestThreeResultsVerbatim: latestResultsVerbatim ? 1 : 0,
      requests: allBilled,
    };
  } finally {
    await standin.close();
  }
}

export async function benchCompaction(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const strategies: Strategy[] = [
    { name: 'unlimited', settings: { contextWindow: 10_000_000, autoCompact: false, microCompact: false } },
    { name: 'microEveryTurn', settings: { contextWindow: WINDOW, autoCompact: false, microCompact: true }, micro: { clearAtLeastTokens: 0, expectedFutureTurns: 1_000 } },
    { name: 'default', settings: { contextWindow: WINDOW } },
  ];
  for (const s of strategies) {
    const r = await runStrategy(s);
    for (const [k, v] of Object.entries(r)) out[`${s.name}.${k}`] = v;
  }
  out['default/unlimited billed ratio'] = +(out['default.billedInputTokensK']! / out['unlimited.billedInputTokensK']!).toFixed(3);
  return out;
}
