// Class: a program named by the repository runs while Threadline reads git state, before any tool
// or permission is asked about (`.gitattributes` filters, gpg.program with log.showSignature, the
// fsmonitor, hooks, pagers, diff drivers, ssh and credential helpers, a submodule's own config).
// Each variant first shows plain git running the program in that repository, then that neither
// the trusted snapshot nor anything in an untrusted folder does.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { runCli } from '../../src/cli/cli';
import { takeGitSnapshot } from '../../src/context/git';
import { hostileRepo, MECHANISMS, springWithPlainGit, type HostileRepo } from '../support/hostileGit';
import { useStandin } from '../support/useStandin';

const standin = useStandin();

async function cli(argv: string[], cwd: string, stateDir = mkdtempSync(join(tmpdir(), 'tl-state-'))) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0', HOME: mkdtempSync(join(tmpdir(), 'tl-home-')) },
    cwd,
  });
  return { code, out, err };
}

/** Runs `body` with a `git` first on PATH that logs each call, then runs the real one. */
async function countingGit<T>(body: (calls: () => string[]) => Promise<T>): Promise<T> {
  const bin = mkdtempSync(join(tmpdir(), 'tl-gitlog-'));
  const log = join(bin, 'calls');
  const real = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${bin}:${saved}`;
  try {
    return await body(() => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []));
  } finally {
    process.env.PATH = saved;
  }
}

/** A repository with several traps at once: filters, a signed commit with gpg.program, fsmonitor, a hook. */
function armedRepo(): HostileRepo {
  const r = hostileRepo();
  for (const name of ['filter-clean', 'gpg-openpgp', 'fsmonitor', 'hook']) MECHANISMS.find((m) => m.name === name)!.arm(r);
  r.touch();
  return r;
}

describe('git runs no program the repository names (trusted folder: every mechanism switched off)', () => {
  for (const m of MECHANISMS) {
    it(`${m.name}: plain git runs it here; the snapshot does not, and still reads the repository`, { timeout: 60_000 }, async () => {
      const r = hostileRepo();
      m.arm(r);
      r.touch();
      springWithPlainGit(r, m);
      assert.ok(r.ran().includes(m.name), `the trap is live: plain git ran ${m.name} (ran: ${r.ran().join(', ')})`);
      r.clear();
      r.touch();
      const s = await takeGitSnapshot(r.ws, { trusted: true, timeoutMs: 20_000 });
      assert.equal(s?.branch, 'main', 'the snapshot was taken');
      assert.match(s.recentCommits, /\w/, 'with its commits');
      assert.deepEqual(r.ran(), [], `the snapshot ran ${r.ran().join(', ')}`);
    });
  }
});

describe('an untrusted folder: no git process at all', () => {
  it('threadline context starts no git, and its snapshot says what it did not read', async () => {
    const r = armedRepo();
    await countingGit(async (calls) => {
      const out = await cli(['context', '--json'], r.ws);
      assert.equal(out.code, 0, out.err);
      assert.deepEqual(calls(), [], 'git ran in an untrusted folder');
    });
    assert.deepEqual(r.ran(), []);
  });

  it('a -p run starts no git; the request says the branch and that the rest was not read', async () => {
    const r = armedRepo();
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await countingGit(async (calls) => {
      const out = await cli(['-p', 'hello'], r.ws);
      assert.equal(out.code, 0, out.err);
      assert.deepEqual(calls(), []);
    });
    assert.deepEqual(r.ran(), []);
    const system = JSON.stringify((standin.requests[0]!.body as { system: unknown }).system);
    assert.match(system, /Current branch: main/);
    assert.match(system, /no git command ran/);
    assert.match(system, /Is a git repository: yes/);
  });

  it('the memory folder is found without git, trusted or not', async () => {
    const r = armedRepo();
    await countingGit(async (calls) => {
      const out = await cli(['memory', 'list', '--json'], r.ws);
      assert.equal(out.code, 0, out.err);
      assert.deepEqual(calls(), []);
    });
  });
});

describe('a trusted folder: git runs, with every program switched off', () => {
  it('threadline context --trust and a trusted -p run read status and commits and spring nothing', { timeout: 60_000 }, async () => {
    const r = armedRepo();
    const ctx = await cli(['context', '--trust'], r.ws);
    assert.equal(ctx.code, 0, ctx.err);
    assert.deepEqual(r.ran(), []);
    const state = mkdtempSync(join(tmpdir(), 'tl-state-'));
    assert.equal((await cli(['trust'], r.ws, state)).code, 0);
    r.touch();
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const run = await cli(['-p', 'hello'], r.ws, state);
    assert.equal(run.code, 0, run.err);
    const system = JSON.stringify((standin.requests[0]!.body as { system: unknown }).system);
    assert.match(system, /Recent commits:/);
    assert.match(system, /signed release/);
    assert.deepEqual(r.ran(), []);
  });
});

describe("a git the repository ships is never the git that runs", () => {
  for (const entry of ['', '.']) {
    it(`PATH with ${entry ? 'a "." entry' : 'an empty entry'} before git's folder: the snapshot runs the real git`, async () => {
      const r = hostileRepo();
      writeFileSync(join(r.ws, 'git'), `#!/bin/sh\ntouch '${join(r.root, 'markers', 'shipped-git')}'\n`);
      chmodSync(join(r.ws, 'git'), 0o755);
      const saved = process.env.PATH;
      process.env.PATH = `${entry}:${saved}`;
      try {
        const s = await takeGitSnapshot(r.ws, { trusted: true, timeoutMs: 20_000 });
        assert.equal(s?.branch, 'main');
      } finally {
        process.env.PATH = saved;
      }
      assert.deepEqual(r.ran(), []);
    });
  }
});
