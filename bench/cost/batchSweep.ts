// Checks micro-compaction's cost model against brute force: the same session played
// by the in-process agent (main loop only: no forks, pointers on) once with the default batch
// rule (the cost model decides, over a 20k-token floor) and once per fixed batch size, where a
// batch is cleared as soon as it reaches the size (the model's check off). Prints the billed main-loop
// tokens of each, and which is cheapest.
//   node --import tsx bench/cost/batchSweep.ts [quick|full] [session ...]
import { join } from 'node:path';
import { ContextService } from '../../src/context/contextService';
import { createStandinAgent } from '../../test/support/standinAgent';
import { measure, MODEL, type Play } from './measure';
import { buildSession, type SessionName, type Variant } from './session';
import type { MicroCompactConfig } from '../../src/compact/microCompact';
import { testHost } from '../../test/support/host';

function play(config: Partial<MicroCompactConfig> | undefined): Play {
  return async (ctx) => {
    const context = new ContextService({ cwd: ctx.cwd, home: ctx.home, managedRoot: join(ctx.home, 'managed'), host: testHost() });
    const { agent } = createStandinAgent({
      url: ctx.url,
      cwd: ctx.cwd,
      settings: { model: MODEL, contextWindow: ctx.window, microCompact: true, autoCompact: true },
      rules: { allow: ['Read'] },
      headless: true,
      maxTurns: 100,
      extra: { context, ...(config ? { microConfig: config } : {}) },
    });
    for (const p of ctx.session.prompts) await agent.submit(p.text);
    await agent.drain();
    return [];
  };
}

// A batch "of at least N tokens, whatever the model says": the model's check is made to pass by
// expecting enough future turns that the reads saved always outweigh the rewrite.
const FORCED = 10_000;
const SIZES = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000];

async function main(): Promise<void> {
  const variant = (process.argv[2] === 'full' ? 'full' : 'quick') as Variant;
  const names = (process.argv.slice(3).length ? process.argv.slice(3) : ['newFiles', 'workingSet', 'chat']) as SessionName[];
  for (const name of names) {
    const session = buildSession(name, variant);
    const rows: Array<[string, number]> = [];
    const model = await measure(session, play(undefined));
    rows.push(['cost model (default)', model.figures.billedMain]);
    const off = await measure(session, play({ clearAtLeastTokens: Number.MAX_SAFE_INTEGER }));
    rows.push(['never clear', off.figures.billedMain]);
    for (const size of SIZES) {
      const r = await measure(session, play({ clearAtLeastTokens: size, expectedFutureTurns: FORCED }));
      rows.push([`batch >= ${size / 1000}k`, r.figures.billedMain]);
    }
    const best = rows.slice(1).reduce((a, b) => (b[1] < a[1] ? b : a));
    console.log(`\n${variant}.${name}: billed main-loop tokens (k)`);
    for (const [label, billed] of rows) console.log(`  ${label.padEnd(22)} ${(billed / 1000).toFixed(0).padStart(6)}k${label === best[0] ? '  <- best fixed' : ''}`);
    console.log(`  cost model over the best fixed batch: ${(rows[0]![1] / best[1]).toFixed(3)}x`);
  }
}

void main();
