// Pass 45 E3 (medium): every Bash command first reads the repositories git may reach, and it
// walked one git folder again for each `.git` file pointing at it: 200 pointers at a git folder of
// 40,000 entries held one `ls` for 470 s. Each git folder is now read once a command, and all of
// them share one budget. Run in a child with a deadline far beyond its cost (runBounded).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runBounded } from '../support/bounded';
import { loadedChecker } from './support';

describe('pass 45 E3: many .git files pointing at one big git folder', () => {
  it('the look through the repositories ends, and still finds what the one repository names', () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-e3-')));
    mkdirSync(join(ws, 'real'));
    execFileSync('git', ['init', '-q', join(ws, 'real')]);
    execFileSync('git', ['-C', join(ws, 'real'), 'config', 'diff.evil.command', './x']);
    const junk = join(ws, 'real', '.git', 'junk');
    mkdirSync(junk);
    for (let i = 0; i < 30_000; i++) writeFileSync(join(junk, `f${i}`), '');
    for (let p = 0; p < 200; p++) {
      mkdirSync(join(ws, `p${p}`));
      writeFileSync(join(ws, `p${p}`, '.git'), 'gitdir: ../real/.git\n');
    }
    const out = runBounded(`
      const { reachableRepositories } = await load('tools/gitReach.ts');
      const r = await reachableRepositories(${JSON.stringify(ws)});
      console.log(JSON.stringify({ refusal: r.refusal ?? null, evil: r.names.includes('diff.evil.command') }));
    `, 60_000);
    const r = JSON.parse(out) as { refusal: string | null; evil: boolean };
    assert.equal(r.refusal, null);
    assert.equal(r.evil, true);
  });
});

describe('pass 48 F1: many git folders sharing one config with big includes', () => {
  it('the config text is read under one budget for the whole look, and past it the look refuses', () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-f1-')));
    execFileSync('git', ['init', '-q', ws]);
    const gitDir = join(ws, '.git');
    mkdirSync(join(gitDir, 'inc'));
    const big = `[user]\n\tname = ${'A'.repeat(900_000)}\n`;
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(gitDir, 'inc', String(i)), big);
      execFileSync('git', ['-C', ws, 'config', '--add', 'include.path', `inc/${i}`]);
    }
    // Ten git folders of their own, all sharing the one above: 4.5 MB of config each time.
    for (let k = 0; k < 10; k++) {
      mkdirSync(join(gitDir, 'g', String(k)), { recursive: true });
      writeFileSync(join(gitDir, 'g', String(k), 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(gitDir, 'g', String(k), 'commondir'), '../..\n');
      mkdirSync(join(ws, `n${k}`));
      writeFileSync(join(ws, `n${k}`, '.git'), `gitdir: ../.git/g/${k}\n`);
    }
    const out = runBounded(`
      const { reachableRepositories } = await load('tools/gitReach.ts');
      const r = await reachableRepositories(${JSON.stringify(ws)});
      console.log(JSON.stringify({ refusal: r.refusal ?? null }));
    `, 120_000);
    const r = JSON.parse(out) as { refusal: string | null };
    assert.match(r.refusal ?? '', /more than 8 MB in all/);
  });
});

describe('pass 45 E2: git in an added folder', () => {
  it('asks: the guard reads the workspace\'s repositories only; git in the workspace still runs', async () => {
    const { Permissions } = await import('../../src/permissions/permissions');
    const { bashTool } = await import('./support');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-e2-ws-')));
    const added = realpathSync(mkdtempSync(join(tmpdir(), 'tl-e2-add-')));
    mkdirSync(join(added, 'lib'));
    const bash = await loadedChecker();
    const p = new Permissions({
      cwd: ws,
      rules: () => ({ allow: ['Bash(git log:*)', 'Bash(cd:*)', 'Bash(git:*)'], ask: [], deny: [] }),
      trusted: () => true,
      bash,
      sources: () => [{ label: '--add-dir', additionalDirectories: [added] }],
    });
    for (const command of [`cd ${added}/lib && git log -p -1`, `git -C ${added} diff`]) {
      const v = p.decide({ tool: bashTool, input: { command } });
      assert.equal(v.behavior, 'ask', command);
      assert.match(v.reason ?? '', /outside the workspace/, command);
    }
    for (const command of ['git log -1', 'git -C . status']) assert.equal(p.decide({ tool: bashTool, input: { command } }).behavior, 'allow', command);
  });
});

describe('pass 48: git in a folder spelled with ~ or moved by a wrapper; a repository that signs with your key', () => {
  it('F3, F4: with the folder added, -C ~/…, timeout … git -C …, env -C … git ask', async () => {
    const { Permissions } = await import('../../src/permissions/permissions');
    const { bashTool } = await import('./support');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-f3-ws-')));
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'tl-f3-home-')));
    mkdirSync(join(home, 'src', 'lib'), { recursive: true });
    const added = join(home, 'src', 'lib');
    const bash = await loadedChecker();
    const p = new Permissions({
      cwd: ws,
      home,
      rules: () => ({ allow: ['Bash(git:*)', 'Bash(timeout:*)', 'Bash(env:*)'], ask: [], deny: [] }),
      trusted: () => true,
      bash,
      sources: () => [{ label: '--add-dir', additionalDirectories: [added] }],
    });
    const d = (command: string) => p.decide({ tool: bashTool, input: { command } }).behavior;
    for (const command of ['git -C ~/src/lib log -p -1', `timeout 5 git -C ${added} log -p -1`, `env -C ${added} git log`, `env --chdir=${added} git log`]) assert.equal(d(command), 'ask', command);
    for (const command of ['git log -1', 'timeout 5 git status']) assert.equal(d(command), 'allow', command);
  });

  it('F5: the repository\'s signing settings are switched off: a commit is made, unsigned', async () => {
    const { runBash } = await import('./support');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-f5-')));
    execFileSync('git', ['init', '-q', ws]);
    for (const [k, v] of [['gpg.format', 'ssh'], ['user.signingkey', join(ws, 'no-such-key')], ['commit.gpgsign', 'true'], ['user.name', 't'], ['user.email', 't@t']]) execFileSync('git', ['-C', ws, 'config', k!, v!]);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const r = await runBash(ws, 'git add a.txt && git commit -q -m x && git log -1 --format=%G?');
    assert.notEqual(r.isError, true, r.content);
    assert.match(r.content.trim(), /^N$/m, r.content);
  });
});

describe('pass 54: borrowed objects by a quoted path, many repositories sharing one modules folder', () => {
  it('P3: a quoted alternates line counts as outside', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-54p3-')));
    execFileSync('git', ['init', '-q', ws]);
    mkdirSync(join(ws, '.git', 'objects', 'info'), { recursive: true });
    for (const line of ['"/tmp/other/.git/objects"', '"../../../dotfiles/.git/objects"']) {
      writeFileSync(join(ws, '.git', 'objects', 'info', 'alternates'), `${line}\n`);
      const r = await reachableRepositories(ws);
      assert.match(r.refusal ?? '', /borrows objects/, line);
    }
    writeFileSync(join(ws, '.git', 'objects', 'info', 'alternates'), '');
    assert.equal((await reachableRepositories(ws)).refusal, undefined);
  });

  it('P2: a modules folder reached from many repositories is walked once, under the look\'s budget', () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-54p2-')));
    const shared = join(ws, 'M');
    for (const part of ['a', 'b', 'c', 'd']) for (let i = 0; i < 4_000; i++) mkdirSync(join(shared, part, `m${i}`), { recursive: true });
    for (let k = 0; k < 20; k++) {
      const repo = join(ws, `r${k}`);
      execFileSync('git', ['init', '-q', repo]);
      symlinkSync('../../M', join(repo, '.git', 'modules'));
    }
    const out = runBounded(`
      const { reachableRepositories } = await load('tools/gitReach.ts');
      const r = await reachableRepositories(${JSON.stringify(ws)});
      console.log(JSON.stringify({ refusal: r.refusal ?? null }));
    `, 60_000);
    assert.equal((JSON.parse(out) as { refusal: string | null }).refusal, null);
  });
});

/** A new repository, as `git init` makes it. */
function repo(): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-git-')));
  execFileSync('git', ['init', '-q', ws]);
  return ws;
}

/** A repository of one commit whose objects are in a pack with a multi-pack-index. */
function packedRepo(): string {
  const ws = repo();
  writeFileSync(join(ws, 'a'), 'a\n');
  execFileSync('git', ['-C', ws, 'add', 'a']);
  execFileSync('git', ['-C', ws, '-c', 'user.name=a', '-c', 'user.email=a@a', 'commit', '-qm', 'a']);
  execFileSync('git', ['-C', ws, 'repack', '-q', '-d']);
  execFileSync('git', ['-C', ws, 'multi-pack-index', 'write']);
  return ws;
}

describe('pass 57: git state a downloaded git folder holds', () => {
  it('C3, C4: an index entry named ../… stops the command; an ordinary index does not', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = repo();
    mkdirSync(join(ws, 'xx', 'home', '.ssh'), { recursive: true });
    writeFileSync(join(ws, 'xx', 'home', '.ssh', 'id_rsa'), 'placeholder\n');
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    execFileSync('git', ['-C', ws, 'add', '.']);
    assert.equal((await reachableRepositories(ws)).refusal, undefined, 'an index git wrote');
    const index = join(ws, '.git', 'index');
    const bytes = readFileSync(index);
    const at = bytes.indexOf('xx/home/.ssh/id_rsa');
    bytes.write('../home/.ssh/id_rsa', at, 'latin1');
    writeFileSync(index, bytes);
    assert.match((await reachableRepositories(ws)).refusal ?? '', /index .* names "\.\.\/home\/\.ssh\/id_rsa"/);
  });

  it('C2: an alternate inside the workspace whose own alternates lead out', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = repo();
    mkdirSync(join(ws, 'store', 'objects', 'info'), { recursive: true });
    writeFileSync(join(ws, 'store', 'objects', 'info', 'alternates'), '/tmp/private/.git/objects\n');
    mkdirSync(join(ws, '.git', 'objects', 'info'), { recursive: true });
    writeFileSync(join(ws, '.git', 'objects', 'info', 'alternates'), '../../store/objects\n');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /borrows objects from \/tmp\/private/);
  });

  it('H1: a rebase in progress whose todo list runs commands', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = repo();
    mkdirSync(join(ws, '.git', 'rebase-merge'));
    writeFileSync(join(ws, '.git', 'rebase-merge', 'git-rebase-todo'), 'pick 1234567 x\n  exec touch /tmp/pwned\n');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /rebase in progress/);
    writeFileSync(join(ws, '.git', 'rebase-merge', 'git-rebase-todo'), 'pick 1234567 x\n');
    assert.equal((await reachableRepositories(ws)).refusal, undefined);
  });
});

describe('pass 60 H1, H2: a merge strategy is a program git runs', () => {
  it('a strategy given on the command line that is not git\'s own asks', async () => {
    const { bashEngine, loadedChecker } = await import('./support');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-60h1-')));
    const eng = bashEngine(ws, { allow: ['Bash(git cherry-pick:*)', 'Bash(git rebase:*)', 'Bash(git revert:*)'] }, await loadedChecker());
    for (const command of ['git cherry-pick --strategy=a/x side', 'git rebase -s a/x main', 'git revert --strategy a/x HEAD', 'git cherry-pick --strat=a/x side']) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['git cherry-pick --strategy=ort side', 'git cherry-pick -s side', 'git rebase -s ort main', 'git cherry-pick -X theirs side']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('a pick in progress whose strategy is not git\'s own stops the command', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-60h2-')));
    execFileSync('git', ['init', '-q', ws]);
    mkdirSync(join(ws, '.git', 'sequencer'));
    writeFileSync(join(ws, '.git', 'sequencer', 'opts'), '[options]\n\tstrategy = ../x\n');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /merge strategy "\.\.\/x"/);
    writeFileSync(join(ws, '.git', 'sequencer', 'opts'), '[options]\n\tstrategy = ort\n');
    assert.equal((await reachableRepositories(ws)).refusal, undefined);
    mkdirSync(join(ws, '.git', 'rebase-merge'));
    writeFileSync(join(ws, '.git', 'rebase-merge', 'strategy'), 'a/x\n');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /merge strategy "a\/x"/);
  });
});

describe('pass 63: a pick in progress read as git reads it; packs borrowed without alternates', () => {
  it('H1, H2: every strategy in sequencer/opts, in any spelling, and a signing request, stop the command', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = repo();
    mkdirSync(join(ws, '.git', 'sequencer'));
    for (const opts of ['[options]\n\tstrategy = ort\n\tstrategy = ../x\n', '[options]\n\tStrategy = ../x\n', '[options] strategy = ../x\n', '[options]\n\tgpg-sign = \n']) {
      writeFileSync(join(ws, '.git', 'sequencer', 'opts'), opts);
      assert.ok((await reachableRepositories(ws)).refusal, opts);
    }
    writeFileSync(join(ws, '.git', 'sequencer', 'opts'), '[options]\n\tsignoff = true\n');
    assert.equal((await reachableRepositories(ws)).refusal, undefined);
    mkdirSync(join(ws, '.git', 'rebase-merge'));
    writeFileSync(join(ws, '.git', 'rebase-merge', 'gpg_sign_opt'), '-S\n');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /sign its commits/);
  });

  it('H3: a link in the pack folder, and a multi-pack-index naming a pack elsewhere', async () => {
    const { reachableRepositories, midxPackNames } = await import('../../src/tools/gitReach');
    const ws = packedRepo();
    const midx = join(ws, '.git', 'objects', 'pack', 'multi-pack-index');
    assert.equal(midxPackNames(readFileSync(midx))?.length, 1);
    assert.equal((await reachableRepositories(ws)).refusal, undefined, 'a multi-pack-index git wrote');
    const bytes = readFileSync(midx);
    const at = bytes.indexOf('pack-');
    bytes.write('../../', at, 'latin1');
    writeFileSync(midx, bytes);
    assert.match((await reachableRepositories(ws)).refusal ?? '', /multi-pack-index naming the pack/);
    const other = repo();
    writeFileSync(midx, readFileSync(midx));
    symlinkSync(join(other, '.git', 'HEAD'), join(ws, '.git', 'objects', 'pack', 'pack-x.pack'));
    assert.match((await reachableRepositories(ws)).refusal ?? '', /link/);
  });
});

describe('pass 66: an index hidden past a listing, a multi-pack-index counting more packs than it names', () => {
  it('C2: the index is read by its name, however many entries the git folder holds', async () => {
    const { reachableRepositories } = await import('../../src/tools/gitReach');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-66c2-')));
    execFileSync('git', ['init', '-q', ws]);
    mkdirSync(join(ws, 'xx', 'home', '.ssh'), { recursive: true });
    writeFileSync(join(ws, 'xx', 'home', '.ssh', 'id_rsa'), 'p\n');
    execFileSync('git', ['-C', ws, 'add', '.']);
    const index = join(ws, '.git', 'index');
    const bytes = readFileSync(index);
    bytes.write('../home/.ssh/id_rsa', bytes.indexOf('xx/home/.ssh/id_rsa'), 'latin1');
    writeFileSync(index, bytes);
    for (let i = 0; i < 40_000; i++) writeFileSync(join(ws, '.git', `pad${String(i).padStart(5, '0')}`), '');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /index|entries/);
  });

  it('H2: a multi-pack-index whose header counts more packs than its names chunk holds', async () => {
    const { midxPackNames } = await import('../../src/tools/gitReach');
    const ws = packedRepo();
    const bytes = readFileSync(join(ws, '.git', 'objects', 'pack', 'multi-pack-index'));
    assert.equal(midxPackNames(bytes)?.length, 1);
    bytes.writeUInt32BE(2, 8);
    assert.equal(midxPackNames(bytes), undefined);
  });
});
