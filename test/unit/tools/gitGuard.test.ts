import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashEnv } from '../../../src/tools/builtin/bash';
import { configNames } from '../../../src/tools/gitConfigFile';

/** The GIT_CONFIG_KEY/VALUE pairs of an environment, as key → last value. */
function envConfig(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < Number(env.GIT_CONFIG_COUNT); i++) out.set(env[`GIT_CONFIG_KEY_${i}`]!, env[`GIT_CONFIG_VALUE_${i}`]!);
  return out;
}

describe("the Bash tool's child environment", () => {
  it('carries the overrides that keep git from running what the repository names', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tl-gitenv-')));
    mkdirSync(join(cwd, '.git'));
    writeFileSync(join(cwd, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(cwd, '.git', 'config'), '[core]\n\tfsmonitor = ./x\n[filter "lfs-ish"]\n\tclean = ./x\n\tprocess = ./x\n[diff "a.b"]\n\ttextconv = ./x\n[merge "m"]\n\tdriver = ./x\n[credential "https://h"]\n\thelper = ./x\n');
    process.env.GIT_EXTERNAL_DIFF = '/bin/evil';
    try {
      const prepared = await bashEnv(cwd);
      assert.ok('env' in prepared, 'a plain repository is not refused');
      const env = prepared.env;
      const cfg = envConfig(env);
      assert.equal(cfg.get('core.fsmonitor'), 'false');
      assert.equal(cfg.get('core.hooksPath'), '/dev/null');
      assert.equal(cfg.get('core.pager'), 'cat');
      assert.equal(cfg.get('safe.bareRepository'), 'explicit');
      assert.equal(cfg.get('core.attributesFile'), '/dev/null');
      assert.equal(cfg.get('filter.lfs-ish.clean'), '');
      assert.equal(cfg.has('filter.lfs-ish.smudge'), false, 'a key the repository does not name is left alone');
      assert.equal(cfg.get('filter.lfs-ish.process'), '');
      assert.equal(cfg.get('filter.lfs-ish.required'), 'false');
      assert.equal(cfg.get('diff.a.b.textconv'), 'cat');
      assert.equal(cfg.has('diff.a.b.command'), false, 'a neutral command would itself become the external diff');
      assert.equal(cfg.get('merge.m.driver'), '');
      assert.equal(cfg.get('credential.helper'), '', 'the repository names a helper: reset');
      assert.equal(cfg.has('core.sshCommand'), false, "the user's own ssh command is kept when the repository names none");
      assert.equal(env.GIT_EXTERNAL_DIFF, undefined);
      assert.equal(env.GIT_PAGER, 'cat');
      assert.equal(env.GIT_ATTR_NOSYSTEM, '1');
      assert.equal(env.ANTHROPIC_API_KEY, undefined);
    } finally {
      delete process.env.GIT_EXTERNAL_DIFF;
    }
  });

  it('reads section names as git does: quoted, old dotted spelling, any case, keys on the header line', () => {
    const { names, includes } = configNames('[FILTER "X y"] clean = a\n[diff.Old]\n textconv=b\n[include]\n\tpath = "../d.cfg" ; c\n[includeIf "gitdir:/x/"]\npath=e.cfg\n');
    assert.deepEqual(names, ['filter.X y.clean', 'diff.old.textconv', 'include.path', 'includeif.gitdir:/x/.path']);
    assert.deepEqual(includes, ['../d.cfg', 'e.cfg']);
  });
});

describe('a tree too big to look through for nested repositories', () => {
  it('says so, and git is then kept out of submodules, whose drivers no override names', async () => {
    const { execFileSync } = await import('node:child_process');
    const { reachableRepositories } = await import('../../../src/tools/gitReach');
    const { bashGitSettings, gitConfigEnv } = await import('../../../src/tools/gitGuard');
    const { existsSync, chmodSync } = await import('node:fs');
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', '-C', cwd, ...args], { env: { PATH: process.env.PATH, HOME: cwd }, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-subwalk-')));
    const sub = join(root, 'sub');
    const top = join(root, 'top');
    for (const d of [sub, top]) {
      mkdirSync(d);
      git(d, 'init', '-q');
      writeFileSync(join(d, 'a.txt'), 'a\n');
      git(d, 'add', 'a.txt');
      git(d, 'commit', '-qm', 'init');
    }
    git(top, 'submodule', 'add', '-q', sub, 'deep/sub');
    git(top, 'commit', '-qm', 'sub');
    const ran = join(root, 'ran');
    writeFileSync(join(root, 'evil.sh'), `#!/bin/sh\necho ran >> ${ran}\ncat\n`);
    chmodSync(join(root, 'evil.sh'), 0o755);
    const inner = join(top, 'deep', 'sub');
    git(inner, 'config', 'filter.ev.clean', join(root, 'evil.sh'));
    writeFileSync(join(inner, '.gitattributes'), '*.txt filter=ev\n');
    // Same bytes, a newer time: git must read the file through its filter to tell.
    const { utimesSync } = await import('node:fs');
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(join(inner, 'a.txt'), later, later);
    execFileSync('git', ['status', '--short'], { cwd: top, env: { PATH: process.env.PATH, HOME: root }, stdio: 'ignore' });
    assert.equal(existsSync(ran), true, 'plain git enters the submodule and runs its filter (the case the guard must stop)');
    const { rmSync } = await import('node:fs');
    rmSync(ran);
    const again = new Date(Date.now() + 7_200_000);
    utimesSync(join(inner, 'a.txt'), again, again);

    const whole = await reachableRepositories(top);
    assert.equal(whole.unwalked, undefined, 'a small tree is looked through');
    const cut = await reachableRepositories(top, { entries: 2, ms: 1_000 });
    assert.equal(cut.unwalked, true);
    const env = { PATH: process.env.PATH, HOME: root, ...gitConfigEnv(bashGitSettings(cut.names, false, true)) };
    execFileSync('git', ['status', '--short'], { cwd: top, env, stdio: 'ignore' });
    execFileSync('git', ['diff'], { cwd: top, env, stdio: 'ignore' });
    assert.equal(existsSync(ran), false, "git entered the submodule and ran its filter");
  });

  // Node reads names as UTF-8: a folder named by other bytes comes back as U+FFFD and cannot be
  // opened by that name, and a `\` in a name is no separator here. A walk that cannot see into a
  // folder has not looked through the tree (pass 22, G5).
  for (const [what, path] of [
    ['a folder named by a byte that is not UTF-8', `$'\\xff'/sub`],
    ['a submodule folder named so', `$'s\\xff'`],
    ['a folder with a backslash in its name', `'a\\b/sub'`],
  ] as const) {
    it(`a submodule under ${what} is found, or git is kept out of submodules`, async () => {
      const { execFileSync } = await import('node:child_process');
      const { existsSync } = await import('node:fs');
      const { reachableRepositories } = await import('../../../src/tools/gitReach');
      const { bashGitSettings, gitConfigEnv } = await import('../../../src/tools/gitGuard');
      const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-subname-')));
      const env = { PATH: process.env.PATH, HOME: ws, GIT_CONFIG_NOSYSTEM: '1' };
      const sh = (script: string) => execFileSync('bash', ['-c', `set -e\n${script}`], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
      sh(`git init -q -b main .; git config user.email a@b; git config user.name a; echo top > top.txt
S=${path}; mkdir -p "$S"; cd "$S"; git init -q -b main .; git config user.email a@b; git config user.name a
printf '#!/bin/sh\\necho ran >> "$HOME/ran"\\ncat\\n' > .x.sh; chmod +x .x.sh
echo '*.txt filter=ev' > .gitattributes; echo hi > f.txt; git add -A; git commit -qm i
git config filter.ev.clean ./.x.sh; touch -d 2000-01-01 f.txt
cd "${ws}"; printf '[submodule "s"]\\n\\tpath = %s\\n\\turl = ./%s\\n' "$S" "$S" > .gitmodules
git add top.txt .gitmodules "$S"; git commit -qm top`);
      sh('git status --short >/dev/null');
      assert.equal(existsSync(join(ws, 'ran')), true, 'plain git enters the submodule and runs its filter (the case the guard must stop)');
      sh(`rm ran; cd ${path}; touch -d 2001-01-01 f.txt`);
      const reach = await reachableRepositories(ws);
      assert.equal(reach.refusal, undefined);
      execFileSync('git', ['status', '--short'], { cwd: ws, env: { ...env, ...gitConfigEnv(bashGitSettings(reach.names, false, reach.unwalked ?? false)) }, stdio: 'ignore' });
      assert.equal(existsSync(join(ws, 'ran')), false, 'git entered the submodule and ran its filter');
    });
  }
});

// Pass 24: git reads more of its folder than its top level, and fetches submodules whose git
// folders live inside it (`.git/modules/<name>`) with their own config.
describe("what a repository's git folder holds below its top level", () => {
  const setup = async () => {
    const { execFileSync } = await import('node:child_process');
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tl-gitdeep-')));
    execFileSync('git', ['init', '-q', '-b', 'main', ws], { stdio: 'ignore' });
    return ws;
  };

  it('a link anywhere in the git folder leading outside the workspace refuses the command', async () => {
    const { symlinkSync } = await import('node:fs');
    const { reachableRepositories } = await import('../../../src/tools/gitReach');
    const ws = await setup();
    const secret = join(realpathSync(mkdtempSync(join(tmpdir(), 'tl-secret-'))), 'id_rsa');
    writeFileSync(secret, 'CANARY\n');
    mkdirSync(join(ws, '.git', 'rebase-merge'));
    for (const f of ['head-name', 'onto', 'orig-head', 'interactive']) writeFileSync(join(ws, '.git', 'rebase-merge', f), 'x\n');
    symlinkSync(secret, join(ws, '.git', 'rebase-merge', 'done'));
    const reach = await reachableRepositories(ws);
    assert.match(reach.refusal ?? '', /rebase-merge\/done/);
  });

  it("a submodule's git folder inside .git/modules is read as a repository: its settings are judged and switched off", async () => {
    const { reachableRepositories } = await import('../../../src/tools/gitReach');
    const ws = await setup();
    const mod = join(ws, '.git', 'modules', 'lib', 'sub');
    mkdirSync(join(mod, 'refs'), { recursive: true });
    writeFileSync(join(mod, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(mod, 'config'), '[core]\n\tsshCommand = ./x.sh\n\tworktree = ../../../../lib/sub\n');
    const reach = await reachableRepositories(ws);
    assert.equal(reach.refusal, undefined);
    assert.ok(reach.names.includes('core.sshcommand'), 'its settings are among those the guard switches off');
    writeFileSync(join(mod, 'config'), '[http]\n\tproxy = http://127.0.0.1:9\n\tsslVerify = false\n');
    assert.match((await reachableRepositories(ws)).refusal ?? '', /http\.proxy/);
  });

  // Pass 26: git reaches `modules/<name>` by name, whatever it is there.
  it('a submodule git folder behind a link, a gitdir: file or a commondir file is read too; too many entries keep git out of submodules', async () => {
    const { symlinkSync } = await import('node:fs');
    const { reachableRepositories } = await import('../../../src/tools/gitReach');
    const plant = (dir: string, config: string) => {
      mkdirSync(join(dir, 'refs'), { recursive: true });
      writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(dir, 'config'), config);
    };
    const ssh = '[core]\n\tsshCommand = ./x.sh\n';
    for (const layout of ['link', 'gitfile', 'commondir', 'headlink'] as const) {
      const ws = await setup();
      const modules = join(ws, '.git', 'modules');
      mkdirSync(modules, { recursive: true });
      const elsewhere = join(ws, 'vendor', 'g');
      if (layout === 'link' || layout === 'gitfile') plant(elsewhere, ssh);
      if (layout === 'link') symlinkSync(elsewhere, join(modules, 'sub'));
      if (layout === 'gitfile') writeFileSync(join(modules, 'sub'), `gitdir: ${elsewhere}\n`);
      if (layout === 'commondir') {
        plant(elsewhere, ssh);
        plant(join(modules, 'sub'), '');
        writeFileSync(join(modules, 'sub', 'commondir'), `${elsewhere}\n`);
      }
      if (layout === 'headlink') {
        plant(join(modules, 'sub'), ssh);
        const { rmSync } = await import('node:fs');
        rmSync(join(modules, 'sub', 'HEAD'));
        writeFileSync(join(ws, 'HEADFILE'), 'ref: refs/heads/main\n');
        symlinkSync(join(ws, 'HEADFILE'), join(modules, 'sub', 'HEAD'));
      }
      const reach = await reachableRepositories(ws);
      assert.ok(reach.refusal !== undefined || reach.names.includes('core.sshcommand'), `${layout}: ${JSON.stringify(reach)}`);
    }
    const ws = await setup();
    const modules = join(ws, '.git', 'modules');
    mkdirSync(modules, { recursive: true });
    for (let i = 0; i < 5_100; i++) writeFileSync(join(modules, `f${i}`), '');
    assert.equal((await reachableRepositories(ws)).unwalked, true, 'a modules folder too big to look through keeps git out of submodules');
  });
});
