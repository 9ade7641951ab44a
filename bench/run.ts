import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchActivate } from './activate.bench';
import { benchAgent } from './agent.bench';
import { benchSessions } from './sessions.bench';
import { benchContext } from './context.bench';
import { benchCompaction } from './compaction.bench';
import { benchMemory } from './memory.bench';
import { benchValidity } from './validity.bench';
import { benchBundles } from './bundle.bench';
import { benchViewSync } from './viewSync.bench';
import { benchCost, benchCostQuick } from './cost.bench';
import { BenchCheckFailed } from './checks';

const root = join(__dirname, '..');

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const suites: [string, () => Promise<Record<string, number>> | Record<string, number>][] = [
    ['viewSync', benchViewSync],
    ['bundles', () => benchBundles(root)],
    ['activate', () => benchActivate(root)],
    ['agent', benchAgent],
    ['sessions', benchSessions],
    ['context', benchContext],
    ['compaction', benchCompaction],
    ['memory', benchMemory],
    ['validity', () => benchValidity(root)],
    ['costQuick', benchCostQuick],
    ['cost', benchCost],
  ];
  const unknown = only.filter((n) => !suites.some(([name]) => name === n));
  if (unknown.length) throw new Error(`no benchmark named ${unknown.join(', ')}; there are ${suites.map(([n]) => n).join(', ')}`);
  const results: Record<string, Record<string, number>> = {};
  const failed: string[] = [];
  for (const [name, run] of suites) {
    if (only.length && !only.includes(name)) continue;
    try {
      results[name] = await run();
    } catch (err) {
      if (!(err instanceof BenchCheckFailed)) throw err;
      results[name] = err.figures;
      failed.push(...err.failures.map((f) => `${name}: ${f}`));
    }
    console.log(`\n## ${name}`);
    for (const [k, v] of Object.entries(results[name]!)) console.log(`${k.padEnd(28)} ${v}`);
  }
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results/latest.json'), JSON.stringify({ at: new Date().toISOString(), results, failed }, null, 2));
  if (failed.length) {
    console.error(`\n${failed.length} figure(s) more than twice over target:\n${failed.map((f) => `  ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
