import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashTool } from '../../../src/agent/tools/bash';
import { editTool } from '../../../src/agent/tools/edit';
import { globToRegExp } from '../../../src/agent/tools/glob';
import { globTool } from '../../../src/agent/tools/globTool';
import { grepTool } from '../../../src/agent/tools/grep';
import { isInside, resolveToolPath } from '../../../src/agent/tools/paths';
import { readTool } from '../../../src/agent/tools/read';
import type { Tool } from '../../../src/agent/tools/types';
import { writeTool } from '../../../src/agent/tools/write';

const ws = () => mkdtempSync(join(tmpdir(), 'tl-tools-'));
const ctx = (cwd: string, signal = new AbortController().signal) => ({ cwd, signal });

async function run<I>(tool: Tool<I>, input: unknown, cwd: string, signal?: AbortSignal) {
  const p = tool.parse(input);
  if (!p.ok) throw new Error(p.error);
  return tool.call(p.value, ctx(cwd, signal));
}

describe('Read', () => {
  it('numbers lines and pages with offset and limit', async () => {
    const cwd = ws();
    writeFileSync(join(cwd, 'a.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const all = await run(readTool, { file_path: 'a.txt' }, cwd);
    assert.match(all.content, /^ {5}1\tline 1$/m);
    assert.match(all.content, /^ {4}10\tline 10$/m);
    const page = await run(readTool, { file_path: 'a.txt', offset: 3, limit: 2 }, cwd);
    assert.equal(page.content.split('\n')[0], '     3\tline 3');
    assert.match(page.content, /continue with offset 5/);
  });
  it('refuses binary, missing, directories and large files with a reason', async () => {
    const cwd = ws();
    writeFileSync(join(cwd, 'b.bin'), Buffer.from([1, 0, 2, 3]));
    writeFileSync(join(cwd, 'big.txt'), 'x\n'.repeat(200_000));
    mkdirSync(join(cwd, 'dir'));
    writeFileSync(join(cwd, 'empty.txt'), '');
    assert.match((await run(readTool, { file_path: 'b.bin' }, cwd)).content, /binary/);
    assert.match((await run(readTool, { file_path: 'nope.txt' }, cwd)).content, /not found/);
    assert.match((await run(readTool, { file_path: 'dir' }, cwd)).content, /directory; use Glob/);
    const big = await run(readTool, { file_path: 'big.txt' }, cwd);
    assert.equal(big.isError, true);
    assert.match(big.content, /offset and limit/);
    assert.equal((await run(readTool, { file_path: 'big.txt', offset: 1, limit: 3 }, cwd)).isError, undefined);
    assert.match((await run(readTool, { file_path: 'empty.txt' }, cwd)).content, /empty/);
  });
  it('rejects malformed input before running', () => {
    assert.equal(readTool.parse({}).ok, false);
    assert.equal(readTool.parse({ file_path: 3 }).ok, false);
    assert.equal(readTool.parse({ file_path: 'a', offset: 0 }).ok, false);
    assert.equal(readTool.parse('a').ok, false);
  });
});

describe('Write and Edit', () => {
  it('writes files, creating folders', async () => {
    const cwd = ws();
    const r = await run(writeTool, { file_path: 'deep/er/x.txt', content: 'hello\n' }, cwd);
    assert.match(r.content, /Created/);
    assert.equal(readFileSync(join(cwd, 'deep/er/x.txt'), 'utf8'), 'hello\n');
    assert.match((await run(writeTool, { file_path: 'deep/er/x.txt', content: 'bye' }, cwd)).content, /Overwrote/);
  });
  it('replaces a unique match, refuses an ambiguous one, and replaces all when asked', async () => {
    const cwd = ws();
    writeFileSync(join(cwd, 'f.ts'), 'const a = 1;\nconst b = 1;\n');
    const amb = await run(editTool, { file_path: 'f.ts', old_string: '= 1', new_string: '= 2' }, cwd);
    assert.equal(amb.isError, true);
    assert.match(amb.content, /matches 2 places/);
    assert.equal(readFileSync(join(cwd, 'f.ts'), 'utf8'), 'const a = 1;\nconst b = 1;\n', 'nothing changed');
    await run(editTool, { file_path: 'f.ts', old_string: 'const a = 1;', new_string: 'const a = 42;' }, cwd);
    assert.equal(readFileSync(join(cwd, 'f.ts'), 'utf8'), 'const a = 42;\nconst b = 1;\n');
    await run(editTool, { file_path: 'f.ts', old_string: 'const', new_string: 'let', replace_all: true }, cwd);
    assert.equal(readFileSync(join(cwd, 'f.ts'), 'utf8'), 'let a = 42;\nlet b = 1;\n');
    assert.match((await run(editTool, { file_path: 'f.ts', old_string: 'nothing like this', new_string: 'x' }, cwd)).content, /not found/);
    assert.match((await run(editTool, { file_path: 'f.ts', old_string: 'let', new_string: 'let' }, cwd)).content, /the same/);
    await run(editTool, { file_path: 'new.ts', old_string: '', new_string: 'export {};\n' }, cwd);
    assert.equal(readFileSync(join(cwd, 'new.ts'), 'utf8'), 'export {};\n');
  });
});

describe('Bash', () => {
  it('returns output and a non-zero exit code as an error', async () => {
    const cwd = ws();
    const ok = await run(bashTool, { command: 'echo hi; echo err 1>&2; pwd' }, cwd);
    assert.match(ok.content, /hi/);
    assert.match(ok.content, /err/);
    assert.ok(ok.content.includes(cwd));
    const bad = await run(bashTool, { command: 'exit 3' }, cwd);
    assert.equal(bad.isError, true);
    assert.match(bad.content, /Exit code 3/);
  });
  it('kills the whole process group on timeout', async () => {
    const cwd = ws();
    const r = await run(bashTool, { command: `(sleep 30; touch ${join(cwd, 'survived')}) & sleep 30`, timeout: 1000 }, cwd);
    assert.equal(r.isError, true);
    assert.match(r.content, /Timed out/);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(existsSync(join(cwd, 'survived')), false);
  });
  it('stops when aborted', async () => {
    const ac = new AbortController();
    const p = run(bashTool, { command: 'sleep 30' }, ws(), ac.signal);
    setTimeout(() => ac.abort(), 100);
    const r = await p;
    assert.match(r.content, /Interrupted/);
  });
  it('caps long output, keeping head and tail', async () => {
    const r = await run(bashTool, { command: 'seq 1 100000' }, ws());
    assert.ok(r.content.length < 31_000);
    assert.match(r.content, /^1\n2\n/);
    assert.match(r.content, /100000$/);
    assert.match(r.content, /cut from the middle/);
  });
});

describe('Grep and Glob', () => {
  function tree() {
    const cwd = ws();
    mkdirSync(join(cwd, 'src/lib'), { recursive: true });
    mkdirSync(join(cwd, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(cwd, 'src/a.ts'), 'export const TODO = 1;\n// todo later\n');
    writeFileSync(join(cwd, 'src/lib/b.tsx'), 'TODO here\n');
    writeFileSync(join(cwd, 'src/c.js'), 'nothing\n');
    writeFileSync(join(cwd, 'node_modules/pkg/index.ts'), 'TODO in deps\n');
    utimesSync(join(cwd, 'src/a.ts'), 1000, 1000);
    return cwd;
  }
  it('greps in three modes, with a glob filter and case folding, skipping node_modules', async () => {
    const cwd = tree();
    assert.equal((await run(grepTool, { pattern: 'TODO' }, cwd)).content, 'src/a.ts\nsrc/lib/b.tsx');
    assert.equal((await run(grepTool, { pattern: 'todo', '-i': true, output_mode: 'count' }, cwd)).content, 'src/a.ts:2\nsrc/lib/b.tsx:1');
    assert.equal((await run(grepTool, { pattern: 'TODO', glob: '*.tsx', output_mode: 'content' }, cwd)).content, 'src/lib/b.tsx:1:TODO here');
    assert.equal((await run(grepTool, { pattern: 'zzz' }, cwd)).content, 'No matches.');
    assert.equal(grepTool.parse({ pattern: '(' }).ok, false);
  });
  it('globs with **, braces and classes, newest first', async () => {
    const cwd = tree();
    assert.equal((await run(globTool, { pattern: '**/*.ts' }, cwd)).content, 'src/a.ts');
    assert.equal((await run(globTool, { pattern: 'src/**/*.{ts,tsx}' }, cwd)).content, 'src/lib/b.tsx\nsrc/a.ts');
    assert.equal((await run(globTool, { pattern: 'node_modules/**/*.ts' }, cwd)).content, 'node_modules/pkg/index.ts');
    assert.ok(globToRegExp('src/[ab].ts').test('src/a.ts'));
    assert.ok(!globToRegExp('src/[!ab].ts').test('src/a.ts'));
    assert.ok(globToRegExp('*.md').test('docs/deep/x.md'));
  });
});

describe('paths', () => {
  it('resolves relative paths in the workspace and sees through symlinks that leave it', () => {
    const root = ws();
    const cwd = join(root, 'w');
    mkdirSync(cwd);
    symlinkSync(root, join(cwd, 'up'));
    assert.equal(isInside(cwd, resolveToolPath(cwd, 'src/a.ts')), true);
    assert.equal(isInside(cwd, resolveToolPath(cwd, '../outside')), false);
    assert.equal(isInside(cwd, resolveToolPath(cwd, 'up/secret')), false);
    assert.throws(() => resolveToolPath(cwd, 'a\0b'));
  });
});
