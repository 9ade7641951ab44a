// The packaged headless CLI (dist/cli.js, the `threadline` bin) as users run it: a real process,
// its stdout, stderr and exit code, against the Messages API stand-in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
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
