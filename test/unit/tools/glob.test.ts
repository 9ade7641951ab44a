import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import picomatch from 'picomatch';
import { runBounded } from '../../support/bounded';
import { anchoredGlob, globBase, globToRegExp, GlobSyntaxError } from '../../../src/tools/glob';

describe('globs through picomatch, matched by RE2', () => {
  it('a pattern built to backtrack answers at once on a long name (a hang fails by timeout)', () => {
    const out = runBounded(`
      const { globToRegExp } = await load('tools/glob.ts');
      const name = 'a'.repeat(255);
      const evil = globToRegExp('*a*a*a*a*a*a*a*a*a*a*a*a*b');
      const deep = 'a/'.repeat(1500) + 'x';
      console.log(JSON.stringify([evil.test(name), evil.test(name + 'b'), globToRegExp('**/a/**/a/**/a/**/a/**/a/**/b').test(deep)]));
    `);
    assert.deepEqual(JSON.parse(out), [false, true, false]);
  });

  it('keeps the meaning of a shell glob: classes, negated classes, braces, ranges, escapes', () => {
    assert.ok(globToRegExp('[!a-c]x.ts').test('dx.ts'));
    assert.ok(!globToRegExp('[!a-c]x.ts').test('bx.ts'));
    assert.ok(globToRegExp('[^a-c]x.ts').test('dx.ts'));
    assert.ok(globToRegExp('f{1..3}.md').test('f2.md'));
    assert.ok(!globToRegExp('f{1..3}.md').test('f4.md'));
    assert.ok(globToRegExp('a\\*b').test('a*b') && !globToRegExp('a\\*b').test('axb'));
    assert.ok(globToRegExp('**/.env').test('.env') && globToRegExp('**/.env').test('x/.env'));
    assert.ok(globToRegExp('.github/**').test('.github/workflows/ci.yml'), 'dot folders match like any other');
    assert.ok(!anchoredGlob('*.md').test('docs/a.md'), 'anchored: a bare name stays at the top');
    assert.ok(anchoredGlob('/etc/**').test('/etc/hosts'));
  });

  it('agrees with picomatch on normalized paths (property)', () => {
    const seg = fc.constantFrom('a', 'b', 'ab', '.x', 'a.ts', 'b.md', 'src', 'x-1', 'A');
    const path = fc.array(seg, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    const part = fc.constantFrom('*', '**', '?', 'a', 'b', '.ts', '.md', '{a,b}', '[a-b]', '[!a]', 'src', '.x', 'x-1');
    const segment = fc.array(part, { minLength: 1, maxLength: 3 }).map((p) => p.join('').replace(/\*{3,}/g, '**'));
    const glob = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        const expected = picomatch.isMatch(p, g, { dot: true, posix: true, noextglob: true, nonegate: true });
        assert.equal(anchoredGlob(g).test(p), expected, `${g} vs ${p}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what it cannot match safely with a clear error', () => {
    assert.throws(() => globToRegExp('x'.repeat(5000)), GlobSyntaxError);
  });

  it('splits the literal folders off a pattern, for walks that start below the root', () => {
    assert.deepEqual(globBase('src/**/*.ts'), { base: 'src', glob: '**/*.ts' });
    assert.deepEqual(globBase('./lib/*.js'), { base: 'lib', glob: '*.js' });
    assert.deepEqual(globBase('**/x'), { base: '', glob: '**/x' });
  });
});
