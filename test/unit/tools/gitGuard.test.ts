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
