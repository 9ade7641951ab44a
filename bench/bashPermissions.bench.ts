import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BashChecker } from '../src/permissions/bash/checker';
import { Permissions } from '../src/permissions/permissions';
import { createTools } from '../src/tools/builtin';
import type { Tool } from '../src/tools/types';
import { legacyDecide } from './legacyBashMatcher';
import { percentile } from './stats';

const ALLOW = ['Bash(echo:*)', 'Bash(npm test:*)', 'Bash(touch:*)', 'Bash(git status)', 'Bash(ls:*)'];
const DENY = ['Bash(rm:*)'];

/**
 * Decision time per Bash command over the hostile and ordinary corpora, parser warm, against the
 * old string matcher measured in the same run. The analysis cache is smaller than the corpus, so
 * every decision parses its command once (as a new command does) and no round reuses another's.
 */
export async function benchBashPermissions(root: string, opts: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const ROUNDS = opts.quick ? 3 : 15;
  const fixtures = join(root, 'test/fixtures/bash');
  const hostile = (JSON.parse(readFileSync(join(fixtures, 'hostileCommands.json'), 'utf8')) as { command: string }[]).map((h) => h.command);
  const ordinary = (JSON.parse(readFileSync(join(fixtures, 'ordinaryCommands.json'), 'utf8')) as { command: string }[]).map((o) => o.command);
  const commands = [...hostile, ...ordinary];
  const bash = createTools().find((t) => t.name === 'Bash') as Tool;
  const checker = new BashChecker(undefined, { cacheSize: 8 });
  await checker.ready();
  const permissions = new Permissions({ cwd: root, rules: () => ({ allow: ALLOW, ask: [], deny: DENY }), trusted: () => true, bash: checker });
  const decide = (command: string) => permissions.decide({ tool: bash, input: { command } }).behavior;

  // Warm both paths (JIT, compiled patterns) before timing.
  for (const c of commands) {
    decide(c);
    legacyDecide({ allow: ALLOW, deny: DENY }, c);
  }
  const parsed: number[] = [];
  const legacy: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of commands) {
      let t = performance.now();
      decide(c);
      parsed.push(performance.now() - t);
      t = performance.now();
      legacyDecide({ allow: ALLOW, deny: DENY }, c);
      legacy.push(performance.now() - t);
    }
  }
  const us = (ms: number) => +(ms * 1000).toFixed(1);
  const p50 = percentile(parsed, 0.5);
  const p50Legacy = percentile(legacy, 0.5);
  const hostileAllowed = hostile.filter((c) => decide(c) === 'allow').length;
  const legacyHostileAllowed = hostile.filter((c) => legacyDecide({ allow: ALLOW, deny: DENY }, c) === 'allow').length;
  return {
    commands: commands.length,
    decisions: parsed.length,
    parsedP50Us: us(p50),
    parsedP95Us: us(percentile(parsed, 0.95)),
    legacyP50Us: us(p50Legacy),
    legacyP95Us: us(percentile(legacy, 0.95)),
    p50RatioToLegacy: +(p50 / p50Legacy).toFixed(1),
    hostileAutoAllowed: hostileAllowed,
    legacyHostileAutoAllowed: legacyHostileAllowed,
  };
}
