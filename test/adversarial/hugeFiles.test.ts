// Finding 14 (hole 5 of the second pass, its sizes): files larger than any reader expects, anywhere
// a file is read. A 4.3 MB .gitignore made one Glob take 33 s and 790 MB; a file of one 600 MB line
// crashed Read with RangeError; Read with `limit: 100000000` returned 66 MB, and that one result made
// every later request too large, the compaction's summary request included (sent although the
// README says no request over the blocking limit is), so the session was stuck for good: `-c` failed
// every time and nothing could compact it.
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTools } from '../../src/tools/builtin';
import { READ_MAX_BYTES } from '../../src/tools/builtin/read';
import type { MessageParam } from '../../src/api/types';
import { runCli } from '../../src/cli/cli';
import { TOOL_RESULT_MAX_CHARS } from '../../src/conversation/resultCap';
import { cliSessionsDir } from '../../src/sessions/paths';
import { SessionStore } from '../../src/sessions/sessionStore';
import { createToolRegistry } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { startStandin, type Standin } from '../standin/server';
import { createStandinAgent } from '../support/standinAgent';
import { tempDir } from './support';

async function call(cwd: string, name: string, input: unknown) {
  const tool = createTools().find((t) => t.name === name)!;
  const parsed = tool.parse(input);
  assert.ok(parsed.ok, JSON.stringify(input));
  // A guard against a hang, not a speed check: each of these answers in well under a second.
  const within = await Promise.race([tool.call(parsed.value, { cwd, signal: new AbortController().signal }), new Promise<undefined>((r) => setTimeout(() => r(undefined), 60_000).unref())]);
  assert.ok(within, `${name} ${JSON.stringify(input)} did not answer`);
  return within;
}

describe('finding 14: huge files anywhere a file is read', () => {
  it('a 4.3 MB .gitignore is read only up to the gate\'s cap, and the search says so', async () => {
    const cwd = tempDir('biggitignore');
    const rules = ['*.tmp', ...Array.from({ length: 180_000 }, (_, k) => `generated-output-${k}/**/*.cache`), 'late.log'];
    writeFileSync(join(cwd, '.gitignore'), `${rules.join('\n')}\n`);
    assert.ok(rules.join('\n').length > 4_300_000);
    for (const f of ['keep.txt', 'early.tmp', 'late.log']) writeFileSync(join(cwd, f), 'x\n');
    const r = await call(cwd, 'Glob', { pattern: '**' });
    const listed = r.content.split('\n');
    assert.ok(listed.includes('keep.txt'), r.content);
    assert.ok(!listed.includes('early.tmp'), 'a rule near the top still applies');
    // The rule at line 180,002 is past the cap: not read, so not applied.
    assert.ok(listed.includes('late.log'), r.content);
    assert.match(r.content, /\.gitignore files were read only in part/);
  });

  it('Read of a file whose one line is over V8\'s longest string answers with the line cut, not a RangeError', async () => {
    const cwd = tempDir('hugeline');
    const file = join(cwd, 'one-line.txt');
    // Sparse: text at the start (so it is not taken for binary), a hole of zero bytes the file
    // system does not store, a newline at the very end. 540 MB, past the ~512 MB a string may have.
    const size = 540 * 1024 * 1024;
    const fd = openSync(file, 'w');
    writeSync(fd, Buffer.alloc(16 * 1024, 0x61));
    ftruncateSync(fd, size);
    writeSync(fd, Buffer.from('\n'), 0, 1, size - 1);
    closeSync(fd);
    const r = await call(cwd, 'Read', { file_path: 'one-line.txt', offset: 1, limit: 10 });
    assert.notEqual(r.isError, true, r.content);
    assert.match(r.content, /^ {5}1\ta{2000}… \[line cut at 2000 of \d+ characters\]$/);
    assert.ok(r.content.length < 3000);
  });

  it('Read with limit 100000000 gives a bounded result that says where to go on', async () => {
    const cwd = tempDir('hugelimit');
    // 400 lines of 1,999 characters: 800 KB, each line under Read's line cap.
    writeFileSync(join(cwd, 'big.txt'), `${'y'.repeat(1999)}\n`.repeat(400));
    const r = await call(cwd, 'Read', { file_path: 'big.txt', limit: 100_000_000 });
    assert.notEqual(r.isError, true, r.content);
    assert.ok(Buffer.byteLength(r.content) <= READ_MAX_BYTES + 1024, `${Buffer.byteLength(r.content)} bytes`);
    const shown = /Showing lines 1–(\d+)/.exec(r.content);
    assert.ok(shown, r.content.slice(-300));
    assert.match(r.content, new RegExp(`Continue with offset ${Number(shown[1]) + 1}`));
  });

  describe('through the agent', () => {
    let standin: Standin;
    before(async () => {
      standin = await startStandin({ contextLimit: 200_000 });
    });
    after(async () => {
      await standin.close();
    });

    it('no tool result over the cap enters the history, whatever the tool returned', async () => {
      const cwd = tempDir('bigresult');
      const flood: Tool<Record<string, never>> = {
        name: 'Flood',
        description: 'Returns far more text than any request may hold.',
        inputSchema: { type: 'object', properties: {} },
        traits: {},
        parse: () => ({ ok: true, value: {} }),
        isReadOnly: () => true,
        summarize: () => 'flood',
        paths: () => [],
        call: async () => ({ content: `${'flood '.repeat(900_000)}\nexit status 3` }),
      };
      standin.reset();
      const { agent } = createStandinAgent({ url: standin.url, cwd, extra: { tools: createToolRegistry().with([flood as Tool]) } });
      standin.enqueue({ content: [{ type: 'tool_use', name: 'Flood', input: {} }] }, { content: [{ type: 'text', text: 'flooded' }] });
      await agent.submit('flood it');
      assert.deepEqual(standin.requests.map((r) => r.validationError).filter(Boolean), []);
      const history = agent.messages as MessageParam[];
      const results = history.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
      assert.equal(results.length, 1);
      const text = JSON.stringify(results[0]);
      assert.ok(text.length < TOOL_RESULT_MAX_CHARS + 2000, `${text.length}`);
      assert.match(text, /characters of this tool result were left out/);
      assert.match(text, /exit status 3/, 'the end of the result is kept');
    });

    it('a session stuck with a 3 MB result (written before the cap) continues with -c', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'tl-adv-stuck-'));
      const stateDir = mkdtempSync(join(tmpdir(), 'tl-adv-state-'));
      const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' };
      const cli = async (argv: string[]) => {
        let out = '';
        let err = '';
        const code = await runCli(argv, { io: { out: (t) => (out += t), err: (t) => (err += t) }, env, cwd });
        return { code, out, err };
      };
      standin.reset();
      standin.enqueue({ content: [{ type: 'text', text: 'hello' }] });
      assert.equal((await cli(['-p', 'hi', '--model', 'claude-sonnet-4-6'])).code, 0);
      // What an earlier version wrote after Read returned the whole of a big log.
      const dir = cliSessionsDir(cwd, env);
      const id = readdirSync(dir).find((n) => n.endsWith('.jsonl'))!.slice(0, -'.jsonl'.length);
      const huge = Array.from({ length: 1500 }, (_, k) => `${String(k + 1).padStart(6)}\t${'log line '.repeat(222)}`).join('\n');
      await new SessionStore(dir).append(id, [
        { t: 'msg', m: { role: 'user', content: [{ type: 'text', text: 'read the log' }] } },
        { t: 'msg', m: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_big', name: 'Read', input: { file_path: 'app.log', limit: 100_000_000 } }] } },
        { t: 'msg', m: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big', content: huge }] } },
        { t: 'msg', m: { role: 'assistant', content: [{ type: 'text', text: 'I read it.' }] } },
      ]);
      assert.ok(huge.length > 2_900_000);
      // Cut to the result cap when loaded, the history fits the window: the session goes on
      // without a compaction.
      standin.enqueue({ content: [{ type: 'text', text: 'still here' }] });
      const r = await cli(['-c', '-p', 'what did the log say?', '--model', 'claude-sonnet-4-6']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /still here/);
      // Nothing over the window was sent, the summary request included.
      assert.deepEqual(standin.requests.map((q) => q.validationError).filter(Boolean), []);
    });
  });
});
