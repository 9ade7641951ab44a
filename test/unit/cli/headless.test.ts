import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

const stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'));

async function cli(argv: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' },
    cwd,
  });
  return { code, out, err };
}

describe('threadline -p against the stand-in', () => {
  it('prints the final answer as text', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Always answer in English.');
    standin.enqueue({ content: [{ type: 'text', text: 'The answer is 42.' }] });
    const r = await cli(['-p', 'What is the answer?', '--model', 'claude-sonnet-4-6'], cwd);
    assert.deepEqual(r, { code: 0, out: 'The answer is 42.\n', err: '' });
    const body = standin.requests[0]!.body as { model: string; messages: unknown[]; system: Array<{ text: string }> };
    assert.equal(body.model, 'claude-sonnet-4-6');
    assert.match(JSON.stringify(body.messages[0]), /Always answer in English\./, 'instruction files reach the request');
  });

  it('json: one result object with usage and cost; allowed tools run, others are denied and reported', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'out.txt', content: 'made by the cli' } }, { type: 'tool_use', name: 'Bash', input: { command: 'touch nope' } }] },
      { content: [{ type: 'text', text: 'Wrote it; the command was refused.' }] },
    );
    // A model with a published price (cli/models.test.ts covers one without).
    const r = await cli(['-p', 'make a file', '--model', 'claude-sonnet-4-6', '--allowed-tools', 'Write', '--output-format', 'json'], cwd);
    assert.equal(r.code, 0);
    const j = JSON.parse(r.out) as { type: string; subtype: string; is_error: boolean; result: string; num_turns: number; usage: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }; permission_denials: Array<{ tool_name: string; reason: string }>; total_cost_usd: number };
    assert.equal(j.type, 'result');
    assert.equal(j.subtype, 'success');
    assert.equal(j.is_error, false);
    assert.equal(j.num_turns, 2);
    assert.ok(j.usage.input_tokens + j.usage.cache_creation_input_tokens + j.usage.cache_read_input_tokens > 0);
    assert.ok(j.usage.cache_read_input_tokens > 0, 'the second request reads the first one\'s cache');
    assert.ok(j.total_cost_usd > 0, r.out);
    assert.equal(readFileSync(join(cwd, 'out.txt'), 'utf8'), 'made by the cli');
    assert.equal(existsSync(join(cwd, 'nope')), false);
    assert.deepEqual(j.permission_denials.map((d) => d.tool_name), ['Bash']);
    assert.match(j.permission_denials[0]!.reason, /--allowed-tools/);
  });

  it('stream-json: init, assistant and user events, then the result, one JSON per line', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    writeFileSync(join(cwd, 'a.txt'), 'alpha\n');
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'text', text: 'It says alpha.' }] });
    const r = await cli(['-p', 'read a.txt', '--output-format', 'stream-json'], cwd);
    assert.equal(r.code, 0);
    const events = r.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; subtype?: string });
    assert.deepEqual(events.map((e) => e.type), ['system', 'assistant', 'user', 'assistant', 'result']);
    assert.equal(events[0]!.subtype, 'init');
    // The message's usage is named as the API names it, like the result's (it was camelCase).
    for (const e of [events[1], events[3]] as unknown as Array<{ message: { usage: Record<string, unknown> } }>) {
      assert.deepEqual(Object.keys(e.message.usage).sort(), ['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens']);
      assert.equal(typeof e.message.usage.output_tokens, 'number');
    }
  });

  it('saves the session; --continue and --resume pick it up; `sessions` lists it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    standin.enqueue({ content: [{ type: 'text', text: 'Noted: the codeword is heron.' }] });
    const first = await cli(['-p', 'Remember the codeword heron', '--output-format', 'json'], cwd);
    const id = (JSON.parse(first.out) as { session_id: string }).session_id;
    standin.enqueue({ content: [{ type: 'text', text: 'It was heron.' }] });
    const second = await cli(['-p', 'What was the codeword?', '--continue'], cwd);
    assert.equal(second.code, 0, second.err);
    const sent = JSON.stringify((standin.requests.at(-1)!.body as { messages: unknown[] }).messages);
    assert.match(sent, /Remember the codeword heron/, 'the earlier exchange is in the continued request');
    assert.match(sent, /Noted: the codeword is heron\./);
    const list = await cli(['sessions', '--json'], cwd);
    const sessions = JSON.parse(list.out) as Array<{ id: string; title: string; messageCount: number }>;
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.id, id);
    assert.equal(sessions[0]!.title, 'Remember the codeword heron');
    assert.equal(sessions[0]!.messageCount, 4);
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    assert.equal((await cli(['-p', 'again', '--resume', id], cwd)).code, 0);
    const missing = await cli(['-p', 'x', '--resume', 'no-such-session'], cwd);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot resume no-such-session/);
    const hostile = await cli(['-p', 'x', '--resume', '../../etc/passwd'], cwd);
    assert.equal(hostile.code, 1);
    assert.match(hostile.err, /not a session id/);
  });

  it('tells the model a folder just made with `git init` (no commits yet) is a git repository', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-git-'));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd });
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    assert.equal((await cli(['-p', 'hi'], cwd)).code, 0);
    const system = JSON.stringify((standin.requests[0]!.body as { system: unknown }).system);
    assert.match(system, /Is a git repository: yes/);
    assert.match(system, /Current branch: main/);
  });

  it('finishes a 60-step task by default (no turn limit, as the reference\'s -p); --max-turns 50 stops it with exit 1 and says why', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    const script = () => {
      for (let i = 0; i < 60; i++) standin.enqueue({ content: [{ type: 'tool_use', name: 'Glob', input: { pattern: `step${i}/*` } }] });
      standin.enqueue({ content: [{ type: 'text', text: 'All 60 steps done.' }] });
    };
    script();
    const full = await cli(['-p', 'do the 60 steps', '--output-format', 'json'], cwd);
    assert.equal(full.code, 0, full.err);
    const j = JSON.parse(full.out) as { subtype: string; num_turns: number; result: string };
    assert.deepEqual([j.subtype, j.num_turns, j.result], ['success', 61, 'All 60 steps done.']);
    standin.reset();
    script();
    const capped = await cli(['-p', 'do the 60 steps', '--max-turns', '50'], cwd);
    assert.equal(capped.code, 1);
    assert.equal(capped.err, 'threadline: stopped after 50 model turns (--max-turns 50) before the task was done; continue it with -c, or raise --max-turns\n');
    assert.equal(standin.discardScript(), 11, 'the limit cut the script short: ten steps and the answer were never asked for');
  });

  it('--allowed-tools with several values grants every one of them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'made.txt', content: 'w' } }, { type: 'tool_use', name: 'Bash', input: { command: 'touch ran' } }] },
      { content: [{ type: 'text', text: 'Both done.' }] },
    );
    const r = await cli(['-p', 'make two files', '--allowed-tools', 'Write', 'Bash(touch:*)', '--output-format', 'json'], cwd);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual((JSON.parse(r.out) as { permission_denials: unknown[] }).permission_denials, []);
    assert.ok(existsSync(join(cwd, 'made.txt')) && existsSync(join(cwd, 'ran')));
    const warned = await cli(['-p', 'x', '--allowed-tools', 'Read', 'WebFetch'], cwd);
    assert.match(warned.err, /--allowed-tools WebFetch: no tool here asks under that name, so the rule does nothing/);
  });

  it('exits 1 with a one-line reason on an API error, and on the turn limit', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    standin.enqueue({ content: [{ type: 'text', text: 'x' }], fault: { kind: 'http', status: 401 } });
    const bad = await cli(['-p', 'hi'], cwd);
    assert.equal(bad.code, 1);
    assert.equal(bad.err.trim().split('\n').length, 1);
    assert.match(bad.err, /^threadline: /);
    for (let i = 0; i < 2; i++) standin.enqueue({ content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*' } }] });
    const sent = standin.requests.length;
    const limited = await cli(['-p', 'loop', '--max-turns', '2'], cwd);
    assert.equal(limited.code, 1);
    assert.match(limited.err, /--max-turns 2/);
    assert.equal(standin.requests.length - sent, 2, 'no third request');
  });
});

describe('threadline memory', () => {
  it('lists, shows and removes memories; refuses a hostile name', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-mem-'));
    const memDir = join(mkdtempSync(join(tmpdir(), 'tl-cli-memdir-')), 'memory');
    const { MemoryDir } = await import('../../../src/memory/memdir');
    await new MemoryDir(memDir).save({ name: 'user_role', description: 'Data engineer', type: 'user', body: 'Works with Spark.' });
    const run = async (argv: string[]) => {
      let out = '';
      let err = '';
      const code = await runCli(argv, { io: { out: (t) => (out += t), err: (t) => (err += t) }, env: { THREADLINE_MEMORY_DIR: memDir, THREADLINE_STATE_DIR: stateDir }, cwd });
      return { code, out, err };
    };
    const list = await run(['memory']);
    assert.equal(list.code, 0);
    assert.match(list.out, /^user\s+user_role {2}Data engineer$/m);
    const show = await run(['memory', 'show', 'user_role']);
    assert.match(show.out, /Works with Spark\./);
    const bad = await run(['memory', 'show', '../../etc/passwd']);
    assert.equal(bad.code, 1);
    assert.equal(bad.out, '', 'nothing outside the memory folder is read');
    assert.match(bad.err, /no memory named/);
    assert.equal((await run(['memory', 'rm', 'user_role'])).code, 0);
    assert.match((await run(['memory', 'list'])).out, /No memories yet/);
    assert.equal((await run(['memory', 'show', 'user_role'])).code, 1);
  });
});
