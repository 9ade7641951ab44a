// Pass 33, A1, A3, A4 (medium, low): rule shapes a clone's files may hold. A4: one deny rule with a
// look-around (`Read(/(?<=x))`) ended every run at the first file judged. A1: 2 KB deny rules of
// nested braces cost 25 s at the first file judged. Both are now said when the rules are read and
// skipped, and a pattern that still cannot be compiled takes every file of a deny rule's tool.
// A3: a rule's `paths:` globs were compiled again on every file read; they are kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globsMatch, matcherBuilds, readPathsField } from '../../src/context/rulePaths';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { tempDir } from './support';

const read = createTools().find((t) => t.name === 'Read') as Tool;

describe('pass 33 A1, A4: deny rules no glob can be made of', () => {
  it('are said once and skipped, and decisions go on', () => {
    const ws = tempDir('ruleshapes');
    const warnings: string[] = [];
    const nested = `Read(/${'{a,'.repeat(40)}b${'}'.repeat(40)})`;
    const p = new Permissions({ cwd: ws, rules: () => ({ allow: [], ask: [], deny: ['Read(/(?<=x))', nested, 'Read(secret.txt)'] }), trusted: () => false }, (m) => warnings.push(m));
    assert.equal(p.decide({ tool: read, input: { file_path: `${ws}/a.txt` } }).behavior, 'allow');
    assert.equal(p.decide({ tool: read, input: { file_path: `${ws}/secret.txt` } }).behavior, 'deny', 'the good rule still holds');
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.ok(warnings.every((w) => /the rule is ignored/.test(w)));
  });
});

describe("pass 33 A3: a rule's paths: globs", () => {
  it('are compiled once across many files', () => {
    const globs = Array.from({ length: 500 }, (_, i) => `src/area${i}/**/*.ts`);
    globsMatch(globs, 'src/area1/a.ts');
    const before = matcherBuilds();
    for (let i = 0; i < 50; i++) assert.equal(globsMatch(globs, `src/area${i}/x${i}.ts`), true);
    assert.equal(matcherBuilds() - before, 0);
  });
});

describe("pass 36 B3: a rule's paths: holding thousands of items", () => {
  it('is read to 1,000 items', () => {
    const paths = Array.from({ length: 9000 }, (_, i) => `src/area${i}/**/*.ts`);
    const field = readPathsField({ paths });
    assert.equal(field.kind, 'globs');
    assert.equal(field.kind === 'globs' ? field.globs.length : 0, 999);
  });
});
