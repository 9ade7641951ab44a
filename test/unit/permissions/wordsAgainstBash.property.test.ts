import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { quotingWord as word } from '../../support/bashWords';
import { fc } from '../../support/fastCheck';
import { BashChecker } from '../../../src/permissions/bash/checker';

// Every hole of passes 12–15 was a word the checks and bash read differently ($'\xc3\xa9', `\c`,
// braces, globs). The checks now claim to know a word only when they can say it exactly: this
// property holds them to it. Words are drawn from every quoting form bash has, and each word the
// analysis gives as known must be, byte for byte, the argument bash passes; the count of words
// must agree too, or a word was split or merged.

const RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 300);

const checker = new BashChecker(undefined, { cacheSize: 0 });
before(() => checker.ready());
const empty = mkdtempSync(join(tmpdir(), 'tl-words-'));
after(() => rmSync(empty, { recursive: true, force: true }));

/**
 * What bash prints for the script: each printf argument, and `B` each time the command `b` runs
 * (a command the script hides inside what the grammar may read as a quote). undefined when bash
 * cannot run it at all (an unclosed quote).
 */
function bashOutput(script: string): Buffer[] | undefined {
  const r = spawnSync('bash', ['--noprofile', '--norc', '-c', `b() { printf 'B\\0'; }; set -f; ${script}`], { cwd: empty, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: empty, LC_ALL: 'C.UTF-8' }, timeout: 5_000 });
  if (r.status === 2 || !r.stdout) return undefined;
  const out: Buffer[] = [];
  let start = 0;
  for (let i = r.stdout.indexOf(0); i >= 0; i = r.stdout.indexOf(0, start)) {
    out.push(r.stdout.subarray(start, i));
    start = i + 1;
  }
  return out;
}

describe('words the checks call known are the words bash passes', () => {
  it('every known word matches bash byte for byte, and the counts agree', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const script = `printf '%s\\0' ${words.join(' ')}`;
        const analysis = checker.analyze(script);
        if ('unavailable' in analysis || analysis.misread.length || analysis.globOptions) return;
        const theirs = bashOutput(script);
        if (theirs === undefined) return;
        // What the checks expect bash to print, from the commands and words they see.
        const ours: string[] = [];
        for (const c of analysis.commands) {
          if (c.words[0] === 'b') ours.push('B');
          else if (c.words[0] === 'printf' && c.words[1] === '%s\\0') ours.push(...(c.words.slice(2) as string[]));
          else return;
          // A word the checks do not know (a brace, a `\c`) may be any number of words to bash.
          if (c.words.includes(undefined)) return;
        }
        assert.equal(ours.length, theirs.length, `${script}: the checks see ${ours.length} words (${JSON.stringify(ours)}), bash prints ${theirs.length}`);
        ours.forEach((w, i) => {
          compared++;
          assert.equal(Buffer.from(w, 'utf8').toString('hex'), theirs[i]!.toString('hex'), `${script}: the checks read ${JSON.stringify(w)}, bash passes ${JSON.stringify(theirs[i]!.toString('latin1'))}`);
        });
      }),
      { numRuns: RUNS },
    );
    assert.ok(compared > RUNS / 3, `only ${compared} known words were compared`);
  });
});
