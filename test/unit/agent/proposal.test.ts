import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { editTool } from '../../../src/tools/builtin/edit';
import { proposeChange } from '../../../src/tools/builtin/proposal';
import { summarizeChange } from '../../../src/tools/changeSummary';

const signal = new AbortController().signal;

describe('proposeChange', () => {
  const cases: { name: string; file: string | undefined; input: Record<string, unknown> }[] = [
    { name: 'one replacement', file: 'a\nb\nc\n', input: { old_string: 'b', new_string: 'B' } },
    { name: 'replace all', file: 'x y x y x\n', input: { old_string: 'x', new_string: 'zz', replace_all: true } },
    { name: 'CRLF file, LF old_string', file: 'one\r\ntwo\r\nthree\r\n', input: { old_string: 'one\ntwo', new_string: 'uno\ndos' } },
    { name: 'creates a file', file: undefined, input: { old_string: '', new_string: 'fresh\n' } },
    { name: 'fills an empty file', file: '', input: { old_string: '', new_string: 'filled' } },
  ];
  for (const c of cases) {
    it(`shows exactly what the Edit tool then writes: ${c.name}`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'tl-prop-'));
      if (c.file !== undefined) writeFileSync(join(cwd, 'f.txt'), c.file);
      const input = { file_path: 'f.txt', ...c.input };
      const proposal = await proposeChange('Edit', input, cwd);
      assert.ok(proposal?.ok, JSON.stringify(proposal));
      assert.equal(proposal.change.before, c.file);
      const parsed = editTool.parse(input);
      assert.ok(parsed.ok);
      const result = await editTool.call(parsed.value, { cwd, signal } as Parameters<typeof editTool.call>[1]);
      assert.ok(!result.isError, String(result.content));
      assert.equal(proposal.change.after, readFileSync(join(cwd, 'f.txt'), 'utf8'));
    });
  }

  it('says why an edit cannot apply, as the tool would refuse it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-prop-'));
    writeFileSync(join(cwd, 'f.txt'), 'x x\n');
    const ambiguous = await proposeChange('Edit', { file_path: 'f.txt', old_string: 'x', new_string: 'y' }, cwd);
    assert.ok(ambiguous && !ambiguous.ok && /occurs 2 times/.test(ambiguous.reason));
    const missing = await proposeChange('Edit', { file_path: 'nope.txt', old_string: 'a', new_string: 'b' }, cwd);
    assert.ok(missing && !missing.ok);
    assert.equal(await proposeChange('Bash', { command: 'ls' }, cwd), undefined, 'only file writes have a proposal');
  });

  it('Write: the whole new content against the current file, or none', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-prop-'));
    const fresh = await proposeChange('Write', { file_path: 'new.txt', content: 'hi\n' }, cwd);
    assert.ok(fresh?.ok);
    assert.equal(fresh.change.before, undefined);
    assert.equal(fresh.change.abs, join(cwd, 'new.txt'));
  });

  it('does not open a FIFO or a device a hostile model names', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-prop-'));
    execFileSync('mkfifo', [join(cwd, 'pipe')]);
    const fifo = await proposeChange('Write', { file_path: 'pipe', content: 'x' }, cwd);
    assert.ok(fifo && !fifo.ok && /not a regular file/.test(fifo.reason));
    const dev = await proposeChange('Edit', { file_path: '/dev/zero', old_string: 'a', new_string: 'b' }, cwd);
    assert.ok(dev && !dev.ok);
  });
});

describe('summarizeChange', () => {
  it('counts added and removed lines and shows the first hunk', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 3\n', 'line three\nline 3.5\n').replace('line 30\n', '');
    const s = summarizeChange('f.txt', before, after);
    assert.equal(s.added, 2);
    assert.equal(s.removed, 2);
    assert.equal(s.moreHunks, 1);
    assert.match(s.hunk, /^@@ -1,7 \+1,8 @@/);
    assert.match(s.hunk, /\n-line 3\n\+line three\n\+line 3\.5\n/);
    assert.equal(s.isNew, false);
  });

  it('a new file is all additions', () => {
    const s = summarizeChange('n.txt', undefined, 'a\nb\n');
    assert.deepEqual([s.added, s.removed, s.isNew], [2, 0, true]);
  });
});
