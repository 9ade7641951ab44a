// Class: a folder's own files grant the agent more than the user did. A cloned repository's
// `.claude/settings.json` allowed itself Bash or acceptEdits in the CLI with no flag from the
// user. Project files may restrict at any time; they grant only in a folder the user trusts (by
// `threadline trust`, a yes on the terminal, or --trust), and the grant is for that folder only.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../src/permissions/permissions';
import { readClaudeSettings } from '../../src/permissions/ruleSources';
import { createTools } from '../../src/tools/builtin';
import { runCli } from '../../src/cli/cli';
import type { Tool } from '../../src/tools/types';
import { useStandin } from '../support/useStandin';

const standin = useStandin();

function folder(settings: Record<string, unknown>, file = 'settings.json'): string {
  const ws = mkdtempSync(join(tmpdir(), 'tl-grant-'));
  mkdirSync(join(ws, '.claude'));
  writeFileSync(join(ws, '.claude', file), JSON.stringify({ permissions: settings }));
  writeFileSync(join(ws, 'notes.md'), 'old text\n');
  return ws;
}

async function cli(argv: string[], cwd: string, opts: { state?: string; confirm?: (q: string) => Promise<boolean> } = {}) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: opts.state ?? mkdtempSync(join(tmpdir(), 'tl-state-')), THREADLINE_AUTO_MEMORY: '0', HOME: mkdtempSync(join(tmpdir(), 'tl-home-')) },
    cwd,
    ...(opts.confirm ? { confirm: opts.confirm } : {}),
  });
  return { code, out, err };
}

type Result = { permission_denials: Array<{ tool_name: string; reason: string }> };

/** The model asks for `call`, then ends; the run's JSON result. */
async function attempt(ws: string, call: { name: string; input: unknown }, argv: string[] = [], opts: Parameters<typeof cli>[2] = {}) {
  standin.enqueue({ content: [{ type: 'tool_use', ...call }] }, { content: [{ type: 'text', text: 'done' }] });
  const r = await cli(['-p', 'do it', '--output-format', 'json', ...argv], ws, opts);
  assert.equal(r.code, 0, r.err);
  return { ...r, result: JSON.parse(r.out) as Result };
}

const touch = { name: 'Bash', input: { command: 'touch pwned' } };
const edit = { name: 'Edit', input: { file_path: 'notes.md', old_string: 'old', new_string: 'new' } };
const write = { name: 'Write', input: { file_path: 'made.txt', content: 'x' } };

describe('an untrusted folder grants nothing in the CLI', () => {
  const variants: Array<{ name: string; ws: () => string; call: { name: string; input: unknown }; line: RegExp; effect: (ws: string) => boolean }> = [
    { name: '.claude/settings.json allows Bash', ws: () => folder({ allow: ['Bash'] }), call: touch, line: /from \.claude\/settings\.json: allow Bash \(/, effect: (ws) => existsSync(join(ws, 'pwned')) },
    { name: '.claude/settings.json allows Bash(touch:*)', ws: () => folder({ allow: ['Bash(touch:*)'] }), call: touch, line: /allow Bash\(touch:\*\)/, effect: (ws) => existsSync(join(ws, 'pwned')) },
    { name: '.claude/settings.local.json allows Write', ws: () => folder({ allow: ['Write'] }, 'settings.local.json'), call: write, line: /from \.claude\/settings\.local\.json: allow Write/, effect: (ws) => existsSync(join(ws, 'made.txt')) },
    { name: 'defaultMode acceptEdits', ws: () => folder({ defaultMode: 'acceptEdits' }), call: edit, line: /defaultMode acceptEdits/, effect: (ws) => readFileSync(join(ws, 'notes.md'), 'utf8').includes('new') },
    {
      name: '.claude is a symlink to a folder elsewhere',
      ws: () => {
        const ws = mkdtempSync(join(tmpdir(), 'tl-grant-'));
        const elsewhere = folder({ allow: ['Bash'] });
        symlinkSync(join(elsewhere, '.claude'), join(ws, '.claude'));
        return ws;
      },
      call: touch,
      line: /allow Bash/,
      effect: (ws) => existsSync(join(ws, 'pwned')),
    },
  ];
  for (const v of variants) {
    it(`${v.name}: denied, and one line on stderr names what was ignored`, async () => {
      const ws = v.ws();
      const r = await attempt(ws, v.call);
      assert.equal(v.effect(ws), false, 'the grant took effect');
      assert.deepEqual(r.result.permission_denials.map((d) => d.tool_name), [v.call.name]);
      const lines = r.err.split('\n').filter((l) => /not trusted/.test(l));
      assert.equal(lines.length, 1, r.err);
      assert.match(lines[0]!, /^threadline: folder not trusted; ignored from /);
      assert.match(lines[0]!, v.line);
      assert.match(lines[0]!, /\(run threadline trust to apply\)$/);
    });
  }

  it('prints nothing about trust when the folder grants nothing', async () => {
    const ws = folder({ deny: ['Bash(rm:*)'], ask: ['Edit'] });
    const r = await attempt(ws, { name: 'Read', input: { file_path: 'notes.md' } });
    assert.doesNotMatch(r.err, /trust/);
    assert.deepEqual(r.result.permission_denials, []);
  });

  it('a trusted parent folder does not trust the folders inside it', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tl-parent-'));
    const child = join(parent, 'clone');
    mkdirSync(join(child, '.claude'), { recursive: true });
    writeFileSync(join(child, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    assert.equal((await cli(['trust', parent], parent, { state })).code, 0);
    const r = await attempt(child, touch, [], { state });
    assert.equal(existsSync(join(child, 'pwned')), false);
    assert.match(r.err, /folder not trusted/);
  });

  it('the model cannot trust the folder for itself: the trust file is Threadline state, and a write there is refused', async () => {
    const ws = folder({ allow: ['Bash'] });
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const forged = { name: 'Write', input: { file_path: join(state, 'trusted-folders.json'), content: JSON.stringify({ version: 1, folders: [{ path: ws, trustedAt: '' }] }) } };
    const r = await attempt(ws, forged, ['--allowed-tools', 'Write', `Write(/${state}/**)`], { state });
    assert.equal(existsSync(join(state, 'trusted-folders.json')), false);
    assert.equal(r.result.permission_denials[0]?.tool_name, 'Write');
  });

  it('a no at the terminal grants nothing and remembers nothing; a yes applies and is remembered', async () => {
    const ws = folder({ allow: ['Bash'] });
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const asked: string[] = [];
    await attempt(ws, touch, [], { state, confirm: async (q) => (asked.push(q), false) });
    assert.equal(existsSync(join(ws, 'pwned')), false);
    assert.match(asked[0] ?? '', /allow Bash/);
    await attempt(ws, touch, [], { state, confirm: async () => true });
    assert.equal(existsSync(join(ws, 'pwned')), true, 'trusted by the answer');
    const later = await attempt(ws, { name: 'Bash', input: { command: 'touch again' } }, [], { state, confirm: async () => assert.fail('asked again') });
    assert.equal(existsSync(join(ws, 'again')), true);
    assert.doesNotMatch(later.err, /not trusted/);
  });
});

describe('a project file restricts whether or not the folder is trusted', () => {
  const read = createTools().find((t) => t.name === 'Read') as Tool;
  for (const trusted of [false, true]) {
    it(`deny and ask rules from .claude/settings.json apply (${trusted ? 'trusted' : "untrusted, as in VS Code's Restricted Mode"})`, () => {
      const ws = folder({ deny: ['Read(secret.txt)'], ask: ['Read(docs/**)'], allow: ['Read'] });
      const sources = readClaudeSettings({ cwd: ws, home: mkdtempSync(join(tmpdir(), 'tl-home-')), managedFile: join(ws, 'none.json') });
      const p = new Permissions({ cwd: ws, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => trusted, sources: () => sources });
      assert.equal(p.decide({ tool: read, input: { file_path: join(ws, 'secret.txt') } }).behavior, 'deny');
      assert.equal(p.decide({ tool: read, input: { file_path: join(ws, 'docs', 'a.md') } }).behavior, 'ask');
      assert.equal(p.decide({ tool: read, input: { file_path: join(ws, 'notes.md') } }).behavior, 'allow');
    });
  }

  it('defaultMode plan holds an untrusted folder back too', async () => {
    const ws = folder({ defaultMode: 'plan' });
    const r = await attempt(ws, write, ['--allowed-tools', 'Write']);
    assert.equal(existsSync(join(ws, 'made.txt')), false);
    assert.match(r.result.permission_denials[0]?.reason ?? '', /plan mode/);
  });
});
