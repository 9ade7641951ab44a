// A Bash rule's pattern against the words of one command: what an allow rule covers as written,
// and what a deny or ask rule catches (past options, through paths, 'maybe' for computed words).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowCovers, compilePattern, denyMatches } from '../../../src/permissions/bash/rules';

// The checker splits a rule as the shell would; plain spaces are enough for these patterns.
const split = (text: string) => text.trim().split(/\s+/).filter(Boolean);
const rule = (pattern: string) => compilePattern(pattern, split);
const words = (text: string) => text.split(' ');
const COMPUTED = undefined;

describe('compiling a pattern', () => {
  it(':* is a prefix, a * anywhere a wildcard, anything else exact', () => {
    assert.deepEqual(rule('npm test:*'), { kind: 'prefix', words: ['npm', 'test'] });
    assert.deepEqual(rule('git status'), { kind: 'exact', words: ['git', 'status'] });
    const w = rule(' git * main ');
    assert.equal(w.kind, 'wildcard');
    assert.ok(w.kind === 'wildcard' && w.first === 'git');
    assert.ok(w.kind === 'wildcard' && w.literals.join(',') === 'git,main');
    const any = rule('* --help');
    assert.ok(any.kind === 'wildcard' && any.first === undefined);
    assert.equal(rule('echo \\*').kind, 'exact', 'an escaped star is a star');
  });
});

describe('allow rules cover a command as written', () => {
  it('a prefix covers the command and what follows it, at a word boundary', () => {
    const p = rule('npm test:*');
    assert.equal(allowCovers(p, words('npm test')), true);
    assert.equal(allowCovers(p, words('npm test --watch')), true);
    assert.equal(allowCovers(p, words('npm testing')), false);
    assert.equal(allowCovers(p, words('npm')), false);
    assert.equal(allowCovers(p, words('npx test')), false);
    assert.equal(allowCovers(p, []), false);
    assert.equal(allowCovers(rule(':*'), words('anything')), false, 'an empty prefix covers nothing');
  });

  it('exact covers exactly those words', () => {
    const p = rule('git status');
    assert.equal(allowCovers(p, words('git status')), true);
    assert.equal(allowCovers(p, words('git status -s')), false);
    assert.equal(allowCovers(p, words('git')), false);
    assert.equal(allowCovers(p, words('git stash')), false);
  });

  it('a wildcard matches words in between; a single trailing " *" also matches nothing', () => {
    const p = rule('git * main');
    assert.equal(allowCovers(p, words('git push origin main')), true);
    assert.equal(allowCovers(p, words('git push origin dev')), false);
    assert.equal(allowCovers(p, words('git main')), false, 'the spaces around * are literal');
    const ls = rule('ls *');
    assert.equal(allowCovers(ls, words('ls')), true);
    assert.equal(allowCovers(ls, words('ls -la src')), true);
    assert.equal(allowCovers(ls, words('lsof')), false);
    assert.equal(allowCovers(rule('ls * *'), words('ls')), false, 'with two stars nothing is optional');
    assert.equal(allowCovers(rule('echo a.b *'), words('echo aXb x')), false, 'a dot is a dot');
    assert.equal(allowCovers(rule('echo \\* *'), words('echo * x')), true, 'an escaped star is literal');
    assert.equal(allowCovers(rule('echo \\* *'), words('echo y x')), false);
    assert.equal(allowCovers(rule('echo a\\\\b *'), ['echo', 'a\\b', 'x']), true, 'an escaped backslash is one backslash');
  });

  it('a wildcard that names no command does not cover a runner, nor a computed command name', () => {
    const p = rule('* --help');
    assert.equal(allowCovers(p, words('ls --help')), true);
    assert.equal(allowCovers(p, words('sudo rm --help')), false);
    assert.equal(allowCovers(p, words('/usr/bin/sudo rm --help')), false);
    assert.equal(allowCovers(p, [COMPUTED, '--help']), false);
    assert.equal(allowCovers(rule('sudo * --help'), words('sudo ls --help')), true, 'a rule that names the runner covers it');
    assert.equal(allowCovers(rule('ls *'), ['ls', COMPUTED]), true, 'a star covers a computed word');
    assert.equal(allowCovers(rule('ls x'), ['ls', COMPUTED]), false);
  });
});

describe('deny rules catch what the command runs', () => {
  it('a prefix sees its words past options and through a path to the program', () => {
    const p = rule('git push:*');
    assert.equal(denyMatches(p, words('git push')), 'yes');
    assert.equal(denyMatches(p, words('git -C ../x push --force')), 'yes');
    assert.equal(denyMatches(p, words('git status')), 'no');
    assert.equal(denyMatches(p, words('git')), 'no');
    assert.equal(denyMatches(p, ['git', COMPUTED]), 'maybe');
    assert.equal(denyMatches(p, [COMPUTED, 'push']), 'maybe', 'a computed program may be anything');
    assert.equal(denyMatches(rule('/usr/bin/git push:*'), words('git push')), 'yes');
    assert.equal(denyMatches(rule('git push origin:*'), words('git origin push')), 'no', 'in order');
    assert.equal(denyMatches(rule('git push origin:*'), words('git push x origin')), 'yes');
  });

  it('exact matches those words only; a computed word makes it maybe', () => {
    const p = rule('npm publish');
    assert.equal(denyMatches(p, words('npm publish')), 'yes');
    assert.equal(denyMatches(p, words('npm publish --dry-run')), 'no');
    assert.equal(denyMatches(p, words('npm')), 'no');
    assert.equal(denyMatches(p, ['npm', COMPUTED]), 'maybe');
    assert.equal(denyMatches(p, words('yarn publish')), 'no');
    assert.equal(denyMatches(rule(':*'), words('rm')), 'no', 'an empty rule names nothing');
  });

  it('a wildcard with a command name matches only that command; without one, any', () => {
    const p = rule('rm * /');
    assert.equal(denyMatches(p, words('rm -rf /')), 'yes');
    assert.equal(denyMatches(p, words('rm -rf /tmp')), 'no');
    assert.equal(denyMatches(p, words('ls -rf /')), 'no');
    assert.equal(denyMatches(p, ['rm', '-rf', COMPUTED]), 'maybe');
    assert.equal(denyMatches(rule('/bin/rm * /'), words('rm -rf /')), 'yes', 'the rule names the program by its base name');
    assert.equal(denyMatches(rule('* --force'), words('git push --force')), 'yes');
    assert.equal(denyMatches(rule('* --force'), words('git push')), 'no');
  });
});
