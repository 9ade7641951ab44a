// Pass 39 C3 (high): each rule file's patterns had their own 100 ms budget, looked at only after
// each group of 8 patterns, and one group on a path 60 folders deep cost about a second; with
// 150 to 500 committed rule files one Read was held for minutes, past Ctrl+C. Now every rule file
// of one Read shares one budget, and the clock is looked at after each pattern. The case runs in a
// child with a deadline far beyond its cost and far short of for ever (runBounded).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPathsField } from '../../src/context/rulePaths';
import { runBounded } from '../support/bounded';

describe('pass 39 C3: many rule files of costly patterns against a deep path', () => {
  it('matching ends, and a cheap rule listed first still applies', () => {
    const out = runBounded(`
      const { matchingRules } = await load('context/instructions.ts');
      const costly = (r) => Array.from({ length: 8 }, (_, k) => '**/a*/**/a*/**/b' + r + '_' + k);
      const rule = (path, globs) => ({ path, kind: 'rule', content: 'x', base: '/ws', globs });
      const set = { conditional: [rule('/ws/.claude/rules/txt.md', ['*.txt']), ...Array.from({ length: 400 }, (_, r) => rule('/ws/.claude/rules/r' + r + '.md', costly(r)))] };
      const deep = Array.from({ length: 60 }, () => 'a'.repeat(60)).join('/') + '/zz.txt';
      const hit = matchingRules(set, '/ws/' + deep, '/ws').map((f) => f.path);
      const plain = matchingRules(set, '/ws/src/notes.txt', '/ws').map((f) => f.path);
      console.log(JSON.stringify({ hit, plain }));
    `, 60_000);
    const r = JSON.parse(out) as { hit: string[]; plain: string[] };
    assert.deepEqual(r.hit, ['/ws/.claude/rules/txt.md']);
    assert.deepEqual(r.plain, ['/ws/.claude/rules/txt.md']);
  });
});

describe('pass 38 C1: one paths: string of 40,000 comma-separated globs', () => {
  it('is read up to the same 1,000 items as a list', () => {
    const field = readPathsField({ paths: Array.from({ length: 40_000 }, (_, i) => `src/g${i}/**/*.ts`).join(',') });
    assert.equal(field.kind, 'globs');
    const globs = field.kind === 'globs' ? field.globs : [];
    assert.ok(globs.length <= 1_000 && globs.length > 900, String(globs.length));
    assert.equal(globs[0], 'src/g0/**/*.ts');
  });
});
