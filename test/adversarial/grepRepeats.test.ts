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
