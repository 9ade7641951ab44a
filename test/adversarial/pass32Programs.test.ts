// Pass 32: options and folder files that make an allowed program run or reach more than its rule
// says. R1-R3, S1, P1, V1: fd -x, bat --pager, less --lesskey-src, sdiff/diff3 --diff-program,
// pygmentize -x, man -C/-M (critical and high) join the options by which programs run others.
// C1, C2: ctags obeys `.ctags.d/` and walks `.` through links with -R. M1: `python3 -m json.tool`
// imports a same-named module from the folder it runs in. K1, K2: kubectl's `--kubeconfig`,
// `--server`, `--token`; kubectl's options are deny-by-default now. V2: tsconfig's `${configDir}`.
// D1: Edit deny rules against names a program derives (split, csplit, gzip, gunzip, cp -r).
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

const RULES = ['fd', 'fdfind', 'bat', 'batcat', 'less', 'sdiff', 'diff3', 'pygmentize', 'man', 'ctags', 'python3 -m json.tool', 'python3 -m py_compile', 'kubectl get', 'tsc --noEmit', 'tsc', 'split', 'csplit', 'gzip', 'gunzip', 'cp'].map((p) => `Bash(${p}:*)`);

function workspace(files: Record<string, string> = {}, links: Record<string, string> = {}) {
  const root = tempDir('pass32');
  const ws = join(root, 'ws');
  mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'a.txt'), 'a\nb\n');
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(ws, p, '..'), { recursive: true });
    writeFileSync(join(ws, p), text);
  }
  for (const [p, to] of Object.entries(links)) symlinkSync(join(root, to), join(ws, p));
  return (c: string, deny: string[] = []) => bashEngine(ws, { allow: RULES, deny }, checker).decide(c).behavior;
}

describe('pass 32: programs that run, read or write past their rule', () => {
  it('program-running options ask', () => {
    const d = workspace();
    for (const c of ['fdfind a.txt -x python3 x', 'fd -Lx touch', 'fd --exec-batch=touch', 'batcat --paging=always --pager=python3 a.txt', 'bat --config-file=c a.txt', 'less --lesskey-src=keys a.txt', 'less -k keys a.txt', 'sdiff --diff-program=./e a b', 'diff3 --diff-program=./e a b c', 'pygmentize -l ./l.py:L -x a.txt', 'man -C cfg ls', 'man --config-file=cfg ls', 'man -M man evil', 'ctags --options=./o a.txt']) {
      assert.equal(d(c), 'ask', c);
    }
    for (const c of ['fd -e ts', 'batcat a.txt', 'less a.txt', 'man ls', 'ctags -R src']) assert.equal(d(c), 'allow', c);
  });

  it('ctags with option files in the folder, or -R through a link here, asks', () => {
    assert.equal(workspace({ '.ctags.d/x.ctags': '-f /tmp/x' })('ctags -R src'), 'ask');
    assert.equal(workspace({ '.ctags': '--options=x' })('ctags a.txt'), 'ask');
    assert.equal(workspace({}, { hm: 'home' })('ctags -R -f - --langdef=A'), 'ask');
  });

  it('python -m with a same-named module in the folder asks', () => {
    for (const [files, c] of [
      [{ 'json/__init__.py': 'x' }, 'python3 -m json.tool a.txt'],
      [{ 'json.py': 'x' }, 'python3 -m json.tool a.txt'],
      [{ 'py_compile.py': 'x' }, 'python3 -m py_compile a.txt'],
    ] as const) {
      assert.equal(workspace(files)(c), 'ask', `${c} beside ${Object.keys(files)[0]}`);
    }
    assert.equal(workspace()('python3 -m json.tool a.txt'), 'allow');
  });

  it('kubectl: settings, servers and credentials ask; choosing what to show passes', () => {
    const d = workspace();
    for (const c of ['kubectl get pods --kubeconfig=./kc', 'kubectl get pods --kubeconfig kc', 'kubectl get pods --server=https://x --certificate-authority=ca.pem', 'kubectl get pods -s https://x', 'kubectl get pods --token=t', 'kubectl get pods -o jsonpath-file=/etc/x', 'kubectl get pods --insecure-skip-tls-verify']) assert.equal(d(c), 'ask', c);
    for (const c of ['kubectl get pods -n default -o wide', 'kubectl get pods -A -o json', 'kubectl get pods -l app=x --sort-by=.metadata.name']) assert.equal(d(c), 'allow', c);
  });

  it("tsconfig's ${configDir} is filled in before judging", () => {
    const d = workspace({ 'tsconfig.json': JSON.stringify({ compilerOptions: { outFile: '${configDir}/../home/.bash_login' } }) });
    assert.equal(d('tsc --noEmit'), 'ask');
    const e = workspace({ 'tsconfig.json': JSON.stringify({ compilerOptions: { outDir: '${configDir}/dist' } }) });
    assert.equal(e('tsc'), 'allow');
  });

  it('Edit deny rules hold against names a program derives', () => {
    const d = workspace({ 'keep.txt': 'keep', 'words.txt': 'a\nb\n' });
    for (const c of ["split --additional-suffix=.txt -l 1 words.txt kee", "csplit -b 'p.txt%.0d' words.txt 1", 'gzip -S .txt a.txt', 'gunzip -f keep.txt.gz', 'cp -r src/. .']) assert.notEqual(d(c, ['Edit(keep.txt)']), 'allow', c);
    assert.equal(d('cp a.txt b.txt', ['Edit(keep.txt)']), 'allow');
  });
});
