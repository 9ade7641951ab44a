import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchActivate } from './activate.bench';
import { benchAgent } from './agent.bench';
import { benchSessions } from './sessions.bench';
import { benchCrash } from './crash.bench';
import { benchContext } from './context.bench';
import { benchCompaction } from './compaction.bench';
import { benchMemory } from './memory.bench';
import { benchValidity } from './validity.bench';
import { benchBundles } from './bundle.bench';
import { benchViewSync } from './viewSync.bench';

const root = join(__dirname, '..');

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const suites: [string, () => Promise<Record<string, number>> | Record<string, number>][] = [
    ['viewSync', benchViewSync],
    ['bundles', () => benchBundles(root)],
    ['activate', () => benchActivate(root)],
    ['agent', benchAgent],
    ['sessions', benchSessions],
    ['crash', () => benchCrash(root)],
    ['context', benchContext],
    ['compaction', benchCompaction],
    ['memory', benchMemory],
    ['validity', () => benchValidity(root)],
  ];
  const results: Record<string, Record<string, number>> = {};
  for (const [name, run] of suites) {
    if (only.length && !only.includes(name)) continue;
    results[name] = await run();
    console.log(`\n## ${name}`);
    for (const [k, v] of Object.entries(results[name]!)) console.log(`${k.padEnd(28)} ${v}`);
  }
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results/latest.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
}

void main();
