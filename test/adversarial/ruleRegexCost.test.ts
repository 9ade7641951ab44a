// Pass 38 C2 (high): a Bash wildcard rule became a backtracking RegExp, each `*` a `[\s\S]*`. A
// clone's `.claude/settings.json` may always restrict, so its deny rule
// `Bash(*e*e*e*e*e*e*e*e*e*e*e*e*Q)` applied untrusted, and one `cat` of long names held the main
// thread past SIGTERM for minutes. Wildcard rules now run on RE2. The case runs in a child with a
// deadline far beyond its cost and far short of for ever (runBounded); nothing here is timed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runBounded } from '../support/bounded';

describe('pass 38 C2: a wildcard Bash rule with many stars', () => {
  it('matching it against a long command ends, and it still matches what it names', () => {
    const out = runBounded(`
      const { compilePattern, denyMatches, allowCovers } = await load('permissions/bash/rules.ts');
      const split = (t) => t.split(/\\s+/).filter(Boolean);
      const bomb = compilePattern('*e*e*e*e*e*e*e*e*e*e*e*e*Q', split);
      const long = ['cat', ...Array.from({ length: 4 }, (_, i) => 'e'.repeat(400) + i + '.txt')];
      const results = [denyMatches(bomb, long), allowCovers(bomb, long), denyMatches(bomb, ['cat', 'e'.repeat(12) + 'Q'])];
      const named = compilePattern('git * main', split);
      results.push(allowCovers(named, ['git', 'push', 'origin', 'main']), allowCovers(named, ['git', 'push', 'origin', 'dev']));
      console.log(JSON.stringify(results));
    `, 60_000);
    assert.deepEqual(JSON.parse(out), ['no', false, 'yes', true, false]);
  });
});
