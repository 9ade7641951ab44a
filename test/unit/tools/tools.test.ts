import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bashTool } from '../../../src/tools/builtin/bash';
import { editTool } from '../../../src/tools/builtin/edit';
import { globTool, walkGlob } from '../../../src/tools/builtin/glob';
import { globToRegExp } from '../../../src/tools/glob';
import { grepTool } from '../../../src/tools/builtin/grep';
import { createToolRegistry, createTools } from '../../../src/tools/builtin';
import { isInside } from '../../../src/fs/paths';
import { resolveToolPath } from '../../../src/tools/paths';
import { readTool } from '../../../src/tools/builtin/read';
import type { Tool, ToolResult } from '../../../src/tools/types';
import { writeTool } from '../../../src/tools/builtin/write';

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh workspace folder (real path, so macOS /tmp links do not get in the way). */
function ws(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'tl-tools-')));
  made.push(d);
  return d;
}

function put(root: string, rel: string, content: string | Buffer, mtimeSec?: number): string {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  if (mtimeSec !== undefined) utimesSync(abs, mtimeSec, mtimeSec);
  return abs;
}

async function run<I>(tool: Tool<I>, input: unknown, cwd: string, signal: AbortSignal = new AbortController().signal): Promise<ToolResult> {
  const p = tool.parse(input);
  if (!p.ok) throw new Error(`parse failed: ${p.error}`);
  return tool.call(p.value, { cwd, signal });
}

/** Whether a process still runs; a killed child waiting to be reaped (a zombie) does not count. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Read', () => {
  it('numbers lines like cat -n and pages with offset and limit', async () => {
    const cwd = ws();
    put(cwd, 'a.txt', Array.from({ length: 10 }, (_, k) => `line ${k + 1}`).join('\n') + '\n');
    const all = await run(readTool, { file_path: 'a.txt' }, cwd);
    assert.equal(all.isError, undefined);
    const lines = all.content.split('\n');
    assert.equal(lines.length, 10);
    assert.equal(lines[0], '     1\tline 1');
    assert.equal(lines[9], '    10\tline 10');

    const page = await run(readTool, { file_path: join(cwd, 'a.txt'), offset: 3, limit: 2 }, cwd);
    const [first, second, , note] = page.content.split('\n');
    assert.equal(first, '     3\tline 3');
    assert.equal(second, '     4\tline 4');
    assert.match(note!, /lines 3–4 of 10\. Continue with offset 5/);

    const tail = await run(readTool, { file_path: 'a.txt', offset: 9 }, cwd);
    assert.equal(tail.content, '     9\tline 9\n    10\tline 10');
    const past = await run(readTool, { file_path: 'a.txt', offset: 50 }, cwd);
    assert.equal(past.isError, true);
    assert.match(past.content, /10 lines; offset 50 is past the end/);
  });

  it('strips CR, cuts very long lines and notes an empty file', async () => {
    const cwd = ws();
    put(cwd, 'crlf.txt', 'one\r\ntwo\r\n');
    assert.equal((await run(readTool, { file_path: 'crlf.txt' }, cwd)).content, '     1\tone\n     2\ttwo');
    put(cwd, 'long.txt', 'x'.repeat(5000));
    const long = await run(readTool, { file_path: 'long.txt' }, cwd);
    assert.ok(long.content.startsWith(`     1\t${'x'.repeat(2000)}…`));
    assert.ok(!long.content.includes('x'.repeat(2001)));
    put(cwd, 'empty.txt', '');
    const empty = await run(readTool, { file_path: 'empty.txt' }, cwd);
    assert.notEqual(empty.isError, true);
    assert.match(empty.content, /empty/);
  });

  it('refuses binary files, missing files and folders with a reason', async () => {
    const cwd = ws();
    put(cwd, 'blob.dat', Buffer.from([0x41, 0x00, 0x42]));
    put(cwd, 'pic.png', 'not really a png but named like one');
    mkdirSync(join(cwd, 'dir'));
    const bin = await run(readTool, { file_path: 'blob.dat' }, cwd);
    assert.equal(bin.isError, true);
    assert.match(bin.content, /binary/);
    const png = await run(readTool, { file_path: 'pic.png' }, cwd);
    assert.equal(png.isError, true);
    assert.match(png.content, /binary/);
    const missing = await run(readTool, { file_path: 'nope.txt' }, cwd);
    assert.equal(missing.isError, true);
    assert.match(missing.content, /does not exist/);
    assert.ok(missing.content.includes(join(cwd, 'nope.txt')));
    const dir = await run(readTool, { file_path: 'dir' }, cwd);
    assert.equal(dir.isError, true);
    assert.match(dir.content, /Glob/);
  });

  it('refuses a file over 256 KB unless paged, then streams the page', async () => {
    const cwd = ws();
    put(cwd, 'big.txt', Array.from({ length: 60_000 }, (_, k) => `row ${k + 1}`).join('\n'));
    assert.ok(statSync(join(cwd, 'big.txt')).size > 256 * 1024);
    const whole = await run(readTool, { file_path: 'big.txt' }, cwd);
    assert.equal(whole.isError, true);
    assert.match(whole.content, /256 KB/);
    assert.match(whole.content, /offset/);
    assert.match(whole.content, /limit/);
    const page = await run(readTool, { file_path: 'big.txt', offset: 40_000, limit: 3 }, cwd);
    assert.equal(page.isError, undefined);
    const rows = page.content.split('\n');
    assert.deepEqual(rows.slice(0, 3), [' 40000\trow 40000', ' 40001\trow 40001', ' 40002\trow 40002']);
    assert.match(page.content, /Continue with offset 40003/);
  });
});

describe('Write', () => {
  it('creates missing folders, then overwrites atomically, and reports what it did', async () => {
    const cwd = ws();
    const created = await run(writeTool, { file_path: 'deep/er/new.txt', content: 'a\nb\n' }, cwd);
    assert.equal(created.isError, undefined);
    assert.match(created.content, /^Created .*new\.txt: 4 bytes, 2 lines\.$/);
    assert.equal(readFileSync(join(cwd, 'deep/er/new.txt'), 'utf8'), 'a\nb\n');
    const over = await run(writeTool, { file_path: join(cwd, 'deep/er/new.txt'), content: 'é' }, cwd);
    assert.match(over.content, /^Overwrote .*: 2 bytes, 1 lines\.$/);
    assert.equal(readFileSync(join(cwd, 'deep/er/new.txt'), 'utf8'), 'é');
    assert.deepEqual(readdirSync(join(cwd, 'deep/er')), ['new.txt'], 'no temp file left behind');
    const onDir = await run(writeTool, { file_path: 'deep', content: 'x' }, cwd);
    assert.equal(onDir.isError, true);
  });
});

describe('Edit', () => {
  it('replaces a unique match and shows the changed lines', async () => {
    const cwd = ws();
    const f = put(cwd, 'a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    chmodSync(f, 0o755);
    const r = await run(editTool, { file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' }, cwd);
    assert.equal(r.isError, undefined);
    assert.equal(readFileSync(f, 'utf8'), 'const a = 1;\nconst b = 20;\nconst c = 3;\n');
    assert.match(r.content, /^ {5}2\tconst b = 20;$/m);
    assert.equal(statSync(f).mode & 0o777, 0o755, 'keeps the file mode');
  });

  it('refuses an ambiguous match, saying how many, and replaces all when asked', async () => {
    const cwd = ws();
    const f = put(cwd, 'a.txt', 'foo x\nfoo y\nfoo z\n');
    const amb = await run(editTool, { file_path: 'a.txt', old_string: 'foo', new_string: 'bar' }, cwd);
    assert.equal(amb.isError, true);
    assert.match(amb.content, /3 times/);
    assert.match(amb.content, /replace_all/);
    assert.equal(readFileSync(f, 'utf8'), 'foo x\nfoo y\nfoo z\n');
    const unique = await run(editTool, { file_path: 'a.txt', old_string: 'foo y', new_string: 'bar y' }, cwd);
    assert.equal(unique.isError, undefined);
    const all = await run(editTool, { file_path: 'a.txt', old_string: 'foo', new_string: 'baz', replace_all: true }, cwd);
    assert.equal(all.isError, undefined);
    assert.match(all.content, /Replaced 2 occurrences/);
    assert.equal(readFileSync(f, 'utf8'), 'baz x\nbar y\nbaz z\n');
  });

  it('reports not found, no-op edits and missing files; an empty old_string creates a file', async () => {
    const cwd = ws();
    put(cwd, 'a.txt', 'hello\n');
    const nf = await run(editTool, { file_path: 'a.txt', old_string: 'bye', new_string: 'ciao' }, cwd);
    assert.equal(nf.isError, true);
    assert.match(nf.content, /not found/);
    const same = await run(editTool, { file_path: 'a.txt', old_string: 'hello', new_string: 'hello' }, cwd);
    assert.equal(same.isError, true);
    assert.match(same.content, /identical/);
    const missing = await run(editTool, { file_path: 'b.txt', old_string: 'x', new_string: 'y' }, cwd);
    assert.equal(missing.isError, true);
    assert.match(missing.content, /does not exist/);
    const created = await run(editTool, { file_path: 'sub/new.txt', old_string: '', new_string: 'fresh\n' }, cwd);
    assert.equal(created.isError, undefined);
    assert.equal(readFileSync(join(cwd, 'sub/new.txt'), 'utf8'), 'fresh\n');
    const emptyOnExisting = await run(editTool, { file_path: 'a.txt', old_string: '', new_string: 'x' }, cwd);
    assert.equal(emptyOnExisting.isError, true);
    assert.equal(readFileSync(join(cwd, 'a.txt'), 'utf8'), 'hello\n');
  });

  it('matches a multi-line old_string in a CRLF file', async () => {
    const cwd = ws();
    const f = put(cwd, 'w.txt', 'a\r\nb\r\nc\r\n');
    const r = await run(editTool, { file_path: 'w.txt', old_string: 'a\nb', new_string: 'A\nB' }, cwd);
    assert.equal(r.isError, undefined);
    assert.equal(readFileSync(f, 'utf8'), 'A\r\nB\r\nc\r\n');
  });

  it('lines added to a CRLF file end in CRLF whatever old_string was, in UTF-8 and UTF-16', async () => {
    const cwd = ws();
    const utf8 = put(cwd, 'u8.txt', 'a\r\nb\r\n');
    assert.equal((await run(editTool, { file_path: 'u8.txt', old_string: 'a', new_string: 'a\nnew' }, cwd)).isError, undefined);
    assert.equal(readFileSync(utf8, 'utf8'), 'a\r\nnew\r\nb\r\n');
    const utf16 = put(cwd, 'u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\r\nb\r\n', 'utf16le')]));
    assert.equal((await run(editTool, { file_path: 'u16.txt', old_string: 'b', new_string: 'b\nnew' }, cwd)).isError, undefined);
    assert.equal(readFileSync(utf16).subarray(2).toString('utf16le'), 'a\r\nb\r\nnew\r\n');
  });

  it('refuses a lone surrogate in what Edit or Write would store, and leaves the file as it was', async () => {
    const cwd = ws();
    const f = put(cwd, 'u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('smile\n', 'utf16le')]));
    const before = readFileSync(f);
    for (const [tool, input] of [
      [editTool, { file_path: 'u16.txt', old_string: 'smile', new_string: 'x\uDE00' }],
      [writeTool, { file_path: 'u16.txt', content: '\uD83D alone' }],
    ] as const) {
      const p = (tool as Tool<unknown>).parse(input);
      assert.equal(p.ok, false, JSON.stringify(input));
      assert.match(p.ok ? '' : p.error, /lone surrogate/);
    }
    assert.deepEqual(readFileSync(f), before);
    assert.equal((await run(editTool, { file_path: 'u16.txt', old_string: 'smile', new_string: '\u{1F600}' }, cwd)).isError, undefined, 'a whole pair is a character');
  });
});

describe('Bash', () => {
  it('runs in the workspace and returns stdout and stderr together', async () => {
    const cwd = ws();
    const r = await run(bashTool, { command: 'pwd; echo out; echo err >&2' }, cwd);
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.content.split('\n').sort(), [cwd, 'err', 'out'].sort());
  });

  it('reports a non-zero exit code as an error, keeping the output', async () => {
    const cwd = ws();
    const r = await run(bashTool, { command: 'echo partial; exit 3' }, cwd);
    assert.equal(r.isError, true);
    assert.equal(r.content, 'partial\n\nExit code 3');
  });

  it('kills the whole process group on timeout', async () => {
    const cwd = ws();
    const started = Date.now();
    const r = await run(bashTool, { command: 'sleep 30 & echo $! > child.pid; wait', timeout: 400 }, cwd);
    assert.ok(Date.now() - started < 5000);
    assert.equal(r.isError, true);
    assert.match(r.content, /Timed out after 400 ms/);
    const pid = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
    assert.ok(pid > 0);
    await waitFor(() => !alive(pid));
  });

  it('stops the command and its children when aborted', async () => {
    const cwd = ws();
    const ac = new AbortController();
    const pending = run(bashTool, { command: 'sleep 30 & echo $! > child.pid; wait' }, cwd, ac.signal);
    await waitFor(() => existsSync(join(cwd, 'child.pid')) && readFileSync(join(cwd, 'child.pid'), 'utf8').trim() !== '');
    const pid = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
    const started = Date.now();
    ac.abort();
    const r = await pending;
    assert.ok(Date.now() - started < 3000);
    assert.equal(r.isError, true);
    assert.match(r.content, /Interrupted/);
    await waitFor(() => !alive(pid));
    const already = await run(bashTool, { command: 'touch ran' }, cwd, ac.signal);
    assert.equal(already.isError, true);
    assert.equal(existsSync(join(cwd, 'ran')), false, 'an aborted signal runs nothing');
  });

  it('caps long output at 30,000 characters, keeping head and tail', async () => {
    const cwd = ws();
    const r = await run(bashTool, { command: "echo START; head -c 100000 /dev/zero | tr '\\0' a; echo; echo END" }, cwd);
    assert.equal(r.isError, undefined);
    assert.ok(r.content.length <= 30_200, `length ${r.content.length}`);
    assert.ok(r.content.startsWith('START\naaa'));
    assert.ok(r.content.endsWith('aaa\nEND'));
    assert.match(r.content, /\[\d+ characters of output cut from the middle\]/);
  });
});

function grepTree(): string {
  const cwd = ws();
  put(cwd, 'src/a.ts', 'const foo = 1;\nFOO();\nbar();\n');
  put(cwd, 'src/b.js', 'foo();\n');
  put(cwd, 'docs/readme.md', 'nothing here\n');
  put(cwd, 'node_modules/pkg/foo.ts', 'foo\n');
  put(cwd, '.git/config', 'foo\n');
  put(cwd, 'data.dat', Buffer.from('foo\0foo'));
  return cwd;
}

describe('Grep', () => {
  it('lists matching files by default, sorted, skipping .git, node_modules and binaries', async () => {
    const cwd = grepTree();
    const r = await run(grepTool, { pattern: 'foo' }, cwd);
    assert.equal(r.content, 'src/a.ts\nsrc/b.js');
  });

  it('shows file:line:text in content mode, with the glob filter and -i', async () => {
    const cwd = grepTree();
    assert.equal((await run(grepTool, { pattern: 'foo', output_mode: 'content', glob: '*.ts' }, cwd)).content, 'src/a.ts:1:const foo = 1;');
    const ci = await run(grepTool, { pattern: 'foo\\(', output_mode: 'content', '-i': true }, cwd);
    assert.equal(ci.content, 'src/a.ts:2:FOO();\nsrc/b.js:1:foo();');
    const sub = await run(grepTool, { pattern: 'foo', output_mode: 'content', path: 'src', glob: '**/*.js' }, cwd);
    assert.equal(sub.content, 'src/b.js:1:foo();');
    const one = await run(grepTool, { pattern: 'bar', output_mode: 'content', path: 'src/a.ts' }, cwd);
    assert.equal(one.content, 'src/a.ts:3:bar();');
  });

  it('counts matches per file, honours head_limit and says when nothing matched', async () => {
    const cwd = grepTree();
    assert.equal((await run(grepTool, { pattern: 'foo', output_mode: 'count', '-i': true }, cwd)).content, 'src/a.ts:2\nsrc/b.js:1');
    const limited = await run(grepTool, { pattern: 'o', output_mode: 'content', head_limit: 2 }, cwd);
    const lines = limited.content.split('\n');
    assert.deepEqual(lines.slice(0, 2), ['docs/readme.md:1:nothing here', 'src/a.ts:1:const foo = 1;']);
    assert.match(limited.content, /Stopped at 2 results/);
    const none = await run(grepTool, { pattern: 'zebra' }, cwd);
    assert.notEqual(none.isError, true);
    assert.match(none.content, /No matches/);
    const missing = await run(grepTool, { pattern: 'x', path: 'nowhere' }, cwd);
    assert.equal(missing.isError, true);
  });

  it('stops when aborted', async () => {
    const cwd = grepTree();
    const ac = new AbortController();
    ac.abort();
    const r = await run(grepTool, { pattern: 'foo' }, cwd, ac.signal);
    assert.equal(r.isError, true);
    assert.match(r.content, /Interrupted/);
  });
});

describe('Glob', () => {
  it('compiles globs: **, *, ?, braces and classes', () => {
    const re = (p: string) => globToRegExp(p);
    assert.ok(re('**/*.ts').test('a.ts'));
    assert.ok(re('**/*.ts').test('x/y/a.ts'));
    assert.ok(!re('**/*.ts').test('a.tsx'));
    assert.ok(re('*.ts').test('deep/down/a.ts'), 'a bare name pattern matches at any depth');
    assert.ok(re('src/*.ts').test('src/a.ts'));
    assert.ok(!re('src/*.ts').test('src/x/a.ts'), '* stays within a segment');
    assert.ok(re('src/**/a.ts').test('src/a.ts'));
    assert.ok(re('src/**/a.ts').test('src/x/y/a.ts'));
    assert.ok(re('src/**').test('src/x/y.ts'));
    assert.ok(re('file?.txt').test('file1.txt'));
    assert.ok(!re('file?.txt').test('file10.txt'));
    assert.ok(re('*.{ts,tsx}').test('a.tsx'));
    assert.ok(!re('*.{ts,tsx}').test('a.js'));
    assert.ok(re('{src,test/{unit,e2e}}/*.ts').test('test/e2e/a.ts'));
    assert.ok(re('[a-c]x.ts').test('bx.ts'));
    assert.ok(!re('[a-c]x.ts').test('dx.ts'));
    assert.ok(re('[!a-c]x.ts').test('dx.ts'));
    assert.ok(!re('[!a-c]x.ts').test('ax.ts'));
    assert.ok(re('a.b').test('a.b') && !re('a.b').test('axb'), 'dots are literal');
    assert.ok(re('./src/*.ts').test('src/a.ts'));
  });

  it('finds files newest first, relative to the workspace, skipping node_modules unless named', async () => {
    const cwd = ws();
    put(cwd, 'src/a.ts', '', 1_000_000);
    put(cwd, 'src/lib/b.tsx', '', 3_000_000);
    put(cwd, 'src/lib/c.ts', '', 2_000_000);
    put(cwd, 'README.md', '', 4_000_000);
    put(cwd, 'node_modules/pkg/index.ts', '', 5_000_000);
    put(cwd, '.git/hooks/x.ts', '', 5_000_000);
    assert.equal((await run(globTool, { pattern: '**/*.ts' }, cwd)).content, 'src/lib/c.ts\nsrc/a.ts');
    assert.equal((await run(globTool, { pattern: 'src/**/*.{ts,tsx}' }, cwd)).content, 'src/lib/b.tsx\nsrc/lib/c.ts\nsrc/a.ts');
    assert.equal((await run(globTool, { pattern: '*.{md,tsx}' }, cwd)).content, 'README.md\nsrc/lib/b.tsx');
    assert.equal((await run(globTool, { pattern: 'src/*.ts' }, cwd)).content, 'src/a.ts');
    assert.equal((await run(globTool, { pattern: '[bc].ts*', path: 'src/lib' }, cwd)).content, 'src/lib/b.tsx\nsrc/lib/c.ts');
    assert.equal((await run(globTool, { pattern: 'node_modules/**/*.ts' }, cwd)).content, 'node_modules/pkg/index.ts');
    assert.equal((await run(globTool, { pattern: '.git/**/*.ts' }, cwd)).content, '.git/hooks/x.ts');
    put(cwd, '.git/x.gitignore', '');
    assert.match((await run(globTool, { pattern: '*.gitignore' }, cwd)).content, /No files match/, 'only a whole segment names .git');
    assert.match((await run(globTool, { pattern: '*.py' }, cwd)).content, /No files match/);
    const files = await walkGlob(cwd, join(cwd, 'src/**/*.ts'));
    assert.deepEqual(files.map((f) => f.rel).sort(), ['src/a.ts', 'src/lib/c.ts'], 'absolute patterns work too');
  });

  it('caps the list at 100 with a note', async () => {
    const cwd = ws();
    for (let k = 0; k < 105; k++) put(cwd, `many/f${k}.txt`, '', 1_000_000 + k);
    const r = await run(globTool, { pattern: 'many/*.txt' }, cwd);
    const lines = r.content.split('\n');
    assert.equal(lines.length, 101);
    assert.equal(lines[0], 'many/f104.txt');
    assert.match(lines[100]!, /5 more matches not shown/);
  });
});

describe('parse', () => {
  const bad = (tool: Tool<never>, input: unknown, message: RegExp) => {
    const r = tool.parse(input);
    assert.equal(r.ok, false, JSON.stringify(input));
    if (!r.ok) assert.match(r.error, message);
  };
  it('rejects missing and wrongly typed fields', () => {
    const [read, write, edit, bash, grep, glob] = createTools() as unknown as Tool<never>[];
    bad(read!, 'a.txt', /object/);
    bad(read!, null, /object/);
    bad(read!, {}, /missing required field "file_path"/);
    bad(read!, { file_path: 5 }, /"file_path" must be a string/);
    bad(read!, { file_path: 'a', offset: '3' }, /"offset" must be a number/);
    bad(read!, { file_path: 'a', offset: 0 }, /"offset" must be at least 1/);
    bad(read!, { file_path: 'a', limit: 1.5 }, /whole number/);
    bad(read!, { file_path: 'a\0b' }, /NUL/);
    bad(write!, { file_path: 'a' }, /"content"/);
    bad(edit!, { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' }, /"replace_all" must be a boolean/);
    bad(edit!, { file_path: 'a', old_string: 'x' }, /"new_string"/);
    bad(bash!, { command: '   ' }, /empty/);
    bad(bash!, { command: 'ls', timeout: -5 }, /"timeout"/);
    bad(grep!, { pattern: '(' }, /regular expression/);
    bad(grep!, { pattern: 'x', output_mode: 'lines' }, /"output_mode" must be one of/);
    bad(glob!, { path: '.' }, /"pattern"/);
    const ok = read!.parse({ file_path: 'a', offset: null, extra: true });
    assert.deepEqual(ok, { ok: true, value: { file_path: 'a' } });
  });

  it('lists the tools in order and marks only the read-only ones', () => {
    const tools = createTools();
    assert.deepEqual(tools.map((t) => t.name), ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob']);
    const readOnly = new Set(tools.filter((t) => t.traits.readsFiles && !t.traits.writesFiles && !t.traits.runsCommands).map((t) => t.name));
    assert.deepEqual([...readOnly].sort(), ['Glob', 'Grep', 'Read']);
    const compactable = createToolRegistry().names('compactable');
    assert.deepEqual(tools.map((t) => t.name).filter((n) => compactable.has(n)).sort(), ['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write']);
    assert.deepEqual(createToolRegistry().forBackground().tools.map((t) => t.name), ['Read', 'Write', 'Edit', 'Grep', 'Glob']);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(t.description.length > 100, `${t.name} has a real description`);
      const sample = { Read: { file_path: 'a' }, Write: { file_path: 'a', content: '' }, Edit: { file_path: 'a', old_string: 'a', new_string: 'b' }, Bash: { command: 'ls' }, Grep: { pattern: 'x' }, Glob: { pattern: '*' } }[t.name];
      const p = t.parse(sample);
      assert.ok(p.ok);
      assert.equal(t.isReadOnly(p.value), readOnly.has(t.name));
    }
  });
});

describe('paths', () => {
  it('resolves against the workspace and treats ../ as outside', () => {
    const cwd = ws();
    assert.equal(resolveToolPath(cwd, 'a/../b/./c.txt'), join(cwd, 'b/c.txt'));
    assert.equal(resolveToolPath(cwd, '/etc/hosts'), '/etc/hosts');
    assert.equal(resolveToolPath(cwd, '~/x'), join(cwd, '~/x'), '~ is not expanded');
    assert.throws(() => resolveToolPath(cwd, 'a\0b'), /NUL/);
    const outside = resolveToolPath(cwd, '../outside');
    assert.equal(outside, join(dirname(cwd), 'outside'));
    assert.equal(isInside(cwd, outside), false);
    assert.equal(isInside(cwd, cwd), true);
    assert.equal(isInside(cwd, join(cwd, 'not/yet/there.txt')), true);
    assert.equal(isInside(cwd, join(cwd, '..foo')), true, 'a name starting with .. is still inside');
    assert.deepEqual(readTool.paths({ file_path: '../x' }, cwd), [join(dirname(cwd), 'x')]);
    assert.deepEqual(grepTool.paths({ pattern: 'x' }, cwd), [cwd]);
    assert.deepEqual(globTool.paths({ pattern: '*', path: 'src' }, cwd), [join(cwd, 'src')]);
    assert.deepEqual(bashTool.paths({ command: 'cat /etc/passwd' }, cwd), []);
  });

  it('counts a symlink pointing out of the workspace as outside', () => {
    const cwd = ws();
    const elsewhere = ws();
    put(elsewhere, 'secret.txt', 'x');
    symlinkSync(elsewhere, join(cwd, 'link'));
    symlinkSync(join(elsewhere, 'secret.txt'), join(cwd, 'file-link'));
    assert.equal(isInside(cwd, join(cwd, 'link')), false);
    assert.equal(isInside(cwd, join(cwd, 'link/secret.txt')), false);
    assert.equal(isInside(cwd, join(cwd, 'link/new-file.txt')), false, 'a new file behind the link lands outside');
    assert.equal(isInside(cwd, join(cwd, 'file-link')), false);
    put(cwd, 'real.txt', 'y');
    symlinkSync(join(cwd, 'real.txt'), join(cwd, 'inner-link'));
    assert.equal(isInside(cwd, join(cwd, 'inner-link')), true);
  });
});
