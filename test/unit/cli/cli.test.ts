import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HELP, runCli, VERSION } from '../../../src/cli/cli';

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { io: { out: (t) => (out += t), err: (t) => (err += t) }, env, cwd: process.cwd() });
  return { code, out, err };
}

describe('threadline CLI surface', () => {
  it('prints its version and help', async () => {
    assert.deepEqual(await run(['--version']), { code: 0, out: `${VERSION}\n`, err: '' });
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.equal(help.out, HELP);
    for (const flag of ['-p', '--cwd', '--model', '--context-window', '--max-turns', '--allowed-tools', '--output-format']) {
      assert.ok(help.out.includes(flag), `help documents ${flag}`);
    }
  });

  it('exits 2 with a one-line reason on bad usage', async () => {
    for (const argv of [['--bogus'], ['-p', 'hi', '--max-turns', '0'], ['-p', 'hi', '--output-format', 'xml'], ['-p', '   ']]) {
      const r = await run(argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.out, '');
      assert.equal(r.err.trim().split('\n').length, 1);
      assert.match(r.err, /^threadline: /);
    }
  });

  it('exits 1 with a one-line reason when no API key is set', async () => {
    const r = await run(['-p', 'hello'], {});
    assert.equal(r.code, 1);
    assert.equal(r.err, 'threadline: ANTHROPIC_API_KEY is not set\n');
  });

  it('refuses a --cwd that is not a directory', async () => {
    const r = await run(['-p', 'hello', '--cwd', '/definitely/not/here'], { ANTHROPIC_API_KEY: 'k' });
    assert.equal(r.code, 2);
    assert.match(r.err, /--cwd is not a directory/);
  });

  it('context --json reports the thresholds for a given window', async () => {
    const r = await run(['context', '--json', '--context-window', '100000', '--model', 'my-local-model']);
    assert.equal(r.code, 0);
    const j = JSON.parse(r.out) as { model: string; tokens: { contextWindow: number; autoCompactAt: number } };
    assert.equal(j.model, 'my-local-model');
    assert.equal(j.tokens.contextWindow, 100_000);
    assert.ok(j.tokens.autoCompactAt < 100_000);
  });
});
