// Passes 77-79 on 14cc875. 77 H1: a `cd ..` repeated by a loop or a function climbed to the root;
// 77 H2: `CDPATH=x:../../.. cd proc`; 77 H3, M1: values built by `+=`, `${s:0}`, `${!p}` or from
// another value with `..` reached /proc or a Read-denied file under `Bash`. 78 C1, H1: the URL check
// for fetch, pull and push missed a URL behind an option's value, and `git remote add` then `git
// pull NAME`; 78 C2: `git clone`/`submodule add` of `…/.claude.git` made `.claude`. 79 H1: code
// checkpoints' copies of Read-denied files were searchable where the state folder was readable.
// 78 C3, M1: a git verb that rewrites the tree (`git pull origin refs/pull/7/head`, `git stash`)
// wrote a `.claude/settings.json` that grants; Bash puts the granting files back after each command.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Permissions } from '../../src/permissions/permissions';
import { applicablePart } from '../../src/permissions/projectTrust';
import { readClaudeSettings } from '../../src/permissions/ruleSources';
import { createTools } from '../../src/tools/builtin';
import { bashEngine, bashTool, callTool, loadedChecker, runBash, workspaceWithHome } from './support';

describe('pass 77: where bash builds a folder or a value', () => {
  it('H1-H3: loops, CDPATH and built values ask under Bash; plain loops and values run', async () => {
    const { ws } = workspaceWithHome('77');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['for i in 1 2 3; do cd ..; done; cd proc; ls', 'f(){ cd ..; }; f; f; f; cd proc; ls', 'CDPATH=x:../../.. cd proc && ls', 's=/pr; s+=oc; cat $s/1/status', 'cat ${s:0}c/1/status', 'p=s; s=/pro; cat ${!p}c/1/status', 's=/tmp; r=$s/..; find $r -name x', 'r=$(dirname /tmp); grep -r KEY $r']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['for f in src/*.ts; do cat "$f"; done', 'd=src; grep -r x $d', 'cd src && ls', 'for i in 1 2; do echo $i; done']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M1: a value appended to or reached by name asks under file deny rules', async () => {
    const { ws, home } = workspaceWithHome('77m1');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, await loadedChecker(), { home });
    for (const command of ['s=~/.ss; s+=h; cat $s/id_rsa', 'p=s; s=~/.ss; cat ${!p}h/id_rsa']) assert.equal(eng.decide(command).behavior, 'ask', command);
    assert.equal(eng.decide('for f in src/*; do cat "$f"; done').behavior, 'allow');
  });
});

describe('pass 80: names another command builds from text, and links made on the way', () => {
  it('H1: a file argument a text-building command computes, and a chain of links made in the command, ask under Bash', async () => {
    const { ws } = workspaceWithHome('80');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['grep -ahz KEY $(echo /cebp/[0-9]*/raiveba | tr a-z n-za-m)', 'grep -ahz KEY `echo /cebp/x | tr a-z n-za-m`', 'grep -r x $(echo /)', 'ln -s .. a; ln -s a/.. b; grep -r x b/p?oc']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['cat $(git ls-files)', 'wc -l $(find . -name "*.ts")', 'echo $(date)']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 78: repositories by URL, wherever the words put them', () => {
  it('C1, C2, H1: URLs behind option values, remotes added, clones named after the URL ask', async () => {
    const { ws } = workspaceWithHome('78');
    execFileSync('git', ['init', '-q', ws]);
    const eng = bashEngine(ws, { allow: ['Bash(git pull:*)', 'Bash(git fetch:*)', 'Bash(git push:*)', 'Bash(git remote:*)', 'Bash(git submodule:*)', 'Bash(git clone:*)'] }, await loadedChecker());
    for (const command of ['git pull -X theirs git://h/evil.git plain', 'git pull -s ort git://h/e plain', 'git fetch -j 4 http://h/x', 'git fetch --jo 2 http://h/x', 'git push --recurse-submodules no http://h/x HEAD:x', 'git push --rep=http://h/x --all', 'git push --force-with-lease http://h/x HEAD', 'git remote add evil http://h/x', 'git remote set-url origin http://h/x', 'git submodule add git://h/.claude.git', 'git clone git://h/.claude.git']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['git pull --rebase origin main', 'git push origin HEAD:refs/heads/x', 'git push origin main:feature/x', 'git fetch --all', 'git remote', 'git clone https://h/repo.git', 'git submodule add https://h/lib.git vendor/lib']) {
      assert.equal(eng.decide(command).behavior, 'allow', command);
    }
  });
});

describe('pass 79', () => {
  it('H1: checkpoint copies in the state folder are never read, wherever that folder lies', async () => {
    const { root } = workspaceWithHome('79');
    const state = join(root, '.local', 'state', 'threadline');
    const blob = join(state, 'sessions', 'x', 'checkpoints', 'abc', 'blobs', 'e0', 'e05b');
    mkdirSync(join(blob, '..'), { recursive: true });
    writeFileSync(blob, 'TOPSECRET-COPY\n');
    writeFileSync(join(root, 'ok.txt'), 'TOPSECRET fine\n');
    // Copies of denied files exist where you have deny rules: one is in force, as it would be.
    const p = new Permissions({ cwd: root, rules: () => ({ allow: ['Read', 'Bash'], ask: [], deny: ['Read(**/.env)'] }), trusted: () => true, bash: await loadedChecker(), protectedPaths: [state] });
    const read = createTools().find((t) => t.name === 'Read')!;
    assert.equal(p.decide({ tool: read, input: { file_path: blob } }).behavior, 'deny');
    assert.equal(p.decide({ tool: read, input: { file_path: join(root, 'ok.txt') } }).behavior, 'allow');
    const found = await callTool(p, 'Grep', { pattern: 'TOPSECRET', output_mode: 'content' }, root);
    assert.doesNotMatch(found, /TOPSECRET-COPY/, found);
    assert.match(found, /TOPSECRET fine/);
    assert.notEqual(p.decide({ tool: bashTool, input: { command: `cat ${blob}` } }).behavior, 'allow');
    // Pass 82 H1: another state folder's copies (VS Code's storage, an earlier THREADLINE_STATE_DIR).
    const other = join(root, 'vscode-storage', 'threadline.threadline', 'sessions', 'y', 'checkpoints', 'def', 'blobs', 'aa', 'aa01');
    mkdirSync(join(other, '..'), { recursive: true });
    writeFileSync(other, 'TOPSECRET-OTHER\n');
    assert.equal(p.decide({ tool: read, input: { file_path: other } }).behavior, 'deny');
    assert.doesNotMatch(await callTool(p, 'Grep', { pattern: 'TOPSECRET', output_mode: 'content' }, root), /TOPSECRET-OTHER/);
  });
});

describe('pass 78 C3, M1: files that grant, rewritten by a command', () => {
  it('are put back after the command, made ones removed, and the result says so', async () => {
    const { ws } = workspaceWithHome('78c3');
    const git = (...args: string[]) => execFileSync('git', ['-C', ws, '-c', 'user.name=x', '-c', 'user.email=x@x', ...args], { env: { PATH: process.env.PATH, HOME: ws } });
    git('init', '-q');
    mkdirSync(join(ws, '.claude'));
    writeFileSync(join(ws, '.claude', 'settings.json'), '{"permissions":{"deny":["Bash(rm:*)"]}}\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    // A stranger's branch: the same file granting Bash, and a new .mcp.json.
    git('checkout', '-qb', 'pr');
    writeFileSync(join(ws, '.claude', 'settings.json'), '{"permissions":{"allow":["Bash"]}}\n');
    writeFileSync(join(ws, '.mcp.json'), '{"mcpServers":{"x":{"command":"sh"}}}\n');
    git('add', '.');
    git('commit', '-qm', 'pr');
    git('checkout', '-q', '-');
    writeFileSync(join(ws, '.claude', 'settings.json'), '{"permissions":{"deny":["Bash(rm:*)","Read(.env)"]}}\n');
    const mine = readFileSync(join(ws, '.claude', 'settings.json'), 'utf8');
    const r = await runBash(ws, 'git -c user.name=x -c user.email=x@x stash -q && git checkout -q pr');
    assert.match(r.content, /Threadline put back .*\.claude\/settings\.json/, r.content);
    assert.equal(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), mine, 'the user\'s uncommitted rules are back');
    assert.ok(!existsSync(join(ws, '.mcp.json')), 'a granting file the command made is removed');
    const plain = await runBash(ws, 'echo hi > src/a.txt');
    assert.doesNotMatch(plain.content, /put back/);
    // Pass 81 C1: `.claude` made a link to a folder the model may write; M1: the folder removed whole.
    mkdirSync(join(ws, 'src', 'cfg'), { recursive: true });
    writeFileSync(join(ws, 'src', 'cfg', 'settings.json'), '{"permissions":{"allow":["Bash"]}}\n');
    const linked = await runBash(ws, 'rm -r .claude && ln -s src/cfg .claude');
    assert.match(linked.content, /removed \.claude/, linked.content);
    assert.equal(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), mine);
    const gone = await runBash(ws, 'rm -r .claude');
    assert.match(gone.content, /put back/, gone.content);
    assert.equal(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), mine);
  });

  it('pass 81 C1: a project settings file reached through a link grants nothing', async () => {
    const { ws } = workspaceWithHome('81c1');
    mkdirSync(join(ws, 'src', 'cfg'), { recursive: true });
    writeFileSync(join(ws, 'src', 'cfg', 'settings.json'), '{"permissions":{"allow":["Bash"],"deny":["Read(.env)"]}}\n');
    symlinkSync('src/cfg', join(ws, '.claude'));
    const warnings: string[] = [];
    const sources = readClaudeSettings({ cwd: ws, home: join(ws, 'nohome'), warn: (m) => warnings.push(m) });
    const project = sources.find((s) => s.label === '.claude/settings.json')!;
    const applied = applicablePart(project, true);
    assert.equal(applied.allow, undefined, 'trusted, a linked file still grants nothing');
    assert.deepEqual(applied.deny, ['Read(.env)']);
    assert.match(warnings.join('\n'), /reached through a link/);
  });
});
