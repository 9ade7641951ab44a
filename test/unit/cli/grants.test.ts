import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { makeHostileWorkspace } from '../../support/hostileWorkspace.mjs';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

const stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'));
const home = mkdtempSync(join(tmpdir(), 'tl-home-'));

async function cli(argv: string[], cwd: string, key = 'k') {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', HOME: home },
    cwd,
  });
  return { code, out, err };
}

/** The hostile workspace without its .claude/settings.json (which grants reads everywhere). */
function workspace() {
  const w = makeHostileWorkspace({ git: false });
  rmSync(join(w.ws, '.claude', 'settings.json'));
  return w;
}

/** What the second request carried back to the model as the tool's result. */
function toolResult(): string {
  const body = standin.requests[1]!.body as { messages: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages.at(-1)!.content);
}

type Result = { permission_denials: Array<{ tool_name: string; reason: string }> };

describe('--add-dir and the denials that name it', () => {
  it('a Read outside is denied with the exact flag that allows it, even with --allowed-tools Read', async () => {
    const { ws, outside } = workspace();
    const secret = join(outside, 'secret.txt');
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: secret } }] }, { content: [{ type: 'text', text: 'done' }] });
    const r = await cli(['-p', 'read it', '--allowed-tools', 'Read', '--output-format', 'json'], ws);
    assert.equal(r.code, 0, r.err);
    const reason = (JSON.parse(r.out) as Result).permission_denials[0]!.reason;
    assert.ok(reason.includes(`--add-dir ${outside}`), reason);
    assert.ok(reason.includes(`'Read(/${secret})'`), reason);
    assert.doesNotMatch(reason, /--allowed-tools Read[^(]/, 'never the flag that was already given and does not help');
    assert.doesNotMatch(toolResult(), /TOP-SECRET/);
  });

  it('with --add-dir the read runs; a write there still needs a rule', async () => {
    const { ws, outside } = workspace();
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(outside, 'secret.txt') } }, { type: 'tool_use', name: 'Write', input: { file_path: join(outside, 'new.txt'), content: 'x' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const r = await cli(['-p', 'read it', '--add-dir', outside, '--output-format', 'json'], ws);
    assert.equal(r.code, 0, r.err);
    assert.match(toolResult(), /TOP-SECRET-OUTSIDE/);
    const denials = (JSON.parse(r.out) as Result).permission_denials;
    assert.deepEqual(denials.map((d) => d.tool_name), ['Write']);
    assert.ok(denials[0]!.reason.includes(`--allowed-tools 'Write(/${join(outside, 'new.txt')})'`), denials[0]!.reason);
  });

  it('a --add-dir that is not a folder is a usage error', async () => {
    const { ws } = makeHostileWorkspace({ git: false });
    const r = await cli(['-p', 'x', '--add-dir', join(ws, 'nope')], ws);
    assert.equal(r.code, 2);
    assert.match(r.err, /--add-dir is not a directory/);
  });
});

describe('the key stays out of child processes', () => {
  it('printenv ANTHROPIC_API_KEY through Bash prints nothing', async () => {
    const { ws } = makeHostileWorkspace({ git: false });
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-secret-value';
    process.env.ANTHROPIC_AUTH_TOKEN = 'auth-token-secret-value';
    try {
      standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'printenv ANTHROPIC_API_KEY; printenv ANTHROPIC_AUTH_TOKEN; echo done' } }] }, { content: [{ type: 'text', text: 'ok' }] });
      const r = await cli(['-p', 'show the key', '--allowed-tools', 'Bash'], ws, 'sk-ant-test-secret-value');
      assert.equal(r.code, 0, r.err);
      const result = toolResult();
      assert.match(result, /done/);
      assert.doesNotMatch(result, /secret-value/);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
      delete process.env.ANTHROPIC_AUTH_TOKEN;
    }
  });
});

describe("Claude Code's settings in the CLI", () => {
  it('a project allow applies once the folder is trusted; `threadline context` lists every rule with its file and whether it applies', async () => {
    const { ws } = makeHostileWorkspace({ git: false }); // its .claude/settings.json allows Bash(npm test:*)
    writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'x', scripts: { test: 'echo tests-ran' } }));
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(**/*.pem)'] } }));
    const untrusted = await cli(['context'], ws);
    assert.match(untrusted.out, /allow +Bash\(npm test:\*\) +— \.claude\/settings\.json \(not applied: the folder is not trusted\)/);
    assert.match(untrusted.out, /deny +Read\(\*\*\/\*\.pem\) +— ~\/\.claude\/settings\.json$/m);
    assert.equal((await cli(['trust'], ws)).code, 0);
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'npm test' } }] }, { content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'run the tests'], ws);
    assert.equal(r.code, 0, r.err);
    assert.match(toolResult(), /tests-ran/);
    const c = await cli(['context'], ws);
    assert.match(c.out, /allow +Bash\(npm test:\*\) +— \.claude\/settings\.json$/m);
    const j = JSON.parse((await cli(['context', '--json'], ws)).out) as { permissions: { rules: Array<{ rule: string; source: string; active: boolean }> } };
    assert.ok(j.permissions.rules.some((x) => x.rule === 'Bash(npm test:*)' && x.source === '.claude/settings.json' && x.active));
    assert.equal((await cli(['trust', '--revoke'], ws)).code, 0);
  });
});
