// Read pages through a file by line from its start. A far offset in a huge file, or a sparse file
// that is a terabyte of zero bytes after a little text, must end with an answer, not a scan of it all.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readTool } from '../../../src/tools/builtin/read';

const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tl-readhuge-')));

async function read(input: Record<string, unknown>): Promise<{ content: string; isError?: boolean }> {
  const p = readTool.parse(input);
  assert.ok(p.ok);
  return readTool.call(p.value, { cwd, signal: new AbortController().signal });
}

/** A file of some text lines, then zero bytes up to `size` (sparse where the file system allows). */
function sparse(name: string, size: number): string {
  const path = join(cwd, name);
  writeFileSync(path, Array.from({ length: 4000 }, (_, i) => `line ${i + 1} ${'x'.repeat(10)}`).join('\n') + '\n');
  for (const s of [size, 64 * 2 ** 30, 4 * 2 ** 30]) {
    try {
      truncateSync(path, s);
      return path;
    } catch {
      // the file system's limit: try a smaller size
    }
  }
  throw new Error('no sparse file could be made here');
}

describe('Read of a huge or sparse file ends', { timeout: 60_000 }, () => {
  const path = sparse('sparse.log', 2 ** 40);

  it('an offset past the text, in a run of zero bytes, stops with a clear error', async () => {
    for (const offset of [4001, 1_000_000_000]) {
      const r = await read({ file_path: path, offset, limit: 10 });
      assert.equal(r.isError, true, String(offset));
      assert.match(r.content, /Stopped after reading \d+ MB .* without reaching line/, String(offset));
    }
  });

  it('a page that runs into the zeros shows its lines and says where reading stopped', async () => {
    const r = await read({ file_path: path, offset: 3995, limit: 10 });
    assert.notEqual(r.isError, true);
    assert.match(r.content, /line 3995 x/);
    assert.match(r.content, /line 4000 x/);
    assert.match(r.content, /reading stopped \d+ MB into the file/);
  });
});
