// Pass 31, F3 and F4: patterns a repository writes that cost without bound, on the main thread,
// where Ctrl+C is not served. A `.gitignore` line of 20 `**/` against a folder 30 deep made the
// `ignore` library backtrack for ever (every Glob, Grep and Bash walk, and a rule's `paths:`);
// 584 bytes of nested YAML aliases in a rule's `paths:` stood for 10^10 strings. Runs of `**`
// fold into one and a pattern with more than three is left out (fs/gitignore.ts); frontmatter
// holds at most 10,000 values, aliases counted per use (base/frontmatter.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { FrontmatterError, parseFrontmatter } from '../../src/base/frontmatter';
import { boundedPatterns } from '../../src/fs/gitignore';
import { tempDir } from './support';

const root = resolve(__dirname, '../..');

/** The case in a child with a deadline far beyond its cost (milliseconds), far short of for ever. */
function child(mode: string, ws: string): Record<string, unknown> {
  const loader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const out = execFileSync(process.execPath, ['--import', loader, join(import.meta.dirname, 'patternBombs-child.mts'), mode, ws], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_ENV: 'test' } });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

function deepRepo(): string {
  const ws = tempDir('bombs');
  mkdirSync(join(ws, 'a', ...Array(30).fill('x')), { recursive: true });
  writeFileSync(join(ws, 'a', ...Array(30).fill('x'), 'c.txt'), 'c');
  return ws;
}

const ALIAS_BOMB = ['---', 'a0: &a0 [x, y, z, w, v, u, t, s, r, q]', ...Array.from({ length: 8 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`), `paths: [${Array(10).fill('*a8').join(', ')}]`, '---', '# rule', ''].join('\n');

describe('pass 31 F3: a gitignore-style pattern that backtracks for ever', () => {
  it('a .gitignore line of 20 `**/` against a folder 30 deep is matched at once', () => {
    const ws = deepRepo();
    writeFileSync(join(ws, '.gitignore'), `a/${'**/'.repeat(20)}b\nbuild/\n`);
    assert.deepEqual(child('gitignore', ws), { ignored: false, plain: true });
  });

  it("the same pattern in a rule's paths:", () => {
    assert.deepEqual(child('paths', deepRepo()), { matched: false, plain: true });
  });

  it('thousands of patterns, each within bounds, against long deep names: the match ends (pass 37 B1)', () => {
    assert.deepEqual(child('many', deepRepo()), { matched: false, plain: true });
  });

  it('runs of ** fold into one; a pattern with more than three is left out; ordinary ones stay', () => {
    assert.deepEqual(boundedPatterns(['a/**/**/**/b', '**/**/x', 'a/**/b/**/c/**/d/**/e', '**/node_modules/**', 'src/**/test/**/*.ts', '# comment', '']), ['a/**/b', '**/x', '**/node_modules/**', 'src/**/test/**/*.ts', '# comment', '']);
  });
});

describe('pass 31 F4: a YAML alias bomb in frontmatter', () => {
  it('is refused as frontmatter holding too many values', () => {
    assert.throws(() => parseFrontmatter(ALIAS_BOMB), (e: unknown) => e instanceof FrontmatterError && /more than 10000 values/.test(e.message));
    assert.deepEqual(parseFrontmatter('---\npaths: [a, b]\nlist: &l [1, 2]\nagain: *l\n---\nx').data, { paths: ['a', 'b'], list: [1, 2], again: [1, 2] });
  });

  it('a rule file holding one does not stop discovery', () => {
    const ws = tempDir('bombs-rules');
    mkdirSync(join(ws, '.claude', 'rules'), { recursive: true });
    writeFileSync(join(ws, '.claude', 'rules', 'bomb.md'), ALIAS_BOMB);
    writeFileSync(join(ws, 'CLAUDE.md'), 'Project notes.\n');
    const out = child('rules', ws) as { files: string[] };
    assert.ok(out.files.some((f) => f.endsWith('CLAUDE.md')), JSON.stringify(out));
  });
});
