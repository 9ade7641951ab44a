import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

async function cli(argv: string[], cwd: string, state: string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0', HOME: mkdtempSync(join(tmpdir(), 'tl-home-')) },
    cwd,
  });
  return { code, out, err };
}

function project(permissions: Record<string, unknown>): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-proj-')));
  mkdirSync(join(ws, '.claude'));
  writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify({ permissions }));
  return ws;
}

describe('threadline trust', () => {
  it('trusts a folder (default: --cwd), lists and revokes it', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const ws = project({});
    assert.deepEqual(await cli(['trust', '--list'], ws, state), { code: 0, out: 'No trusted folders.\n', err: '' });
    const t = await cli(['trust'], ws, state);
    assert.equal(t.code, 0);
    assert.match(t.out, new RegExp(`^Trusted ${ws}: `));
    assert.match((await cli(['trust', ws], '/', state)).out, /was already trusted/);
    assert.match((await cli(['trust', '--list'], ws, state)).out, new RegExp(`^${ws}  \\(since \\d{4}-\\d\\d-\\d\\d\\)\\n$`));
    const json = JSON.parse((await cli(['trust', '--list', '--json'], ws, state)).out) as { file: string; folders: Array<{ path: string }> };
    assert.equal(json.file, join(state, 'trusted-folders.json'));
    assert.deepEqual(json.folders.map((f) => f.path), [ws]);
    assert.deepEqual(await cli(['trust', '--revoke', '--cwd', ws], '/', state), { code: 0, out: `No longer trusted: ${ws}\n`, err: '' });
    assert.match((await cli(['trust', '--revoke'], ws, state)).out, /was not trusted/);
  });

  it('refuses what is not a folder, and a damaged trust file, without touching it', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const ws = project({});
    const r = await cli(['trust', join(ws, 'missing')], ws, state);
    assert.equal(r.code, 2);
    assert.match(r.err, /not a folder/);
    writeFileSync(join(state, 'trusted-folders.json'), '{oops');
    const d = await cli(['trust'], ws, state);
    assert.equal(d.code, 1);
    assert.match(d.err, /trusted-folders\.json is not valid JSON.*fix or remove it/);
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const run = await cli(['-p', 'hi'], project({ allow: ['Bash'] }), state);
    assert.equal(run.code, 0);
    assert.match(run.err, /no folder is trusted until it is fixed or removed/);
  });

  it('--trust applies for one run and is not remembered', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const ws = project({ allow: ['Bash'] });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo ran > out.txt' } }] }, { content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'go', '--trust'], ws, state);
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /trust/);
    assert.equal((await cli(['trust', '--list'], ws, state)).out, 'No trusted folders.\n');
  });
});

describe('threadline context and trust', () => {
  it('says whether the folder is trusted and marks what is not applied; the JSON says the same', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const ws = project({ allow: ['Bash(make:*)'], deny: ['Read(secrets/**)'], defaultMode: 'acceptEdits' });
    const before = await cli(['context'], ws, state);
    assert.equal(before.code, 0, before.err);
    assert.match(before.out, new RegExp(`Folder: ${ws}, not trusted: its settings may restrict but not grant`));
    assert.match(before.out, /deny +Read\(secrets\/\*\*\) +— \.claude\/settings\.json$/m);
    assert.match(before.out, /allow +Bash\(make:\*\) +— \.claude\/settings\.json \(not applied: the folder is not trusted\)/);
    assert.match(before.out, /defaultMode acceptEdits +— \.claude\/settings\.json \(not applied: the folder is not trusted\)/);
    assert.equal(before.err, '', 'context names it in its output, not on stderr');
    const j = JSON.parse((await cli(['context', '--json'], ws, state)).out) as { trust: { trusted: boolean; folder: string }; permissions: { withheld: Array<{ grant: string }>; defaultMode?: unknown } };
    assert.deepEqual(j.trust, { folder: ws, trusted: false, how: 'no' });
    assert.deepEqual(j.permissions.withheld.map((w) => w.grant), ['allow Bash(make:*)', 'defaultMode acceptEdits']);
    assert.equal(j.permissions.defaultMode, undefined);
    await cli(['trust'], ws, state);
    const after = await cli(['context'], ws, state);
    assert.match(after.out, new RegExp(`Folder: ${ws}, trusted \\(threadline trust --revoke to undo\\)`));
    assert.doesNotMatch(after.out, /not applied/);
    assert.match((await cli(['context', '--trust'], project({}), state)).out, /trusted for this run \(--trust\)/);
  });

  it('control characters from a settings file reach the terminal escaped', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    const ws = project({ allow: ['Bash(\u001b]52;c;cHduZWQ=\u0007x:*)'] });
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const r = await cli(['-p', 'hi'], ws, state);
    assert.match(r.err, /folder not trusted; ignored from \.claude\/settings\.json: allow Bash\(\\x1b\]52;c;cHduZWQ=\\x07x:\*\)/);
    const shown = r.err + (await cli(['context'], ws, state)).out;
    assert.ok(!shown.includes('\u001b') && !shown.includes('\u0007'), 'no raw escape reaches the terminal');
  });

  it('--help documents trust', async () => {
    const h = await cli(['--help'], '/', mkdtempSync(join(tmpdir(), 'tl-state-')));
    for (const s of ['threadline trust [DIR]', 'threadline trust --list', 'threadline trust --revoke', '--trust', 'Folder trust:']) assert.ok(h.out.includes(s), s);
  });
});
