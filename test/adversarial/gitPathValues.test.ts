// Git rewrites a path value before it opens it: `~/` is $HOME, `~user/` that user's home,
// `%(prefix)/` git's install folder. A guard reading the text as a plain path judges another file
// than the one git opens: `%(prefix)/../proc/self/cwd/../secret` is the secret next to the
// workspace, and an include spelled so defines drivers the guard never saw. Each case runs the real
// Bash tool with real git in a workspace nobody trusted (git in Bash needs no trust), and checks
// what git did.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { bashTool } from '../../src/tools/builtin/bash';
import { committedRepo, gitIn } from '../support/gitRepo';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const git = gitIn;

async function bash(command: string, cwd: string): Promise<{ content: string; isError?: boolean }> {
  const p = bashTool.parse({ command });
  assert.ok(p.ok);
  return bashTool.call(p.value, { cwd, signal: new AbortController().signal });
}

/** A workspace `<outer>/ws` holding a repository with one commit, and a secret beside it in `<outer>`. */
function workspace(): { ws: string; secret: string } {
  const outer = tmp('tl-gitpath-');
  const ws = committedRepo(join(outer, 'ws'), { 'a.txt': 'a\n' });
  const secret = join(outer, 'secret.txt');
  writeFileSync(secret, 'PATH-SECRET-LINE\n');
  return { ws, secret };
}

/** A filter driver `ev` in `evil.cfg` that leaves a mark beside the workspace when it runs; the file to watch. */
function plantFilter(ws: string): string {
  const ran = join(ws, '..', 'ran');
  writeFileSync(join(ws, '.x.sh'), `#!/bin/sh\necho ran >> ${ran}\ncat\n`);
  chmodSync(join(ws, '.x.sh'), 0o755);
  writeFileSync(join(ws, 'evil.cfg'), '[filter "ev"]\n\tclean = ./.x.sh\n\tsmudge = ./.x.sh\n');
  writeFileSync(join(ws, '.gitattributes'), '* filter=ev\n');
  return ran;
}

const appendConfig = (ws: string, text: string) => writeFileSync(join(ws, '.git', 'config'), `${readFileSync(join(ws, '.git', 'config'), 'utf8')}${text}`);

/** `~/` and enough `..` to reach the root from this process's home: git's HOME is the same. */
const fromHome = `~/${'../'.repeat(homedir().split('/').filter(Boolean).length)}`;

// Each spelling leads to git's own working folder (the work tree's top) through /proc/self/cwd.
const TO_CWD = [`%(prefix)/../proc/self/cwd`, `~root/../proc/self/cwd`, `${fromHome}proc/self/cwd`, '/proc/self/cwd'];

describe('git path values are read as git expands them', () => {
  it('commit.template spelled through %(prefix)/, ~user/ or ~/ does not put a file outside into a commit', async () => {
    for (const start of TO_CWD) {
      const { ws } = workspace();
      git(ws, 'config', 'commit.template', `${start}/../secret.txt`);
      const r = await bash('git commit -q --allow-empty --allow-empty-message && git log -1 --format=%B', ws);
      assert.equal(r.isError, true, `${start}: ${r.content}`);
      assert.match(r.content, /commit\.template/, start);
      assert.doesNotMatch(r.content, /PATH-SECRET/, start);
      assert.doesNotMatch(git(ws, 'log', '--format=%B'), /PATH-SECRET/, start);
    }
  });

  it('an include spelled through %(prefix)/, ~user/ or ~/ does not run the filter it defines', async () => {
    for (const start of TO_CWD) {
      const { ws } = workspace();
      const ran = plantFilter(ws);
      appendConfig(ws, `[include]\n\tpath = ${start}/evil.cfg\n`);
      writeFileSync(join(ws, 'a.txt'), 'changed\n');
      const r = await bash('git status --short; git add a.txt', ws);
      assert.equal(existsSync(ran), false, `${start}: ${r.content}`);
      assert.equal(r.isError, true, start);
    }
  });

  it('an include of a file outside is refused without naming anything the file holds', async () => {
    const { ws, secret } = workspace();
    writeFileSync(secret, '[pypi]\n\tusername = __token__\n\tpassword = PATH-SECRET-PYPI\n');
    appendConfig(ws, `[include]\n\tpath = ${relative(join(ws, '.git'), secret)}\n`);
    const r = await bash('git status', ws);
    assert.equal(r.isError, true, r.content);
    assert.match(r.content, /outside the workspace/);
    assert.doesNotMatch(r.content, /pypi|username|password|PATH-SECRET/i);
  });

  it('an include inside the workspace is still read, and its drivers switched off', async () => {
    const { ws } = workspace();
    const ran = plantFilter(ws);
    appendConfig(ws, '[include]\n\tpath = ../evil.cfg\n');
    writeFileSync(join(ws, 'a.txt'), 'changed\n');
    const r = await bash('git status --short && git add a.txt', ws);
    assert.notEqual(r.isError, true, r.content);
    assert.equal(existsSync(ran), false, r.content);
  });
});
