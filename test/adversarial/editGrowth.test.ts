// Pass 31, F2 (low): Edit's replace_all had no cap on what it made: under Edit(src/**) one call
// turned a 2 MB file into 400 MB and took the agent past 1.3 GB. An edit may not make a file
// larger than Edit reads (10 MB); the file is left as it was.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTools } from '../../src/tools/builtin';
import { EDIT_MAX_BYTES } from '../../src/tools/builtin/edit';
import type { Tool } from '../../src/tools/types';
import { tempDir } from './support';

const edit = createTools().find((t) => t.name === 'Edit') as Tool;

async function run(cwd: string, input: unknown) {
  const parsed = edit.parse(input);
  if (!parsed.ok) throw new Error(parsed.error);
  return edit.call(parsed.value, { cwd, signal: new AbortController().signal });
}

describe('pass 31 F2: an edit that would grow a file past what Edit reads', () => {
  it('is refused and changes nothing, in UTF-8 and in UTF-16', async () => {
    const cwd = tempDir('editgrowth');
    mkdirSync(join(cwd, 'src'));
    const file = join(cwd, 'src', 'big.txt');
    writeFileSync(file, 'x\n'.repeat(1_000_000));
    const r = await run(cwd, { file_path: file, old_string: 'x', new_string: 'y'.repeat(200), replace_all: true });
    assert.equal(r.isError, true);
    assert.match(r.content, /larger than 10 MB/);
    assert.equal(statSync(file).size, 2_000_000);
    const u16 = join(cwd, 'src', 'u16.txt');
    writeFileSync(u16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ab\n'.repeat(100_000), 'utf16le')]));
    const before = readFileSync(u16);
    const r2 = await run(cwd, { file_path: u16, old_string: 'a', new_string: 'z'.repeat(200), replace_all: true });
    assert.equal(r2.isError, true);
    assert.deepEqual(readFileSync(u16), before);
  });

  it('an edit that stays under the cap still runs', async () => {
    const cwd = tempDir('editgrowth-ok');
    const file = join(cwd, 'a.txt');
    writeFileSync(file, 'x\n'.repeat(1000));
    const r = await run(cwd, { file_path: file, old_string: 'x', new_string: 'yy', replace_all: true });
    assert.notEqual(r.isError, true, r.content);
    assert.ok(statSync(file).size < EDIT_MAX_BYTES);
    assert.equal(readFileSync(file, 'utf8'), 'yy\n'.repeat(1000));
  });
});
