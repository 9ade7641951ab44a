import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions, type PermissionRules } from '../../../src/permissions/permissions';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

interface Hostile {
  command: string;
  trick: string;
  /** Commands it surely runs: a deny rule for any of them must deny it. */
  runs?: string[];
  /** Commands it may run that no one can see before it runs: a deny rule for them must not allow it. */
  hides?: string[];
}
interface Ordinary {
  command: string;
  allow: string[];
  note: string;
  /** Why a deny rule for a program it never names makes it ask (it hands a program not known to be inert something it could run). */
  asksUnderDeny?: string;
  /** Why its rule covers it and it asks all the same (it names a file outside the workspace). */
  asks?: string;
}

const fixtures = join(__dirname, '../../fixtures/bash');
const hostile = JSON.parse(readFileSync(join(fixtures, 'hostileCommands.json'), 'utf8')) as Hostile[];
const ordinary = JSON.parse(readFileSync(join(fixtures, 'ordinaryCommands.json'), 'utf8')) as Ordinary[];

/** The allow rules users write most: none of them may let a hostile command through. */
const ALLOW = ['Bash(echo:*)', 'Bash(npm test:*)', 'Bash(touch:*)', 'Bash(git status)', 'Bash(ls:*)'];
const bash = createTools().find((t) => t.name === 'Bash') as Tool;

async function decide(rules: Partial<PermissionRules>, command: string): Promise<string> {
  const p = new Permissions({ cwd: process.cwd(), rules: () => ({ allow: [], ask: [], deny: [], ...rules }), trusted: () => true });
  await p.ready();
  return (await p.decide({ tool: bash, input: { command } })).behavior;
}

const label = (s: string) => JSON.stringify(s.length > 70 ? `${s.slice(0, 67)}…` : s);

describe('hostile commands', () => {
  it('the corpus has at least 200 entries, each with its trick', () => {
    assert.ok(hostile.length >= 200, `${hostile.length} entries`);
    for (const h of hostile) assert.ok(h.trick.length > 0 && h.command.length > 0, JSON.stringify(h));
    assert.equal(new Set(hostile.map((h) => h.command)).size, hostile.length, 'no duplicates');
  });

  for (const h of hostile) {
    it(`${label(h.command)} (${h.trick})`, async () => {
      assert.equal(await decide({ allow: ALLOW }, h.command), 'ask', 'auto-allowed by the allow rules');
      for (const name of h.runs ?? []) {
        const rule = `Bash(${name}:*)`;
        assert.equal(await decide({ allow: ALLOW, deny: [rule] }, h.command), 'deny', `${rule} denied`);
        assert.equal(await decide({ allow: ['Bash'], deny: [rule] }, h.command), 'deny', `Bash allowed, ${rule} denied`);
        assert.equal(await decide({ allow: ['Bash'], ask: [rule] }, h.command), 'ask', `Bash allowed, ${rule} asks`);
      }
      for (const name of h.hides ?? []) {
        const rule = `Bash(${name}:*)`;
        assert.notEqual(await decide({ allow: ['Bash'], deny: [rule] }, h.command), 'allow', `Bash allowed, ${rule} denied: must not allow what it cannot see`);
      }
    });
  }
});

describe('ordinary commands stay allowed', () => {
  for (const o of ordinary) {
    it(`${label(o.command)} (${o.note})`, async () => {
      if (o.asks) {
        assert.equal(await decide({ allow: o.allow }, o.command), 'ask', o.asks);
        return;
      }
      assert.equal(await decide({ allow: o.allow }, o.command), 'allow');
      // A deny rule for something it does not run changes nothing, unless it cannot tell.
      assert.equal(await decide({ allow: o.allow, deny: ['Bash(rm:*)'] }, o.command), o.asksUnderDeny ? 'ask' : 'allow', 'with Bash(rm:*) denied');
      if (o.allow.length > 1) {
        for (const missing of o.allow) {
          const rest = o.allow.filter((r) => r !== missing);
          assert.equal(await decide({ allow: rest }, o.command), 'ask', `without ${missing}`);
        }
      }
    });
  }
});
