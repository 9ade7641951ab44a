import assert from 'node:assert/strict';
import { chownSync, promises as fsp, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { editTool } from '../../../src/tools/builtin/edit';
import { writeTool } from '../../../src/tools/builtin/write';
import { writeFileAtomic } from '../../../src/fs/write';
import type { Tool, ToolResult } from '../../../src/tools/types';

const ws = () => realpathSync(mkdtempSync(join(tmpdir(), 'tl-atomic-')));

async function run<I>(tool: Tool<I>, input: unknown, cwd: string): Promise<ToolResult> {
  const p = tool.parse(input);
  if (!p.ok) throw new Error(`parse failed: ${p.error}`);
  return tool.call(p.value, { cwd, signal: new AbortController().signal });
}

describe('atomic writes by Write and Edit', () => {
  it('write through a symlink inside the workspace: CLAUDE.md -> AGENTS.md stays a link', async () => {
    const cwd = ws();
    writeFileSync(join(cwd, 'AGENTS.md'), '# Rules\nold rule\n');
    symlinkSync('AGENTS.md', join(cwd, 'CLAUDE.md'));
    const edit = await run(editTool, { file_path: 'CLAUDE.md', old_string: 'old rule', new_string: 'new rule' }, cwd);
    assert.equal(edit.isError, undefined, edit.content);
    assert.ok(lstatSync(join(cwd, 'CLAUDE.md')).isSymbolicLink(), 'the link is kept, not replaced by a copy');
    assert.equal(readlinkSync(join(cwd, 'CLAUDE.md')), 'AGENTS.md');
    assert.equal(readFileSync(join(cwd, 'AGENTS.md'), 'utf8'), '# Rules\nnew rule\n');
    const write = await run(writeTool, { file_path: 'CLAUDE.md', content: 'rewritten\n' }, cwd);
    assert.equal(write.isError, undefined, write.content);
    assert.ok(lstatSync(join(cwd, 'CLAUDE.md')).isSymbolicLink());
    assert.equal(readFileSync(join(cwd, 'AGENTS.md'), 'utf8'), 'rewritten\n');
    assert.deepEqual(readdirSync(cwd).sort(), ['AGENTS.md', 'CLAUDE.md'], 'no temp file left behind');
  });

  it('keeps the owner of a file it rewrites (running as root, as in a container)', { skip: process.getuid?.() !== 0 && 'needs root to give a file away' }, async () => {
    const cwd = ws();
    const f = join(cwd, 'owned.txt');
    writeFileSync(f, 'a\n');
    chownSync(f, 1234, 1234);
    await run(editTool, { file_path: 'owned.txt', old_string: 'a', new_string: 'b' }, cwd);
    assert.equal(readFileSync(f, 'utf8'), 'b\n');
    assert.deepEqual([statSync(f).uid, statSync(f).gid], [1234, 1234]);
  });
});

describe('writeFileAtomic (Threadline state: sessions index, memory, notes)', () => {
  it('the last of two overlapping writes wins, whatever their sizes', async () => {
    const f = join(ws(), 'notes.md');
    const big = 'x'.repeat(8_000_000);
    await Promise.all([writeFileAtomic(f, big), writeFileAtomic(f, 'small')]);
    assert.equal(readFileSync(f, 'utf8'), 'small');
  });

  it('the order asked for holds when the file system answers the first caller last', async () => {
    // Found on a loaded machine: the folder check before the write finished out of order, and the
    // earlier write landed last. The file system's answers are delayed here on purpose.
    const f = join(ws(), 'index.json');
    const mkdir = fsp.mkdir;
    let calls = 0;
    fsp.mkdir = (async (...args: Parameters<typeof mkdir>) => {
      const wait = calls++ === 0 ? 150 : 0;
      await new Promise((r) => setTimeout(r, wait));
      return mkdir(...args);
    }) as typeof mkdir;
    try {
      await Promise.all([writeFileAtomic(f, 'first'), writeFileAtomic(f, 'second')]);
    } finally {
      fsp.mkdir = mkdir;
    }
    assert.equal(readFileSync(f, 'utf8'), 'second');
  });

  it('writes through a symlinked state file and keeps it private', async () => {
    const dir = ws();
    writeFileSync(join(dir, 'real.md'), 'old');
    symlinkSync(join(dir, 'real.md'), join(dir, 'MEMORY.md'));
    await writeFileAtomic(join(dir, 'MEMORY.md'), 'new');
    assert.ok(lstatSync(join(dir, 'MEMORY.md')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'real.md'), 'utf8'), 'new');
    await writeFileAtomic(join(dir, 'fresh.json'), '{}');
    assert.equal(statSync(join(dir, 'fresh.json')).mode & 0o777, 0o600);
  });
});
