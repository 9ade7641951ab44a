// Finding 12: Edit opens whatever the path names. Read refuses anything but a regular file; Edit
// only refuses folders, so on a FIFO its readFile waits for a writer forever, in a thread of
// libuv's pool that Stop cannot reach.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToolRegistry, createTools } from '../../src/tools/builtin';
import { EDIT_MAX_BYTES } from '../../src/tools/builtin/edit';
import { MemoryDir } from '../../src/memory/memdir';
import { SessionStore } from '../../src/sessions/sessionStore';
import type { Tool } from '../../src/tools/types';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

let standin: Standin;
const fifos: string[] = [];
before(async () => {
  standin = await startStandin();
});
after(async () => {
  // A reader stuck on a FIFO keeps this process alive: give it its end of file.
  for (const f of fifos) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader left
    }
  }
  await standin.close();
});

describe('finding 12: Edit on a FIFO hangs, and Stop does not end it', () => {
  it('Edit refuses a FIFO at once, and the turn goes on', async () => {
    const cwd = tempDir('fifo');
    mkdirSync(join(cwd, 'src'));
    const fifo = join(cwd, 'src', 'generated.ts');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, rules: { allow: ['Edit'] } });
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'src/generated.ts', old_string: 'old', new_string: 'new' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = agent.submit('fix generated.ts');
    const ended = await Promise.race([turn.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000).unref())]);
    assert.equal(ended, true, `the turn was still running after 5 s (status ${store.getState().status})`);
    const card = store.getState().messages.find((m) => m.kind === 'tool');
    assert.ok(card?.kind === 'tool' && card.status === 'error' && /not a regular file/.test(card.result ?? ''), JSON.stringify(card));
  });

  it('Edit, Write and Grep refuse FIFOs and devices; Edit caps what it reads', async () => {
    const cwd = tempDir('special');
    const fifo = join(cwd, 'pipe.ts');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    writeFileSync(join(cwd, 'big.txt'), Buffer.alloc(EDIT_MAX_BYTES + 1, 0x61));
    const signal = new AbortController().signal;
    const call = async (name: string, input: unknown) => {
      const tool = createTools().find((t) => t.name === name)!;
      const parsed = tool.parse(input);
      assert.ok(parsed.ok);
      const within = await Promise.race([tool.call(parsed.value, { cwd, signal }), new Promise<undefined>((r) => setTimeout(() => r(undefined), 3_000).unref())]);
      assert.ok(within, `${name} ${JSON.stringify(input)} did not answer within 3 s`);
      return within;
    };
    for (const file_path of [fifo, '/dev/zero']) {
      const edit = await call('Edit', { file_path, old_string: 'a', new_string: 'b' });
      assert.equal(edit.isError, true);
      assert.match(edit.content, /not a regular file/);
      const write = await call('Write', { file_path, content: 'x' });
      assert.equal(write.isError, true);
      assert.match(write.content, /not a regular file/);
    }
    const grep = await call('Grep', { pattern: 'x', path: fifo });
    assert.match(grep.content, /not a regular file/);
    const big = await call('Edit', { file_path: 'big.txt', old_string: 'a', new_string: 'b', replace_all: true });
    assert.equal(big.isError, true);
    assert.match(big.content, /over 10 MB/);
  });

  it('Stop answers a tool that ignores it: the turn ends, the call says interrupted', async () => {
    const cwd = tempDir('stuck');
    let release: () => void = () => undefined;
    const stuck: Tool<Record<string, never>> = {
      name: 'Stuck',
      description: 'A tool that ignores its signal, as a read blocked in the kernel does.',
      inputSchema: { type: 'object', properties: {} },
      traits: {},
      parse: () => ({ ok: true, value: {} }),
      isReadOnly: () => true,
      summarize: () => 'stuck',
      paths: () => [],
      call: () => new Promise((r) => (release = () => r({ content: 'finally' }))),
    };
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, extra: { tools: createToolRegistry().with([stuck as Tool]) } });
    // Stop ends the turn: no request follows the stuck call, so no answer is scripted for one.
    const sentBefore = standin.requests.length;
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Stuck', input: {} }] });
    const turn = agent.submit('go');
    const running = () => store.getState().messages.some((m) => m.kind === 'tool' && m.status === 'running');
    for (let i = 0; i < 200 && !running(); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(running(), 'the call started');
    agent.stop();
    const ended = await Promise.race([turn.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2_000).unref())]);
    release();
    assert.equal(ended, true, `the turn was still running 2 s after Stop (status ${store.getState().status})`);
    const card = store.getState().messages.find((m) => m.kind === 'tool');
    assert.equal(card?.kind === 'tool' && card.status, 'interrupted');
    // The history the next request carries answers the call.
    standin.enqueue({ content: [{ type: 'text', text: 'next' }] });
    await agent.submit('and now?');
    assert.deepEqual(standin.requests.filter((r) => r.validationError).map((r) => r.validationError), []);
    assert.equal(standin.requests.length - sentBefore, 2, 'the call, then the next prompt: nothing between them');
    assert.ok(store.getState().messages.some((m) => m.kind === 'assistant' && m.text === 'next'), 'the next prompt got its own answer');
  });
});

// Finding 14 (hole 5 of the second pass, its special files): every reader, not only the tools',
// opens what a repository or a damaged state folder put at its path. A .gitignore linked to
// /dev/zero was read to 4.7 GB before the host aborted; a FIFO .gitignore blocked the open in the
// main thread, where SIGTERM and SIGINT handlers no longer run.
describe('finding 14: special files anywhere a file is read', () => {
  const fifo = (p: string) => {
    execFileSync('mkfifo', [p]);
    fifos.push(p);
    return p;
  };
  /** Answers within `ms`, or undefined: a guard against a hang, not a speed check. */
  const within = <T,>(p: Promise<T>, ms = 10_000) => Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
  const search = async (cwd: string, name: string, input: unknown) => {
    const tool = createTools().find((t) => t.name === name)!;
    const parsed = tool.parse(input);
    assert.ok(parsed.ok);
    const r = await within(tool.call(parsed.value, { cwd, signal: new AbortController().signal }));
    assert.ok(r, `${name} ${JSON.stringify(input)} did not answer`);
    return r;
  };

  it('a .gitignore that is a FIFO, or a link to /dev/zero, at the top or deeper: Glob and Grep answer, and apply the rest', async () => {
    for (const kind of ['fifo', 'zero'] as const) {
      for (const where of ['', 'sub']) {
        const cwd = tempDir(`gitignore-${kind}`);
        mkdirSync(join(cwd, 'sub'));
        writeFileSync(join(cwd, 'a.txt'), 'needle\n');
        writeFileSync(join(cwd, 'sub', 'b.txt'), 'needle\n');
        const special = join(cwd, where, '.gitignore');
        if (kind === 'fifo') fifo(special);
        else symlinkSync('/dev/zero', special);
        const glob = await search(cwd, 'Glob', { pattern: '**/*.txt' });
        assert.deepEqual(glob.content.split('\n').sort(), ['a.txt', 'sub/b.txt'], `${kind} in ${where || 'the top'}`);
        const grep = await search(cwd, 'Grep', { pattern: 'needle' });
        // A link to /dev/zero is a link to no file: counted in a note, as links leading out are (pass 55 L1).
        assert.deepEqual(grep.content.split('\n').filter((l) => l && !l.startsWith('(')).sort(), ['a.txt', 'sub/b.txt']);
      }
    }
  });

  it('SIGTERM still reaches the host after a search met a FIFO .gitignore', async () => {
    const cwd = tempDir('gitignore-term');
    writeFileSync(join(cwd, 'a.txt'), 'x\n');
    fifo(join(cwd, '.gitignore'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'specialFiles-child.mts'), cwd], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      for (let i = 0; i < 300 && !out.includes('done'); i++) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGTERM');
      const code = await within(exited);
      assert.equal(code, 0, `the host did not end on SIGTERM; it said: ${JSON.stringify(out)}`);
      assert.match(out, /done "a\.txt"/);
      assert.match(out, /terminated/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it("Threadline's own state: a FIFO among memory files or in place of the session index is skipped, not waited on", async () => {
    const memdir = join(tempDir('memfifo'), 'memory');
    mkdirSync(memdir);
    writeFileSync(join(memdir, 'prefs.md'), '---\nname: prefs\ndescription: tabs\ntype: user\n---\nTabs.\n');
    fifo(join(memdir, 'trap.md'));
    const listed = await within(new MemoryDir(memdir).list());
    assert.ok(listed, 'listing the memory folder did not answer');
    assert.deepEqual(listed.valid.map((m) => m.name), ['prefs']);
    assert.deepEqual(listed.invalid.map((m) => m.file), ['trap.md']);
    const sessions = tempDir('indexfifo');
    fifo(join(sessions, 'index.json'));
    const list = await within(new SessionStore(sessions).list());
    assert.deepEqual(list, []);
  });
});
