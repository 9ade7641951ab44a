// Pass 37, B3 (medium): RE2 is linear in the line but not in the pattern: `.{1000}` twenty
// times over one unmodified 300 KB minified file held the main thread for minutes, past Ctrl+C.
// A pattern whose counted repetitions add up to more than 1,000 is refused with a clear error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';

const grep = createTools().find((t) => t.name === 'Grep') as Tool;

describe('pass 37 B3: a Grep pattern of huge counted repetitions', () => {
  it('is refused at once, and ordinary counts pass', () => {
    const r = grep.parse({ pattern: `${'.{1000}'.repeat(20)}[\\x01-\\x08]` });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /add up to more than 1000/);
    assert.equal(grep.parse({ pattern: '(a|b).{1000}(a|b).{900}[^a]' }).ok, false);
    assert.equal(grep.parse({ pattern: '\\d{3}-\\d{4}' }).ok, true);
    assert.equal(grep.parse({ pattern: 'x\\{1000\\}' }).ok, true, 'escaped braces are text');
  });
});

// Pass 39 C1 (medium): the sum of written counts bounds neither nesting nor a spelled-out pattern.
describe('pass 39 C1: nested counts and spelled-out repetitions', () => {
  it('are refused by the compiled size; a pattern at a thousand steps and ordinary ones pass', () => {
    for (const pattern of [`${'((.{10}){10}){10}'.repeat(30)}[\\x01-\\x08]`, `${'.'.repeat(30_000)}[\\x01-\\x08]`, `${'((.{10}){10}){10}'.repeat(2)}x`]) {
      const r = grep.parse({ pattern });
      assert.equal(r.ok, false, pattern.slice(0, 40));
      assert.match(r.ok ? '' : r.error, /compiles to \d+ steps/);
    }
    for (const pattern of ['.{1000}[\\x01-\\x08]', 'function\\s+\\w+\\(', '[a-z]+@[a-z]+\\.(com|org)', '(?i)todo|fixme']) assert.equal(grep.parse({ pattern }).ok, true, pattern);
  });
});
