// Class: git output in the prompt without a cap. A 4 MB commit message made every prompt in the
// repository fail ("prompt is too long"), since the snapshot's commit log was sent whole; a long
// branch name, user name or file name does the same in other sections. Every line and every
// section is capped, whether git ran (trusted) or the files were read (untrusted).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/cli';
import { formatGitSnapshot, MAX_COMMITS_CHARS, MAX_LINE_CHARS, MAX_STATUS_CHARS, takeGitSnapshot } from '../../src/context/git';
import { useStandin } from '../support/useStandin';

// The API's own limit: a request over it is refused, as a 4 MB one is.
const standin = useStandin({ contextLimit: 200_000 });

const FOUR_MB = 4 * 1024 * 1024;

function repo(): { ws: string; git: (...a: string[]) => void } {
  const ws = mkdtempSync(join(tmpdir(), 'tl-bigmsg-'));
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: ws, stdio: 'ignore', maxBuffer: 64 * 1024 * 1024 });
  git('init', '-q', '-b', 'main');
  for (let i = 1; i <= 4; i++) {
    writeFileSync(join(ws, `f${i}.txt`), `${i}\n`);
    git('add', '.');
    git('commit', '-q', '-m', `ordinary commit ${i}`);
  }
  return { ws, git };
}

function commitWithMessage(r: ReturnType<typeof repo>, message: string): void {
  const file = join(mkdtempSync(join(tmpdir(), 'tl-msg-')), 'msg');
  writeFileSync(file, message);
  writeFileSync(join(r.ws, 'big.txt'), 'x\n');
  r.git('add', '.');
  r.git('commit', '-q', '--cleanup=verbatim', '-F', file);
}

async function cli(argv: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: mkdtempSync(join(tmpdir(), 'tl-state-')), THREADLINE_AUTO_MEMORY: '0' },
    cwd,
  });
  return { code, out, err };
}

describe('a 4 MB commit message', () => {
  const messages: Array<[string, string]> = [
    ['one 4 MB line', 'A'.repeat(FOUR_MB)],
    ['4 MB of short lines with no blank line (one long subject)', 'word word word\n'.repeat(FOUR_MB / 15)],
    ['a short subject and a 4 MB body', `fix\n\n${'B'.repeat(FOUR_MB)}`],
  ];
  for (const [name, message] of messages) {
    it(`${name}: the snapshot keeps every commit, each cut to a line`, { timeout: 60_000 }, async () => {
      const r = repo();
      commitWithMessage(r, message);
      const s = await takeGitSnapshot(r.ws, { trusted: true, timeoutMs: 20_000 });
      assert.ok(s);
      const lines = s.recentCommits.split('\n');
      assert.equal(lines.length, 5, s.recentCommits.slice(0, 500));
      assert.ok(lines.every((l) => l.length <= MAX_LINE_CHARS + 10), 'each line capped');
      assert.ok(s.recentCommits.length <= MAX_COMMITS_CHARS);
      assert.match(s.recentCommits, /ordinary commit 4/, 'the older commits are still there');
      assert.ok(formatGitSnapshot(s).length < 6000, String(formatGitSnapshot(s).length));
    });
  }

  it('does not make every prompt fail: a trusted -p run answers, with a small request', { timeout: 60_000 }, async () => {
    const r = repo();
    commitWithMessage(r, 'A'.repeat(FOUR_MB));
    standin.enqueue({ content: [{ type: 'text', text: 'answered' }] });
    const run = await cli(['-p', 'hello', '--trust'], r.ws);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, 'answered\n');
    assert.ok(JSON.stringify(standin.requests[0]!.body).length < 100_000);
  });
});

describe('the other sections are capped too', () => {
  it('a very long branch name, user name and file names', { timeout: 60_000 }, async () => {
    const r = repo();
    const branch = Array.from({ length: 40 }, (_, i) => `segment-${i}-${'b'.repeat(40)}`).join('/');
    r.git('checkout', '-q', '-b', branch);
    r.git('config', 'user.name', 'N'.repeat(100_000));
    for (let i = 0; i < 3; i++) writeFileSync(join(r.ws, `${String(i).repeat(1)}${'f'.repeat(250)}.txt`), 'x');
    const s = await takeGitSnapshot(r.ws, { trusted: true, timeoutMs: 20_000 });
    assert.ok(s);
    assert.ok((s.branch ?? '').length <= 201, String(s.branch?.length));
    assert.ok((s.userName ?? '').length <= 201, String(s.userName?.length));
    assert.ok(s.status.split('\n').every((l) => l.length <= MAX_LINE_CHARS + 1));
    assert.ok(s.status.length <= MAX_STATUS_CHARS);
  });

  it('untrusted: a long branch read from HEAD is capped, and a huge HEAD is not read', async () => {
    const r = repo();
    const long = Array.from({ length: 40 }, (_, i) => `seg${i}${'c'.repeat(60)}`).join('/');
    r.git('checkout', '-q', '-b', long);
    const s = await takeGitSnapshot(r.ws, { trusted: false });
    assert.ok(s && (s.branch ?? '').length <= 201, String(s?.branch?.length));
    writeFileSync(join(r.ws, '.git', 'HEAD'), `ref: refs/heads/${'d'.repeat(FOUR_MB)}\n`);
    // A HEAD bigger than any pointer is not git's: the folder reads as no repository.
    const huge = await takeGitSnapshot(r.ws, { trusted: false });
    assert.equal(huge?.branch, undefined);
  });
});
