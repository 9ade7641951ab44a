// The packaged headless CLI (dist/cli.js, the `threadline` bin) as users run it: a real process,
// its stdout, stderr and exit code, against the Messages API stand-in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './harness.mjs';
import { startStandinProcess } from './standinProcess.mjs';

const CLI = join(ROOT, 'dist', 'cli.js');

describe('the threadline command', () => {
  let standin;
  before(async () => {
    standin = await startStandinProcess();
  });
  after(() => standin?.stop());

  const run = (args, env = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: mkdtempSync(join(tmpdir(), 'tl-home-')), ...env } });

  it('prints its version and help', () => {
    const v = run(['--version']);
    assert.equal(v.status, 0);
    assert.equal(v.stdout.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    assert.match(run(['--help']).stdout, /--output-format text\|json\|stream-json/);
  });

  it('--allowed-tools keeps every value after it; a prompt it could have swallowed is a usage error', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_AUTO_MEMORY: '0' };
    await standin.reset();
    await standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'made.txt', content: 'w' } }, { type: 'tool_use', name: 'Bash', input: { command: 'touch ran' } }] },
      { content: [{ type: 'text', text: 'Both done.' }] },
    ]);
    const ok = run(['-p', 'make two files', '--cwd', cwd, '--allowed-tools', 'Write', 'Bash(touch:*)', '--output-format', 'json'], env);
    assert.equal(ok.status, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).permission_denials, []);
    assert.ok(existsSync(join(cwd, 'made.txt')) && existsSync(join(cwd, 'ran')));
    const ambiguous = run(['--cwd', cwd, '--allowedTools', 'Read', 'fix the bug'], env);
    assert.equal(ambiguous.status, 2);
    assert.match(ambiguous.stderr, /^threadline: "fix" is not a tool rule .*give the prompt with -p, before --allowedTools, or after --/);
    assert.equal((await standin.requests()).length, 2, 'the two requests of the first run; nothing for the refused command');
  });

  it('sessions --all and --resume see this folder\'s Claude Code sessions', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-cli-cc-')));
    const home = join(root, 'home');
    const cwd = join(root, 'ws');
    mkdirSync(cwd, { recursive: true });
    const key = cwd.replace(/[^A-Za-z0-9]/g, '-');
    const fixtures = join(ROOT, 'test', 'fixtures', 'claude-code');
    const fill = (t) => t.replaceAll('{{HOME}}', home).replaceAll('{{CWD}}', cwd).replaceAll('{{PROJECT_KEY}}', key);
    const { sessionId } = JSON.parse(readFileSync(join(fixtures, 'rewind.expected.json'), 'utf8'));
    mkdirSync(join(home, '.claude', 'projects', key), { recursive: true });
    writeFileSync(join(home, '.claude', 'projects', key, `${sessionId}.jsonl`), fill(readFileSync(join(fixtures, 'rewind.jsonl'), 'utf8')));
    const env = { HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_AUTO_MEMORY: '0' };
    const runHere = (args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, env: { PATH: process.env.PATH, ...env } });

    const listed = runHere(['sessions', '--all', '--json']);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout).map((s) => [s.source, s.id, s.title]), [['claude-code', sessionId, 'Pick a number between one and ten.']]);
    await standin.reset();
    await standin.enqueue([{ content: [{ type: 'text', text: 'Seven halved is three and a half.' }] }]);
    const resumed = runHere(['-p', 'What was the number?', '--resume', sessionId]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /^threadline: Imported the Claude Code session "Pick a number between one and ten\." as a new Threadline session; its transcript is unchanged\. Lines left out: 2 on a branch left by a rewind\./);
    const sent = JSON.stringify((await standin.requests())[0].body.messages);
    assert.match(sent, /Halve it instead/);
    assert.doesNotMatch(sent, /Double it/);
    const after = JSON.parse(runHere(['sessions', '--all', '--json']).stdout);
    assert.deepEqual(after.map((s) => s.source).sort(), ['claude-code', 'threadline']);
  });

  it('answers a prompt and exits 0; fails with one line and exit 1 without a key', async () => {
    await standin.enqueue([{ content: [{ type: 'text', text: 'Hello from the stand-in.' }] }]);
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-'));
    const ok = run(['-p', 'hello', '--cwd', cwd, '--output-format', 'json'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).result, 'Hello from the stand-in.');
    const nokey = run(['-p', 'hello', '--cwd', cwd]);
    assert.equal(nokey.status, 1);
    assert.equal(nokey.stderr, 'threadline: ANTHROPIC_API_KEY is not set\n');
  });

  it('judges Bash by its parsed command with the bundled parser: an allowed echo runs, the same echo writing a file is refused', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-bash-'));
    await standin.enqueue([
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: "echo 'allowed ran' > /dev/null && echo $'allowed\\x20ran'" } }] },
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo pwned > pwned.txt' } }] },
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: "'r''m' -rf ." } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const r = run(['-p', 'go', '--cwd', cwd, '--output-format', 'stream-json', '--allowed-tools', 'Bash(echo:*)'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url });
    assert.equal(r.status, 0, r.stderr);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).flatMap((e) => (e.type === 'user' ? e.message.content : [])).filter((b) => b.type === 'tool_result');
    const text = (b) => (typeof b.content === 'string' ? b.content : b.content.map((c) => c.text).join(''));
    assert.equal(results.length, 3, r.stdout);
    assert.match(text(results[0]), /allowed ran/);
    assert.match(text(results[1]), /output redirected to a file/);
    assert.match(text(results[2]), /no allow rule covers/);
    assert.equal(existsSync(join(cwd, 'pwned.txt')), false);
  });
});
