import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bashTool, globTool, grepTool, readTool } from '../../../src/tools/builtin/index';
import type { ToolStatus } from '../../../src/shared/viewState';
import { describeTool, type ToolDetail } from '../../../webview-ui/src/tools/describe';

// The cards read the real tools' result text, so these run the real tools and parse what they say:
// a change of wording in a tool breaks here, not silently in the panel.

let cwd: string;

async function run(tool: { name: string; call: (i: never, ctx: { cwd: string; signal: AbortSignal }) => Promise<{ content: string; isError?: boolean }> }, input: Record<string, unknown>, signal = new AbortController().signal): Promise<ToolDetail> {
  const r = await tool.call(input as never, { cwd, signal });
  const status: ToolStatus = r.isError ? 'error' : 'done';
  return describeTool({ name: tool.name, input: JSON.stringify(input, null, 2), status, result: r.content });
}

function expectKind<K extends ToolDetail['kind']>(d: ToolDetail, kind: K): Extract<ToolDetail, { kind: K }> {
  assert.equal(d.kind, kind);
  return d as Extract<ToolDetail, { kind: K }>;
}

describe('tool cards read the tools as they really answer', () => {
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'tl-cards-'));
    mkdirSync(join(cwd, 'src'));
    writeFileSync(join(cwd, 'src', 'a.ts'), 'const retry = 1;\nexport function go() {\n  return retry;\n}\n');
    writeFileSync(join(cwd, 'src', 'b.ts'), 'retry();\nretry();\n');
    writeFileSync(join(cwd, 'notes.md'), '# notes\n');
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it('Bash: exit code 0, a failing exit code with its output, a signal, a timeout, an interruption', async () => {
    const ok = expectKind(await run(bashTool, { command: 'echo hello', description: 'Say hello' }), 'bash');
    assert.deepEqual(ok.outcome, { kind: 'exit', code: 0 });
    assert.equal(ok.output, 'hello');
    assert.equal(ok.description, 'Say hello');
    const quiet = expectKind(await run(bashTool, { command: 'true' }), 'bash');
    assert.equal(quiet.output, '', '"(no output)" is not shown as output');
    const failed = expectKind(await run(bashTool, { command: 'echo broken >&2; exit 3' }), 'bash');
    assert.deepEqual(failed.outcome, { kind: 'exit', code: 3 });
    assert.equal(failed.output, 'broken');
    const silentFail = expectKind(await run(bashTool, { command: 'exit 7' }), 'bash');
    assert.deepEqual(silentFail.outcome, { kind: 'exit', code: 7 });
    assert.equal(silentFail.output, '');
    const killed = expectKind(await run(bashTool, { command: 'echo before; kill -9 $$' }), 'bash');
    assert.deepEqual(killed.outcome, { kind: 'signal', signal: 'SIGKILL' });
    assert.equal(killed.output, 'before');
    const slow = expectKind(await run(bashTool, { command: 'echo waiting; sleep 5', timeout: 300 }), 'bash');
    assert.equal(slow.outcome?.kind, 'timeout');
    assert.equal(slow.output, 'waiting');
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const interrupted = expectKind(await run(bashTool, { command: 'echo started; sleep 5' }, stop.signal), 'bash');
    assert.equal(interrupted.outcome?.kind, 'interrupted');
  });

  it('Bash: an output clipped by the host has no exit code to read, and none is made up', () => {
    const d = expectKind(describeTool({ name: 'Bash', input: '{"command":"make"}', status: 'error', result: `${'x'.repeat(50)}\n… (12000 more characters)` }), 'bash');
    assert.equal(d.outcome, undefined);
  });

  it('Read: path, line range and the lines returned', async () => {
    const d = expectKind(await run(readTool, { file_path: 'src/a.ts', offset: 2, limit: 2 }), 'read');
    assert.deepEqual(d.file, { path: 'src/a.ts', line: 2 });
    assert.equal(d.range, 'lines 2–3');
    assert.equal(d.linesShown, 2);
    const one = expectKind(await run(readTool, { file_path: 'src/a.ts', offset: 3, limit: 1 }), 'read');
    assert.equal(one.range, 'line 3');
    const whole = expectKind(await run(readTool, { file_path: 'src/a.ts' }), 'read');
    assert.equal(whole.range, undefined);
    assert.equal(whole.linesShown, 4);
  });

  it('Grep: files, matching lines with their line numbers, counts, and no match', async () => {
    const files = expectKind(await run(grepTool, { pattern: 'retry' }), 'search');
    assert.equal(files.files, 2);
    assert.deepEqual(files.hits.map((h) => h.path).sort(), ['src/a.ts', 'src/b.ts']);
    const content = expectKind(await run(grepTool, { pattern: 'retry', output_mode: 'content' }), 'search');
    assert.equal(content.matches, 4);
    assert.equal(content.files, 2);
    assert.deepEqual(content.hits[0], { path: 'src/a.ts', line: 1, text: 'const retry = 1;' });
    const counts = expectKind(await run(grepTool, { pattern: 'retry', output_mode: 'count' }), 'search');
    assert.equal(counts.matches, 4);
    const none = expectKind(await run(grepTool, { pattern: 'nowhere-to-be-found' }), 'search');
    assert.equal(none.matches, 0);
    assert.equal(none.files, 0);
  });

  it('Glob: pattern and the files found', async () => {
    const d = expectKind(await run(globTool, { pattern: '**/*.ts' }), 'search');
    assert.equal(d.pattern, '**/*.ts');
    assert.equal(d.files, 2);
    const none = expectKind(await run(globTool, { pattern: '*.rs' }), 'search');
    assert.equal(none.files, 0);
  });

  it('Edit and Write: the path and what changed, not the JSON', () => {
    const edit = expectKind(describeTool({ name: 'Edit', input: JSON.stringify({ file_path: 'a.ts', old_string: 'a\nb', new_string: 'a\nb\nc\nd' }), status: 'done' }), 'edit');
    assert.deepEqual([edit.added, edit.removed], [4, 2]);
    const write = expectKind(describeTool({ name: 'Write', input: JSON.stringify({ file_path: 'n.txt', content: 'x\ny\n' }), status: 'pending' }), 'write');
    assert.equal(write.lines, 2);
  });

  it('anything unknown or malformed falls back to the raw card', () => {
    assert.equal(describeTool({ name: 'Compact', input: '{}', status: 'done' }).kind, 'other');
    assert.equal(describeTool({ name: 'Read', input: 'not json', status: 'done' }).kind, 'other');
    assert.equal(describeTool({ name: 'Bash', input: '{"command":42}', status: 'done' }).kind, 'other');
  });
});
