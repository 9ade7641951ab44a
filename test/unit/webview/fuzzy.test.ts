import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzyFiles } from '../../../webview-ui/src/controls/fuzzy';

describe('fuzzyFiles', () => {
  const files = ['README.md', 'src/greet.js', 'src/greeting/index.ts', 'test/greet.test.js', 'docs/guide/regret.md'];

  it('puts a file-name match before a folder match, and the start of a name first', () => {
    assert.deepEqual(fuzzyFiles(files, 'greet'), ['src/greet.js', 'test/greet.test.js', 'src/greeting/index.ts', 'docs/guide/regret.md']);
  });

  it('matches characters in order across the path, case-insensitively', () => {
    assert.deepEqual(fuzzyFiles(files, 'SGI').sort(), ['docs/guide/regret.md', 'src/greeting/index.ts']);
    assert.deepEqual(fuzzyFiles(files, 'zzz'), []);
  });

  it('lists everything (up to the limit) for an empty query', () => {
    assert.equal(fuzzyFiles(files, '', 3).length, 3);
  });
});
