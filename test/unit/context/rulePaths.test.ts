import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globsMatch, readPathsField } from '../../../src/context/rulePaths';

describe("a rule's paths: globs", () => {
  it('match a folder whose name starts with two dots: it is inside the base, not above it', () => {
    assert.equal(globsMatch(['..notes'], '..notes/a.md'), true);
    assert.equal(globsMatch(['*.md'], '..notes/a.md'), true);
  });

  it('never match a path above the base', () => {
    assert.equal(globsMatch(['**'], '../a.md'), false);
    assert.equal(globsMatch(['*.md'], '..'), false);
    assert.equal(globsMatch(['*.md'], '/etc/a.md'), false);
  });

  it('read a brace list as its alternatives', () => {
    const f = readPathsField({ paths: 'src/{a,b}.ts' });
    assert.deepEqual(f, { kind: 'globs', globs: ['src/a.ts', 'src/b.ts'] });
  });
});
