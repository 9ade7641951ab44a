// Finding 16 (hole 10 of the second pass): a repository whose `.claude/rules` is a symlink to / or to
// the home folder made rules discovery walk the whole file system: 15.7 s and 6,626 "skipped" lines
// in `threadline context`, and in VS Code one approval dialog per file found. Discovery now never
// enters a linked folder that leads out of the places its level may read, and is bounded in files,
// entries and time.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/cli';
import { RULES_MAX_FILES } from '../../src/context/instructionFs';
import { loadInstructions } from '../../src/context/instructions';
import { tempDir } from './support';

/** A home folder with a good many markdown files in it, as a real one has. */
function busyHome(): string {
  const home = tempDir('rules-home');
  for (let d = 0; d < 20; d++) {
    mkdirSync(join(home, 'notes', `folder${d}`), { recursive: true });
    for (let f = 0; f < 30; f++) writeFileSync(join(home, 'notes', `folder${d}`, `private-${f}.md`), `private note ${d}/${f}\n`);
  }
  return home;
}

function repo(): string {
  const base = tempDir('rules-repo');
  const ws = join(base, 'repo');
  mkdirSync(join(ws, '.claude'), { recursive: true });
  writeFileSync(join(ws, 'CLAUDE.md'), 'Project rules.\n');
  return ws;
}

async function load(ws: string, home: string) {
  const asked: string[] = [];
  const set = await loadInstructions({ cwd: ws, projectRoot: ws, home, managedRoot: null, filesystemRoot: ws, approveExternal: async (p) => (asked.push(p), false) });
  return { set, asked };
}

describe('finding 16: a symlinked .claude/rules walks the whole file system', () => {
  it('.claude/rules -> the home folder: not entered, one line in the report, nothing asked', async () => {
    const home = busyHome();
    const ws = repo();
    symlinkSync(home, join(ws, '.claude', 'rules'));
    const { set, asked } = await load(ws, home);
    assert.deepEqual(asked, [], 'no approval is asked for files discovery should never have reached');
    const rules = set.report.filter((r) => r.path.includes(`${join('.claude', 'rules')}`) || r.realPath?.startsWith(home));
    assert.equal(rules.length, 1, JSON.stringify(rules.slice(0, 5), null, 1));
    assert.equal(rules[0]!.reason, 'linked-folder-outside');
    assert.doesNotMatch(JSON.stringify(set.files), /private note/);
  });

  it('.claude/rules -> / : not entered either', async () => {
    const home = busyHome();
    const ws = repo();
    symlinkSync('/', join(ws, '.claude', 'rules'));
    const { set, asked } = await load(ws, home);
    assert.deepEqual(asked, []);
    assert.equal(set.report.filter((r) => r.status === 'skipped').length, 1, JSON.stringify(set.report.slice(0, 5), null, 1));
  });

  it('a linked folder inside the rules folder: followed within the project, not out of it; a loop ends', async () => {
    const home = busyHome();
    const ws = repo();
    mkdirSync(join(ws, '.claude', 'rules'));
    mkdirSync(join(ws, 'docs', 'rules'), { recursive: true });
    writeFileSync(join(ws, 'docs', 'rules', 'style.md'), 'Two spaces.\n');
    symlinkSync(join(ws, 'docs', 'rules'), join(ws, '.claude', 'rules', 'shared'));
    symlinkSync(join(home, 'notes'), join(ws, '.claude', 'rules', 'team'));
    symlinkSync('..', join(ws, '.claude', 'rules', 'loop'));
    const { set, asked } = await load(ws, home);
    assert.deepEqual(asked, []);
    assert.ok(set.files.some((f) => f.content.includes('Two spaces.')), 'the rule linked from inside the project is read');
    const outside = set.report.filter((r) => r.reason === 'linked-folder-outside');
    assert.deepEqual(outside.map((r) => r.path), [join(ws, '.claude', 'rules', 'team')]);
    assert.doesNotMatch(JSON.stringify(set), /private note/);
  });

  it('a rules folder with more files than discovery reads stops at the bound and says so', async () => {
    const home = tempDir('rules-home-empty');
    const ws = repo();
    mkdirSync(join(ws, '.claude', 'rules'));
    for (let f = 0; f < RULES_MAX_FILES + 50; f++) writeFileSync(join(ws, '.claude', 'rules', `r${String(f).padStart(4, '0')}.md`), `rule ${f}\n`);
    const { set } = await load(ws, home);
    const read = set.report.filter((r) => r.path.startsWith(join(ws, '.claude', 'rules', 'r')) && r.status !== 'skipped');
    assert.equal(read.length, RULES_MAX_FILES);
    assert.equal(set.report.filter((r) => r.reason === 'discovery-capped').length, 1);
  });

  it('threadline context in such a clone prints one line about it, not one per file', async () => {
    const home = busyHome();
    const ws = repo();
    symlinkSync(home, join(ws, '.claude', 'rules'));
    let out = '';
    let err = '';
    const code = await runCli(['context'], {
      io: { out: (t) => (out += t), err: (t) => (err += t) },
      env: { HOME: home, ANTHROPIC_API_KEY: 'k', THREADLINE_STATE_DIR: mkdtempSync(join(tmpdir(), 'tl-adv-state-')), THREADLINE_AUTO_MEMORY: '0' },
      cwd: ws,
    });
    assert.equal(code, 0, err);
    assert.ok(err.split('\n').filter((l) => /skipped/.test(l)).length <= 1, err.slice(0, 2000));
    assert.ok(`${out}${err}`.split('\n').filter((l) => /private-\d+\.md/.test(l)).length === 0, `${out}${err}`.slice(0, 2000));
  });
});
