// Class: the repository's own config decides where "the project" is. `core.worktree = /` made
// every file count as inside the project, so an `@/…` or `@~/…` include in CLAUDE.md went into
// every request; a `.git` file, a `commondir` file or a symlinked `.git` aimed at another
// repository shared that repository's memory folder (its memories read, new ones written there).
// The project is the folder that was opened, where it really is; memory is shared only by real
// worktrees, whose git folder points back at them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/cli';
import { useStandin } from '../support/useStandin';

const standin = useStandin();
const state = mkdtempSync(join(tmpdir(), 'tl-state-'));

async function cli(argv: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += t), err: (t) => (err += t) },
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0' },
    cwd,
  });
  return { code, out, err };
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

function repo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# r\n');
  git(dir, 'add', '.');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  return realpathSync(dir);
}

describe('core.worktree cannot widen the project', () => {
  const variants: Array<{ name: string; worktree: (root: string) => string; include: (secret: string) => string }> = [
    { name: 'core.worktree = / with an absolute include', worktree: () => '/', include: (secret) => `@${secret}` },
    { name: 'core.worktree = the folder above with a relative include', worktree: (root) => root, include: () => '@../outside/secret.md' },
  ];
  for (const v of variants) {
    for (const trust of [[], ['--trust']]) {
      it(`${v.name} (${trust.length ? 'trusted' : 'untrusted'}): the outside file is skipped, never sent`, async () => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-wt-')));
        const ws = repo(join(root, 'ws'));
        mkdirSync(join(root, 'outside'));
        const secret = join(root, 'outside', 'secret.md');
        writeFileSync(secret, 'TOP-SECRET-KEY-MATERIAL\n');
        git(ws, 'config', 'core.worktree', v.worktree(root));
        writeFileSync(join(ws, 'CLAUDE.md'), `Project notes. ${v.include(secret)}\n`);
        const ctx = await cli(['context', '--json', ...trust], ws);
        assert.equal(ctx.code, 0, ctx.err);
        const files = (JSON.parse(ctx.out) as { instructionFiles: Array<{ path: string; status: string; reason?: string }> }).instructionFiles;
        const entry = files.find((f) => f.path === secret);
        assert.equal(entry?.status, 'skipped', JSON.stringify(files));
        assert.equal(entry?.reason, 'external-not-approved');
        standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
        const run = await cli(['-p', 'hello', ...trust], ws);
        assert.equal(run.code, 0, run.err);
        assert.doesNotMatch(JSON.stringify(standin.requests[0]!.body), /TOP-SECRET/);
      });
    }
  }

  it('core.worktree = / does not make the trusted snapshot list the file system', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-wt-')));
    const ws = repo(join(root, 'ws'));
    writeFileSync(join(root, 'sibling-file-outside.txt'), 'x');
    git(ws, 'config', 'core.worktree', root);
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    assert.equal((await cli(['-p', 'hello', '--trust'], ws)).code, 0);
    const system = JSON.stringify((standin.requests[0]!.body as { system: unknown }).system);
    assert.match(system, /Current branch: main/);
    assert.doesNotMatch(system, /sibling-file-outside/);
  });
});

describe("a pointer to another repository does not share that repository's memory", () => {
  /** The victim's memory folder, with one memory in it. */
  async function victimMemory(victim: string): Promise<string> {
    const listed = await cli(['memory', 'list', '--json'], victim);
    const dir = (JSON.parse(listed.out) as { dir: string }).dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'victim_secret.md'), '---\nname: victim_secret\ndescription: the staging password\ntype: project\n---\nhunter2\n');
    return dir;
  }
  const memoryOf = async (cwd: string) => JSON.parse((await cli(['memory', 'list', '--json'], cwd)).out) as { dir: string; memories: Array<{ name: string }> };

  const attacks: Array<{ name: string; make: (victim: string, attacker: string) => void }> = [
    {
      name: 'a .git file naming the victim\'s .git',
      make: (victim, attacker) => writeFileSync(join(attacker, '.git'), `gitdir: ${join(victim, '.git')}\n`),
    },
    {
      name: "a .git file naming one of the victim's worktrees (whose gitdir points elsewhere)",
      make: (victim, attacker) => {
        git(victim, 'worktree', 'add', '-q', '-b', 'side', join(victim, '..', 'victim-side'));
        writeFileSync(join(attacker, '.git'), `gitdir: ${join(victim, '.git', 'worktrees', 'victim-side')}\n`);
      },
    },
    {
      name: "a forged worktree folder inside the attacker's repository whose commondir is the victim's .git",
      make: (victim, attacker) => {
        const fake = join(attacker, 'vendor', 'wt');
        mkdirSync(fake, { recursive: true });
        writeFileSync(join(fake, 'HEAD'), 'ref: refs/heads/main\n');
        writeFileSync(join(fake, 'commondir'), `${join(victim, '.git')}\n`);
        writeFileSync(join(fake, 'gitdir'), `${join(attacker, '.git')}\n`);
        writeFileSync(join(attacker, '.git'), `gitdir: ${fake}\n`);
      },
    },
    {
      name: "a .git folder whose commondir is the victim's .git",
      make: (victim, attacker) => {
        repo(attacker);
        writeFileSync(join(attacker, '.git', 'commondir'), `${join(victim, '.git')}\n`);
      },
    },
    {
      name: "a symlinked .git to the victim's",
      make: (victim, attacker) => symlinkSync(join(victim, '.git'), join(attacker, '.git')),
    },
  ];
  for (const a of attacks) {
    it(`${a.name}: its own memory folder, the victim's memories not listed`, async () => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-mem-')));
      const victim = repo(join(root, 'victim'));
      const victimDir = await victimMemory(victim);
      const attacker = join(root, 'attacker');
      mkdirSync(attacker, { recursive: true });
      a.make(victim, attacker);
      const got = await memoryOf(attacker);
      assert.notEqual(got.dir, victimDir, 'the memory folder is shared');
      assert.deepEqual(got.memories, []);
    });
  }

  it('a real worktree of the repository still shares its memories', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-mem-')));
    const main = repo(join(root, 'main'));
    const dir = await victimMemory(main);
    const wt = join(root, 'feature');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', wt);
    mkdirSync(join(wt, 'pkg'));
    const got = await memoryOf(wt);
    assert.equal(got.dir, dir);
    // A folder below it that you have not trusted keeps its own (pass 70 H2).
    assert.notEqual((await memoryOf(join(wt, 'pkg'))).dir, dir);
    assert.deepEqual(got.memories.map((m) => m.name), ['victim_secret']);
  });
});
