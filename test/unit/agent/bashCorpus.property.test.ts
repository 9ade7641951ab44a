import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import { BashChecker } from '../../../src/permissions/bash/checker';
import { Permissions } from '../../../src/permissions/permissions';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

// Hostile commands stay hostile wherever they are put: inside a subshell, a group, a pipeline, a
// chain, a substitution or an inner script, next to commands the rules allow.

const fixtures = join(__dirname, '../../fixtures/bash');
const hostile = JSON.parse(readFileSync(join(fixtures, 'hostileCommands.json'), 'utf8')) as { command: string; runs?: string[] }[];
const ordinary = JSON.parse(readFileSync(join(fixtures, 'ordinaryCommands.json'), 'utf8')) as { command: string; allow: string[] }[];
const ALLOW = ['Bash(echo:*)', 'Bash(npm test:*)', 'Bash(touch:*)', 'Bash(git status)', 'Bash(ls:*)'];
const RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 400);

const bash = createTools().find((t) => t.name === 'Bash') as Tool;
const checker = new BashChecker();
before(() => checker.ready());

function decide(allow: string[], deny: string[], command: string): string {
  const p = new Permissions({ cwd: process.cwd(), rules: () => ({ allow, ask: [], deny }), trusted: () => true, bash: checker });
  return p.decide({ tool: bash, input: { command } }).behavior;
}

/** Places that keep a command whole (it cannot merge with what is around it). */
const PLACES: ((h: string, a: string) => string)[] = [
  (h, a) => `${a} && (${h}\n)`,
  (h, a) => `(${h}\n) | ${a}`,
  (h, a) => `{ ${h}\n}; ${a}`,
  (h, a) => `${a}\n(${h}\n)`,
  (h, a) => `${a} || ! (${h}\n)`,
  (h, a) => `${a} | (${h}\n) | ${a}`,
  (h) => `( ( ${h}\n) )`,
];

describe('hostile commands composed with allowed ones', () => {
  // Comments and here-docs would swallow what follows them, so they are not composed.
  const allowed = ordinary.filter((o) => o.allow.every((r) => ALLOW.includes(r)) && !/#|<</.test(o.command));

  it('are never auto-allowed, and a deny rule for what they run never turns into an allow', () => {
    fc.assert(
      fc.property(fc.constantFrom(...hostile), fc.constantFrom(...allowed), fc.constantFrom(...PLACES), (h, a, place) => {
        const command = place(h.command, a.command);
        assert.notEqual(decide(ALLOW, [], command), 'allow', command);
        for (const name of h.runs ?? []) assert.notEqual(decide(['Bash'], [`Bash(${name}:*)`], command), 'allow', `${command} with Bash(${name}:*) denied`);
      }),
      { numRuns: RUNS },
    );
  });

  it('rm spelled any way, behind any wrapper, in any place, is denied by Bash(rm:*)', () => {
    const spellings = ['rm', '/bin/rm', "'r''m'", '\\rm', '"rm"', "$'\\x72m'", 'r""m'];
    const wrappers = ['', 'sudo ', 'env FOO=1 ', 'nice -n 5 ', 'timeout 5 ', 'command ', 'xargs ', 'nohup ', 'exec '];
    const sq = (c: string) => `'${c.replace(/'/g, `'\\''`)}'`;
    const dq = (c: string) => `"${c.replace(/[\\"$`]/g, '\\$&')}"`;
    const shells = [(c: string) => c, (c: string) => `bash -c ${sq(c)}`, (c: string) => `sh -c ${dq(c)}`, (c: string) => `eval ${sq(c)}`];
    fc.assert(
      fc.property(fc.constantFrom(...spellings), fc.constantFrom(...wrappers), fc.constantFrom(...shells), fc.constantFrom(...allowed), fc.constantFrom(...PLACES), (rm, wrap, shell, a, place) => {
        const command = place(shell(`${wrap}${rm} -rf x`), a.command);
        assert.equal(decide(['Bash'], ['Bash(rm:*)'], command), 'deny', command);
      }),
      { numRuns: RUNS },
    );
  });
});
