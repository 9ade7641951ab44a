import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args';
import { runCli } from '../../../src/cli/cli';
import { promptWithStdin, readStdin } from '../../../src/cli/stdin';
import { cliBundle } from '../../support/cliBundle';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const lastUserText = () => {
  const body = standin.requests.at(-1)!.body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
  const last = body.messages.at(-1)!;
  return last.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
};
const env = (stateDir: string) => ({ PATH: process.env.PATH, HOME: tmp('tl-home-'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' });

describe('piped input (cat file | threadline -p "explain"), as the reference takes it', () => {
  it('-p may stand alone: before another flag, before --, or last', () => {
    const alone = parseCliArgs(['-p', '--model', 'haiku'], '/w');
    assert.ok(alone.command === 'prompt' && alone.prompt === undefined && alone.model === 'haiku');
    const dashed = parseCliArgs(['-p', '--', '-starts with a dash'], '/w');
    assert.ok(dashed.command === 'prompt' && dashed.prompt === '-starts with a dash');
    const last = parseCliArgs(['--output-format', 'json', '--print'], '/w');
    assert.ok(last.command === 'prompt' && last.prompt === undefined && last.outputFormat === 'json');
    assert.equal(parseCliArgs([], '/w').command, 'help', 'no -p and no prompt is still the help');
    const given = parseCliArgs(['-p', 'explain', '--model', 'haiku'], '/w');
    assert.ok(given.command === 'prompt' && given.prompt === 'explain');
  });

  it('reads a pipe to its end, lets a silent one go, and refuses one too long for a prompt', async () => {
    const pipe = new PassThrough();
    const reading = readStdin(pipe, { waitMs: 200 });
    pipe.write(Buffer.from('caf\xc3', 'latin1'));
    // The first bytes came in time: the rest may take longer than the wait.
    await new Promise((r) => setTimeout(r, 300));
    pipe.end(Buffer.from('\xa9 au lait\n', 'latin1'));
    assert.deepEqual(await reading, { kind: 'text', text: 'café au lait\n' }, 'a character split across chunks is decoded whole');

    const silent = new PassThrough();
    assert.deepEqual(await readStdin(silent, { waitMs: 50 }), { kind: 'silent' });
    assert.equal(silent.destroyed, true, 'a silent pipe is let go, or it would keep the process alive');

    const big = new PassThrough();
    const tooLong = readStdin(big, { waitMs: 200, maxChars: 10 });
    big.write('0123456789abc');
    assert.deepEqual(await tooLong, { kind: 'tooLong' });

    assert.deepEqual(await readStdin(Object.assign(new PassThrough(), { isTTY: true })), { kind: 'none' }, 'a terminal is not read');
    assert.deepEqual(await readStdin(undefined), { kind: 'none' });
  });

  it('joins the prompt and the input as the reference does, and says what is wrong when there is neither', () => {
    assert.deepEqual(promptWithStdin('explain', { kind: 'text', text: 'line 1\nline 2\n' }), { ok: true, prompt: 'explain\nline 1\nline 2\n' });
    assert.deepEqual(promptWithStdin(undefined, { kind: 'text', text: 'just the input\n' }), { ok: true, prompt: 'just the input\n' });
    assert.deepEqual(promptWithStdin('explain', { kind: 'text', text: '  \n' }), { ok: true, prompt: 'explain' }, 'blank input adds nothing');
    assert.deepEqual(promptWithStdin('explain', { kind: 'none' }), { ok: true, prompt: 'explain' });
    const silent = promptWithStdin('explain', { kind: 'silent' });
    assert.ok(silent.ok && silent.prompt === 'explain' && /within 3 s.*\/dev\/null/.test(silent.warning ?? ''));
    for (const input of [{ kind: 'none' }, { kind: 'silent' }, { kind: 'text', text: '\n' }] as const) {
      const r = promptWithStdin(undefined, input);
      assert.ok(!r.ok && /no prompt: give it after -p or pipe it on stdin/.test(r.error), JSON.stringify(input));
    }
    const over = promptWithStdin('x'.repeat(8), { kind: 'text', text: 'y'.repeat(8) }, 10);
    assert.ok(!over.ok && /over 10 characters/.test(over.error));
    const failed = promptWithStdin('explain', { kind: 'failed', message: 'EIO' });
    assert.ok(!failed.ok && /could not read stdin: EIO/.test(failed.error));
  });

  it('in process: the piped text reaches the request after the prompt; -p alone with nothing piped is a usage error', async () => {
    const cwd = tmp('tl-stdin-');
    const stateDir = tmp('tl-state-');
    let err = '';
    const io = { out: () => {}, err: (t: string) => (err += t) };
    standin.enqueue({ content: [{ type: 'text', text: 'It is a log.' }] });
    const pipe = new PassThrough();
    pipe.end('ERROR disk full\n');
    assert.equal(await runCli(['-p', 'What does this say?'], { io, cwd, env: env(stateDir), stdin: pipe }), 0, err);
    assert.equal(lastUserText(), 'What does this say?\nERROR disk full\n');
    const before = standin.requests.length;
    const empty = new PassThrough();
    empty.end();
    assert.equal(await runCli(['-p'], { io, cwd, env: env(stateDir), stdin: empty }), 2);
    assert.match(err, /no prompt: give it after -p or pipe it on stdin/);
    assert.equal(standin.requests.length, before, 'nothing was sent');
  });

  it('as a real process: `cat file | threadline -p "explain"`, `… | threadline -p`, and a pipe left open goes on after the wait', async () => {
    const cli = await cliBundle();
    const cwd = tmp('tl-stdin-');
    const stateDir = tmp('tl-state-');
    // Not spawnSync: the stand-in answers from this process's event loop.
    // input undefined leaves stdin open and silent, as a parent's pipe can be.
    const run = (args: string[], input: string | undefined) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const p = spawn(process.execPath, [cli, ...args], { cwd, env: env(stateDir), stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
        p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
        p.once('exit', (status) => {
          p.stdin.destroy();
          resolve({ status, stdout, stderr });
        });
        if (input !== undefined) p.stdin.end(input);
      });
    standin.enqueue({ content: [{ type: 'text', text: 'A greeting.' }] });
    const piped = await run(['-p', 'explain'], 'hello\nworld\n');
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(piped.stdout, 'A greeting.\n');
    assert.equal(lastUserText(), 'explain\nhello\nworld\n');

    standin.enqueue({ content: [{ type: 'text', text: 'Only the input.' }] });
    const only = await run(['-p', '--output-format', 'json'], 'summarise me\n');
    assert.equal(only.status, 0, only.stderr);
    assert.equal((JSON.parse(only.stdout) as { result: string }).result, 'Only the input.');
    assert.equal(lastUserText(), 'summarise me\n');

    const nothing = await run(['-p'], '');
    assert.equal(nothing.status, 2);
    assert.match(nothing.stderr, /no prompt/);

    // A caller that never closes stdin (a parent's pipe): the run goes on without it and says so.
    standin.enqueue({ content: [{ type: 'text', text: 'Went on.' }] });
    const open = await run(['-p', 'go on'], undefined);
    assert.equal(open.status, 0, open.stderr);
    assert.equal(open.stdout, 'Went on.\n');
    assert.match(open.stderr, /nothing arrived on stdin within 3 s/);
    assert.equal(lastUserText(), 'go on');
  });
});
