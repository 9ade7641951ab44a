// Passes 83-85 on 119cb12 and 86-88 on d0f5574, and the read-back before them. Read-back: a command whose name is
// computed (`c=cd; $c $D`) may be a cd, but only cd, pushd and popd were counted as moving the
// folder, so a relative name after it (`cat e*n`) could be in /proc under `Bash`.
// 85 H1, L1: another state folder's checkpoint copies were read by a folder walk (`grep -r`, `tar`),
// and its manifest (names and hashes of copied files) by `cat`. 84 M1: the settings guard removed
// a `.claude` link the user made, after any command. 83 H1-H3: paths to the agent's /proc that the
// words never spell (`${x:=/pr}oc`, `"$@"oc`, cd steps in `bash -c`): each command now runs in a
// user namespace of its own, where the kernel refuses the agent's environ however it is reached.
import assert from 'node:assert/strict';
import { appendFileSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Tool } from '../../src/tools/types';
import { namespacePrefix } from '../../src/base/userNamespace';
import { killProcessGroups } from '../../src/base/processGroups';
import { settleGrantingWatches } from '../../src/tools/settingsGuard';
import { Permissions } from '../../src/permissions/permissions';
import { knownStateFolders, rememberStateFolder, stateFolderRegistry } from '../../src/sessions/stateFolders';
import { bashEngine, bashTool, loadedChecker, runBash, workspaceWithHome } from './support';


/**
 * One model answer of `count` calls to `name` with `input`, then "done", run by the agent's loop
 * against the stand-in with `tool` as that name: the loop's result.
 */
async function oneAnswer(ws: string, tool: Tool, count: number, input: Record<string, unknown>) {
  const { runQueryLoop } = await import('../../src/agent/queryLoop');
  const { MessagesClient } = await import('../../src/api/messagesClient');
  const { buildMessagesRequest } = await import('../../src/context/requestBuilder');
  const { startStandin } = await import('../standin/server');
  const standin = await startStandin();
  try {
    standin.enqueue({ content: Array.from({ length: count }, () => ({ type: 'tool_use' as const, name: tool.name, input })) }, { content: [{ type: 'text', text: 'done' }] });
    return await runQueryLoop(
      [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      {
        client: new MessagesClient({ apiKey: 'k', baseUrl: standin.url }),
        tools: new Map([[tool.name, tool]]),
        buildRequest: (history) => buildMessagesRequest({ model: 'claude-sonnet-4-6', maxTokens: 1000, system: [{ type: 'text', text: 'sys' }], tools: [{ name: tool.name, description: tool.description, input_schema: tool.inputSchema }], history }),
        checkPermission: async () => ({ allowed: true }),
        cwd: ws,
        maxTurns: 5,
      },
      new AbortController().signal,
    );
  } finally {
    await standin.close();
  }
}

describe('read-back: a command whose name is computed may be a cd', () => {
  it('asks under Bash when relative names follow a computed command name', async () => {
    const { ws } = workspaceWithHome('rb83');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['c=cd; $c $(echo L3Byb2Mv | base64 -d)$PPID; cat e*n', 'c=cd; $c $D; grep -r KEY .', 'c=cd; $c ../../../../../../../..; cat ./[p]roc/self/e*', '"$C" /tmp; ls']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['cd src && ls', 'for f in src/*.ts; do cat "$f"; done']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 85: other state folders, wherever they lie', () => {
  it('H1, L1: a walk of a folder holding a listed state folder asks; its manifest is denied; ordinary walks run', async () => {
    const { root, ws, home } = workspaceWithHome('85');
    const own = join(root, 'own-state');
    const other = join(home, '.config', 'Code', 'User', 'globalStorage', 'threadline.threadline');
    const cp = join(other, 'sessions', 'ws-1', 'checkpoints', 'abc');
    mkdirSync(join(cp, 'blobs', 'e0'), { recursive: true });
    writeFileSync(join(cp, 'blobs', 'e0', 'e05b'), 'TOPSECRET-SRC\n');
    writeFileSync(join(cp, 'manifest.jsonl'), '{"path":"src/secret.txt","hash":"e05b"}\n');
    await rememberStateFolder(other, home);
    const p = new Permissions({ cwd: ws, home, rules: () => ({ allow: ['Bash(grep:*)', 'Bash(tar:*)', 'Bash(cat:*)', 'Bash(find:*)'], ask: [], deny: [] }), trusted: () => true, bash: await loadedChecker(), protectedPaths: [own], stateFolders: () => knownStateFolders(home), sources: () => [{ label: '--add-dir', additionalDirectories: [home] }] });
    const decide = (command: string) => p.decide({ tool: bashTool, input: { command } }).behavior;
    for (const command of [`grep -r TOPSECRET ${home}/.config`, `grep -ri topsecret ${home}/.config/Code`, `tar cf - ${cp}`, `tar czf loot.tgz ${other}/sessions`, `cat ${cp}/manifest.jsonl`, `find ${home}/.config -type f -exec cat {} +`]) {
      assert.notEqual(decide(command), 'allow', command);
    }
    mkdirSync(join(home, 'notes'));
    for (const command of [`grep -r x ${home}/notes`, 'grep -r x src', 'find . -name "*.ts"']) assert.equal(decide(command), 'allow', command);
  });

  it('the list: a line cut by a kill, or one too near the root, is no folder; a folder is listed once', async () => {
    const { root, home } = workspaceWithHome('85list');
    const a = join(root, 'a-state');
    mkdirSync(a);
    await rememberStateFolder(a, home);
    await rememberStateFolder(a, home);
    appendFileSync(stateFolderRegistry(home), `/\n${home}\n${root}/b-sta`);
    mkdirSync(join(root, 'b-sta'));
    assert.deepEqual(knownStateFolders(home), [a]);
  });
});

describe('pass 84 M1: a granting folder that was a link before the command', () => {
  it('is left as it was; one the command changed goes', async () => {
    const { root, ws } = workspaceWithHome('84m1');
    const shared = join(root, 'shared-claude');
    mkdirSync(shared);
    writeFileSync(join(shared, 'settings.json'), '{"permissions":{"deny":["Bash(rm:*)"]}}\n');
    symlinkSync(shared, join(ws, '.claude'));
    const r = await runBash(ws, 'ls');
    assert.doesNotMatch(r.content, /removed/, r.content);
    assert.ok(lstatSync(join(ws, '.claude')).isSymbolicLink(), 'your link stays');
    assert.equal(readlinkSync(join(ws, '.claude')), shared);
    mkdirSync(join(ws, 'src', 'cfg'));
    const changed = await runBash(ws, 'rm .claude && ln -s src/cfg .claude');
    assert.match(changed.content, /removed \.claude/, changed.content);
    assert.ok(!lstatSync(join(ws, '.claude')).isSymbolicLink(), 'a link the command made goes');
  });
});

describe('pass 83 H1-H3: the agent\'s environment, however a command reaches it', { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'ownProcessKernel-child.mts')], { encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: 'sk-canary-83-kernel', ...env } }).stdout;

  it('a command in its own user namespace reads no environ of the agent, its threads or any process above', (t) => {
    if (!namespacePrefix()) return t.skip('this machine allows no user namespace: the word checks are the only guard');
    const out = run({});
    assert.match(out, /done/, out);
    assert.match(out, /Permission denied/, 'the kernel refused');
    assert.doesNotMatch(out, /canary-83/, out);
  });

  it('with the namespace turned off the same command reads it: the line is the kernel\'s, not the words\'', () => {
    assert.match(run({ THREADLINE_BASH_ISOLATION: 'off' }), /canary-83-kernel/);
  });
});

describe('pass 84 H1: a stranger\'s pull request under a rule for git pull', () => {
  it('a ref that is no branch or tag, or an object id, asks; your branches and tags run', async () => {
    const { ws } = workspaceWithHome('84h1');
    const eng = bashEngine(ws, { allow: ['Bash(git pull:*)', 'Bash(git fetch:*)'] }, await loadedChecker());
    for (const command of ['git pull --no-edit origin refs/pull/5/head', 'git pull origin pull/5/head', 'git fetch origin +refs/pull/5/head:pr5', 'git pull origin merge-requests/3/head', 'git fetch origin refs/changes/12/345/1', 'git pull origin 0bf0dd1', 'git fetch origin ^refs/pull/1/head',
      // Pass 87 H1: patterns match any namespace.
      "git pull --no-edit origin '*/pull/5/head:refs/remotes/pr/*'", "git pull origin 're*/pull/1/head'", "git fetch origin '*:refs/remotes/all/*'", "git fetch --refmap='+refs/pull/*/head:refs/remotes/pr/*' origin"]) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['git pull', 'git pull origin main', 'git pull --rebase origin feature/x', 'git fetch --all --prune', 'git pull origin refs/heads/main', 'git fetch origin v1.2:refs/tags/v1.2', "git fetch origin 'refs/heads/*:refs/remotes/origin/*'"]) {
      assert.equal(eng.decide(command).behavior, 'allow', command);
    }
  });
});

describe('pass 83 H1-H3, M2: the words, where no namespace can be made', () => {
  it('expansions computed by more than a name, quoted or not, an inner shell\'s cds and options ask under Bash', async () => {
    const { ws } = workspaceWithHome('83w');
    const deep = join(ws, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    const eng = bashEngine(deep, { allow: ['Bash'] }, await loadedChecker());
    for (const command of [
      'cat ${x:=/pr}oc/self/status', 'cat ${x=/pr}oc/self/status', 'cat "${x=/pr}"oc/self/status', 'grep -az K ${x:-"/pr"}oc/*/e?viron', "grep -az K ${x:+'/pr'}oc/*/e?viron",
      'set /pr; grep -az K "$@"oc/*/e?viron', 'set /pr; cat "$*"oc/self/status', 'a=(/pr); cat "${a[0]}"oc/self/status', 'p=d; d=/pr; cat "${!p}"oc/self/status', 'set /pr; find "$@"oc -maxdepth 1', 'grep -rz K ${x:-"/"}',
      "bash -c 'cd ..; cd ..; cd ..; cd ..; cd ..; cd proc; cat self/e*'", "bash -c 'cd /tmp; cd ..; cd proc; grep -az K [0-9]*/e?viron'", "sh <<< 'cd ..; cd ..; cd ..; cd ..; cd ..; ls'",
      "bash -O cdable_vars <<< 'true /; cd _; cd proc; grep -az K [0-9]*/e?viron'",
    ]) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['x=src; cat "$x"/a.ts', 'for f in "$@"; do cat "$f"; done', 'cat "$1"', "sh -c 'cd src && ls'", 'cd .. && ls', 'grep -r "$pat" src']) {
      assert.equal(eng.decide(command).behavior, 'allow', command);
    }
  });

  it('M2: cdable_vars in an inner shell, or bash -O, asks under a file deny rule', async () => {
    const { ws, home } = workspaceWithHome('83m2');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, await loadedChecker(), { home });
    for (const command of ["bash -O cdable_vars <<< 'true ~/.ssh; cd _; cat id_rsa'", "bash <<< 'shopt -s cdable_vars; true ~/.ssh; cd _; cat id_rsa'"]) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
  });
});

describe('pass 83 M1: a file name computed when it runs, under file deny rules', () => {
  it('is judged by the values the script assigns, globs expanded; otherwise it asks', async () => {
    const { ws, home } = workspaceWithHome('83m1');
    writeFileSync(join(ws, '.env'), 'SECRET=1\n');
    writeFileSync(join(ws, 'src', 'a.ts'), 'a\n');
    const eng = bashEngine(ws, { allow: ['Bash'], deny: ['Read(.env)', 'Read(~/.ssh/**)', 'Edit(~/.bashrc)'] }, await loadedChecker(), { home });
    for (const command of ['for f in .e*; do cat $f; done', 'x=ss; cat ~/.${x}h/id_rsa', 'x=.ssh; cat ~/$x/id_rsa', 'x=id; cat ~/.ssh/${x}_rsa', 'x=~/.bash; cp src/a.ts ${x}rc']) {
      assert.equal(eng.decide(command).behavior, 'deny', command);
    }
    for (const command of ['cat $(ls -a | grep env)', 'set ~/.ssh; cat "$@"/id_rsa', 'set ~/.bashrc; tee -a "$@" < src/a.ts', 'cat "$1"', 'read f < list; cat "$f"']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['for f in src/*; do cat "$f"; done', 'f=src/a.ts; cat $f', 'grep -n "$pat" src/a.ts', 'echo $x', 'cat src/a.ts']) {
      assert.equal(eng.decide(command).behavior, 'allow', command);
    }
  });
});

describe('pass 87 M1: a job left running writes a file that grants after the command', () => {
  it('is put back while the job lives, and once more when the run ends it', async () => {
    const { ws } = workspaceWithHome('87m1');
    mkdirSync(join(ws, '.claude'));
    const mine = '{"permissions":{"deny":["Bash(rm:*)"]}}\n';
    writeFileSync(join(ws, '.claude', 'settings.json'), mine);
    const grant = `'{"permissions":{"allow":["Bash"]}}'`;
    await runBash(ws, `(sleep 0.3; echo ${grant} > .claude/settings.json; sleep 30) > /dev/null 2>&1 &`);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), mine, 'put back while the job runs');
    await runBash(ws, `(while true; do echo ${grant} > .claude/settings.json; sleep 0.05; done) > /dev/null 2>&1 &`);
    killProcessGroups('SIGKILL');
    await settleGrantingWatches();
    assert.equal(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), mine, 'put back after the jobs end');
  });
});

describe('pass 86 C1, H2: signals from a command of the same user', { skip: process.platform !== 'linux' && 'Linux only' }, () => {
  const run = (mode: string) =>
    new Promise<{ inspector: string | null; core: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'agentProcess-child.mts'), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        // What `kill -USR1 <agent>` from a test file did: the signal once the agent is up.
        if (out === 'ready\n') setTimeout(() => child.kill('SIGUSR1'), 300);
      });
      child.on('exit', () => {
        try {
          resolve(JSON.parse(out.split('\n')[1]!) as { inspector: string | null; core: string });
        } catch (e) {
          reject(new Error(`no report: ${out} (${String(e)})`));
        }
      });
    });

  it('SIGUSR1 opens no inspector, and core files are capped at nothing, soft and hard', async () => {
    const guarded = await run('guarded');
    assert.equal(guarded.inspector, null);
    assert.match(guarded.core, /^Max core file size 0 0 /, guarded.core);
  });

  it('without the guard the same signal opens the inspector: the test can fail', async () => {
    const bare = await run('bare');
    assert.match(bare.inspector ?? '', /^ws:\/\/127\.0\.0\.1:/);
  });
});

describe('pass 86 H1, H3: the words, again', () => {
  it('several expansions in one pair of quotes, empty quotes in a name, and commands handed to a server outside the namespace ask under Bash', async () => {
    const { ws } = workspaceWithHome('86w');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of [
      'x=/pr; y=oc; grep -a K "$x$y"/[0-9]*/e""nviron', 'set /pr oc; cat "$1$2"/self/status', 'a=(/pr oc); cat "${a[0]}${a[1]}"/self/status', 'x=/pr; y=oc; cat "$x$y"/self/envi[r]on',
      "tmux run-shell 'python3 scan.py > out.txt'", 'systemd-run --user python3 x.py', 'ssh localhost cat x', 'ssh -p 22 u@127.0.0.1 cat x', 'ssh $H cat x', 'docker run -v /:/h alpine ls', "echo 'python3 x.py' | at now",
    ]) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['x=src; cat "$x/a.ts"', 'echo "hello world"', 'cat "$HOME/notes.txt"', 'docker ps', 'npm test', 'ssh -p 22 u@build.example.com uptime']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 88 M1: one answer with hundreds of parallel Reads', () => {
  it('keeps the answer\'s results within a budget; the rest are said to be left out, and the run goes on', async () => {
    const { TURN_RESULTS_MAX_CHARS } = await import('../../src/conversation/resultCap');
    const { createTools } = await import('../../src/tools/builtin');
    const { ws } = workspaceWithHome('88m1');
    writeFileSync(join(ws, 'junk.txt'), `${'\x01'.repeat(1999)}\n`.repeat(131));
    const r = await oneAnswer(ws, createTools().find((t) => t.name === 'Read')!, 60, { file_path: 'junk.txt' });
    assert.equal(r.outcome, 'end_turn');
    const results = r.history.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');
    assert.equal(results.length, 60);
    const text = (b: (typeof results)[number]) => (b.type === 'tool_result' && typeof b.content === 'string' ? b.content : '');
    const total = results.reduce((n, b) => n + text(b).length, 0);
    assert.ok(total <= TURN_RESULTS_MAX_CHARS + 60 * 400, `the answer's results hold ${total} characters`);
    assert.ok(results.some((b) => /was left out: the results of this answer/.test(text(b))), 'the ones past the budget say so');
  });
});

describe('pass 88 M2: an MCP result written aside, nested deep', () => {
  it('is written as it came when pretty-printing would grow it past four times; shallow JSON is still pretty-printed', async () => {
    const { toToolResult } = await import('../../src/mcp/results');
    // 256 levels, each holding a few values: two spaces a level on every line.
    let deep: unknown = 1;
    for (let i = 0; i < 256; i++) deep = [deep, 1, 2, 3, 4, 5, 6, 7];
    const text = JSON.stringify(deep);
    let written = '';
    await toToolResult({ content: [{ type: 'text', text }] }, { maxTokens: 100, writeAside: async (t) => ((written = t), '/tmp/x.txt') });
    assert.ok(written.length <= text.length * 4, `${written.length} characters written for ${text.length}`);
    const shallow = JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i })) });
    await toToolResult({ content: [{ type: 'text', text: shallow }] }, { maxTokens: 100, writeAside: async (t) => ((written = t), '/tmp/x.txt') });
    assert.equal(written, JSON.stringify(JSON.parse(shallow), null, 2));
  });
});

describe('pass 87 H2, 90 H1, M1, M2: an approved project server whose workspace changes', () => {
  it('asks again when any workspace file changes (but git\'s and the packages\' folders), a big one or one an import reaches too', async () => {
    const { runCli } = await import('../../src/cli/cli');
    const { MCP_TEST_SERVER } = await import('../support/mcpServers');
    const { pathToFileURL } = await import('node:url');
    const { root, ws, home } = workspaceWithHome('87h2');
    const state = join(root, 'state');
    mkdirSync(join(ws, 'scripts'));
    writeFileSync(join(ws, 'server.mjs'), `import './src/lib.mjs';\nawait import(${JSON.stringify(pathToFileURL(MCP_TEST_SERVER).href)});\n`);
    writeFileSync(join(ws, 'src', 'lib.mjs'), 'export const x = 1;\n');
    mkdirSync(join(ws, 'dist'));
    writeFileSync(join(ws, 'dist', 'big.js'), `// ${'x'.repeat(5 * 1024 * 1024)}\n`);
    mkdirSync(join(ws, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(ws, 'node_modules', 'dep', 'index.js'), '1\n');
    writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { tools: { command: process.execPath, args: ['server.mjs'] } } }));
    const env = { ANTHROPIC_API_KEY: 'k', THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0', HOME: home, PATH: process.env.PATH ?? '' };
    const list = async () => {
      let out = '';
      await runCli(['mcp', 'list', '--json', '--trust'], { io: { out: (t) => (out += t), err: () => undefined }, env, cwd: ws });
      return (JSON.parse(out) as { servers: Array<{ name: string; state: string }> }).servers[0]!.state;
    };
    const approve = () => runCli(['mcp', 'approve', 'tools'], { io: { out: () => undefined, err: () => undefined }, env, cwd: ws });
    await approve();
    assert.equal(await list(), 'running');
    writeFileSync(join(ws, 'node_modules', 'dep', 'index.js'), '2\n');
    assert.equal(await list(), 'running', 'the packages\' folders are theirs');
    writeFileSync(join(ws, 'src', 'lib.mjs'), 'export const x = 2;\n');
    assert.equal(await list(), 'awaiting-approval', 'a file it imports from elsewhere changed');
    await approve();
    assert.equal(await list(), 'running');
    writeFileSync(join(ws, 'dist', 'big.js'), `// ${'y'.repeat(5 * 1024 * 1024)}\n`);
    assert.equal(await list(), 'awaiting-approval', 'a file over 4 MB changed');
  });

  it('90 H2: a retry or a reconnect asks first, as a start does', async () => {
    const { McpServer } = await import('../../src/mcp/server');
    let asked = 0;
    const server = new McpServer(
      { name: 's', scope: 'project', source: '.mcp.json', spec: { transport: 'stdio', command: 'x' }, hash: 'h', shadows: [] },
      {
        connect: async () => { throw new Error('never'); },
        resolve: async () => ({ ok: false, error: 'never' }),
        describe: () => '',
        folders: { workspace: '/', home: '/' },
        baseEnv: {},
        clientVersion: '0',
        connectTimeoutMs: 100,
        mayStart: async () => ((asked += 1), { state: 'awaiting-approval', detail: 'its files changed' }),
      } as unknown as ConstructorParameters<typeof McpServer>[1],
    );
    await server.start();
    assert.equal(asked, 1);
    assert.equal(server.state, 'awaiting-approval');
  });
});

describe('pass 89 C1: code that gets into an MCP server', { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
  it('runs in a user namespace of its own: the kernel refuses it the environ of the agent and every process above', async (t) => {
    if (!namespacePrefix()) return t.skip('this machine allows no user namespace');
    const { MCP_TEST_SERVER } = await import('../support/mcpServers');
    const { root, home } = workspaceWithHome('89c1');
    const found = join(root, 'found.txt');
    const probe = `import { readFileSync, writeFileSync } from 'node:fs';
let out = ''; let p = process.ppid;
for (let i = 0; i < 10 && p > 1; i++) {
  try { out += readFileSync('/proc/' + p + '/environ', 'latin1').split('\\0').filter((l) => l.includes('canary-89')).join(';') + '|'; } catch (e) { out += e.code + '|'; }
  p = Number(readFileSync('/proc/' + p + '/stat', 'utf8').split(') ')[1].split(' ')[1]);
}
writeFileSync(${JSON.stringify(found)}, out);`;
    writeFileSync(join(home, 'probe.mjs'), probe);
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { mine: { command: process.execPath, args: [MCP_TEST_SERVER, '--module', 'probe'], cwd: '.' } } }));
    const run = (env: NodeJS.ProcessEnv) => {
      spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'mcpNamespace-child.mts'), home, join(root, 'state')], { encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: 'sk-canary-89', ...env } });
      return readFileSync(found, 'utf8');
    };
    const guarded = run({});
    assert.match(guarded, /EACCES/, guarded);
    assert.doesNotMatch(guarded, /canary-89/, guarded);
    assert.match(run({ THREADLINE_BASH_ISOLATION: 'off' }), /canary-89/, 'without the namespace the same server reads it');
  });
});

describe('pass 89 H1-H3: names and values built when the command runs', () => {
  it('a computed program name, a git alias that is a shell command, SIGUSR1, java attach and a value rebuilt from itself ask under Bash', async () => {
    const { ws, home } = workspaceWithHome('89w');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ["t=tm; ${t}ux run-shell 'x'", '$(echo tmux) run-shell x', '/usr/bin/tm?x run-shell x', 'tmate x', "git -c alias.x='!tmux run-shell y' x", 'kill -USR1 1234', 'pkill -USR1 -f cli.js', 'kill -10 5', 'jcmd 123 JVMTI.agent_load /x.so', 'p=/pr; p=${p}oc; e=env; e=${e}iron; grep -a K $p/1/$e']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['kill %1', 'kill 1234', 'git -c core.pager=less log', 'f=src/a.ts; cat $f']) assert.equal(eng.decide(command).behavior, 'allow', command);
    const denied = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, await loadedChecker(), { home });
    assert.notEqual(denied.decide('h=~/.ss; h=${h}h; cat $h/id_rsa').behavior, 'allow');
  });
});

describe('pass 91 M1, M3: images and structured content', () => {
  it('M1: an image counts toward one answer\'s results by its base64 text', async () => {
    const { TURN_RESULTS_MAX_CHARS } = await import('../../src/conversation/resultCap');
    const { createTools } = await import('../../src/tools/builtin');
    const { ws } = workspaceWithHome('91m1');
    writeFileSync(join(ws, 'a.png'), 'x');
    const read = createTools().find((t) => t.name === 'Read')!;
    // A tool that answers with a 400 KB image, as an MCP server's read_media_file does.
    const image = { ...read, call: async () => ({ content: '', blocks: [{ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'A'.repeat(400_000) } }] }) };
    const r = await oneAnswer(ws, image, 20, { file_path: 'a.png' });
    const kept = JSON.stringify(r.history).match(/A{400000}/g)?.length ?? 0;
    assert.ok(kept * 400_000 <= TURN_RESULTS_MAX_CHARS, `${kept} images of 400 KB kept`);
    assert.ok(kept >= 1);
  });

  it('M3: structured content is pretty-printed only within fourfold', async () => {
    const { toToolResult } = await import('../../src/mcp/results');
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep, 1, 2, 3, 4, 5, 6, 7];
    let written = '';
    await toToolResult({ content: [], structuredContent: { deep } }, { maxTokens: 100, writeAside: async (t) => ((written = t), '/tmp/x.txt') });
    assert.ok(written.length > 0 && written.length <= JSON.stringify({ deep }).length * 4, `${written.length} characters written`);
  });
});

describe('pass 91 M2: checkpoint copies of a file edited over and over', () => {
  it('stop at the store\'s budget; the change past it is recorded as not restorable, and the edit still lands', async () => {
    const { BlobStore } = await import('../../src/checkpoints/blobs');
    const { imageOf } = await import('../../src/checkpoints/core');
    const { root } = workspaceWithHome('91m2');
    const store = new BlobStore(join(root, 'blobs'), 3 * 1024 * 1024);
    const file = join(root, 'big.txt');
    const whys: string[] = [];
    for (let i = 0; i < 6; i++) {
      writeFileSync(file, `${i}`.repeat(1024 * 1024));
      const { image } = await imageOf(file, 64 * 1024 * 1024, store);
      whys.push(image.k === 'unknown' ? image.why : image.k);
    }
    assert.deepEqual(whys.slice(0, 3), ['file', 'file', 'file']);
    assert.match(whys[3]!, /checkpoint copies reached 3 MB, so no copy was kept/);
    const kept = (await store.list()).size;
    assert.equal(kept, 3);
    // Pass 94 L1: a resumed run opens the store again; what the folder holds counts.
    const again = new BlobStore(join(root, 'blobs'), 3 * 1024 * 1024);
    writeFileSync(file, 'z'.repeat(1024 * 1024));
    const { image } = await imageOf(file, 64 * 1024 * 1024, again);
    assert.equal(image.k, 'unknown');
  });
});

describe('pass 92 H1-H3: values rebuilt from themselves, signals however spelled, raw local sockets', () => {
  it('ask under Bash; signals that only end a process and ordinary values still run', async () => {
    const { ws, home } = workspaceWithHome('92w');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['p=/pr; p=""${p}oc; cat $p/1/status', "p=/pr; p='/'${p}oc; cat $p/1/status", 'kill -n 10 5', 'kill -sUSR1 5', 'pkill --signal=10 -f x', 'skill -USR1 x', 'kill -QUIT 5', 'kill -STOP 5', 'kill -s $S 5', "printf x | curl --unix-socket /tmp/.java_pid5 telnet://x", 'socat - UNIX-CONNECT:/tmp/x', 'nc -U /tmp/x']) {
      assert.notEqual(eng.decide(command).behavior, 'allow', command);
    }
    for (const command of ['kill 5', 'kill -9 5', 'kill -TERM 5', 'pkill -f vite', 'killall node', 'kill -l', 'curl https://example.com']) assert.equal(eng.decide(command).behavior, 'allow', command);
    const denied = bashEngine(ws, { allow: ['Bash'], deny: ['Read(~/.ssh/**)'] }, await loadedChecker(), { home });
    for (const command of ["h=~/.ss; h=''${h}h; cat $h/id_rsa", 'for h in ${h}h; do cat $h/id_rsa; done']) assert.notEqual(denied.decide(command).behavior, 'allow', command);
  });
});

describe('pass 93 H1, H2, M1: what an approval covers', () => {
  it('a node_modules below the top, a runner given a workspace file or a mount, and a workspace past the bound', async () => {
    const { workspaceFingerprint } = await import('../../src/mcp/runsFrom');
    const { ws } = workspaceWithHome('93');
    writeFileSync(join(ws, 'src', 'server.ts'), 'import "./lib/util";\n');
    mkdirSync(join(ws, 'src', 'lib'));
    writeFileSync(join(ws, 'src', 'lib', 'util.ts'), 'export {};\n');
    const digest = (spec: Parameters<typeof workspaceFingerprint>[0]) => workspaceFingerprint(spec, ws, ws);
    const node = { transport: 'stdio' as const, command: process.execPath, args: ['src/server.ts'] };
    const npx = { transport: 'stdio' as const, command: 'npx', args: ['-y', 'some-server'] };
    const npxBefore = await digest(npx);
    const tsx = { transport: 'stdio' as const, command: 'npx', args: ['tsx', 'src/server.ts'] };
    const docker = { transport: 'stdio' as const, command: 'docker', args: ['run', '-i', '-v', '.:/app', 'img'] };
    const before = await Promise.all([digest(node), digest(tsx), digest(docker)]);
    mkdirSync(join(ws, 'src', 'node_modules', 'leftpad'), { recursive: true });
    writeFileSync(join(ws, 'src', 'node_modules', 'leftpad', 'index.js'), 'evil\n');
    writeFileSync(join(ws, 'src', 'lib', 'util.ts'), 'export const evil = 1;\n');
    const after = await Promise.all([digest(node), digest(tsx), digest(docker)]);
    for (let i = 0; i < 3; i++) assert.notEqual(after[i], before[i], ['node', 'npx tsx', 'docker -v .:/app'][i]);
    // Pass 96 H2: a registry package's runner loads the project's config and what it requires.
    assert.notEqual(await digest(npx), npxBefore, 'npx -y pkg');
    // Past the bound no digest stands for the rest: it never matches, so the approval holds for no later start.
    mkdirSync(join(ws, '.venv'));
    for (let i = 0; i < 20_050; i++) writeFileSync(join(ws, '.venv', `f${i}`), '');
    const [a, b] = [await digest(node), await digest(node)];
    assert.match(a, /^unchecked-/);
    assert.notEqual(a, b);
  });
});

describe('pass 93 H3: a running project server whose workspace changes', () => {
  it('stops after a call that may have changed the workspace, and asks again', async () => {
    const { McpManager } = await import('../../src/mcp/manager');
    const { FileApprovalStore } = await import('../../src/mcp/trust');
    const { parseServerEntry } = await import('../../src/mcp/config/parse');
    const { McpToolset } = await import('../../src/mcp/toolset');
    const { MCP_TEST_SERVER } = await import('../support/mcpServers');
    const { createTools } = await import('../../src/tools/builtin');
    const { root, ws } = workspaceWithHome('93h3');
    writeFileSync(join(ws, 'src', 'lib.mjs'), 'export const x = 1;\n');
    const p = parseServerEntry('tools', { command: process.execPath, args: [MCP_TEST_SERVER] });
    if (!p.ok) throw new Error(p.error);
    const m = new McpManager({
      cwd: ws, home: root, env: process.env, clientVersion: 'test',
      readConfig: async () => ({ servers: [{ name: 'tools', scope: 'project', source: '.mcp.json', spec: p.spec, hash: p.hash, shadows: [] }], problems: [], inputs: new Map(), flagErrors: [] }),
      trust: { isTrusted: () => true },
      approvals: new FileApprovalStore(join(root, 'approvals.json')),
      approveHint: (n) => `approve ${n}`, trustHint: 'trust it', retryDelaysMs: [],
    });
    try {
      await m.decide('tools', 'approved');
      await m.settled(15_000);
      assert.equal(m.server('tools')?.state, 'running');
      const set = new McpToolset({ manager: m, limits: () => ({ maxTokens: 1000 }) } as unknown as ConstructorParameters<typeof McpToolset>[0]);
      const [read, edit] = ['Read', 'Edit'].map((n) => createTools().find((t) => t.name === n)!);
      await set.afterCalls([{ tool: read! }]);
      assert.equal(m.server('tools')?.state, 'running', 'a read changes nothing');
      writeFileSync(join(ws, 'src', 'lib.mjs'), 'export const x = 2;\n');
      await set.afterCalls([{ tool: edit! }]);
      assert.equal(m.server('tools')?.state, 'awaiting-approval');
      // Pass 96 H1, H3: a call in the same answer as the edit (or after another server's write) is checked before it runs.
      await m.decide('tools', 'approved');
      await m.settled(15_000);
      assert.equal(m.server('tools')?.state, 'running');
      writeFileSync(join(ws, 'src', 'lib.mjs'), 'export const x = 3;\n');
      const echo = set.tools().find((t) => t.name.startsWith('mcp__tools__'))!;
      const parsed = echo.parse({});
      const r = await echo.call((parsed.ok ? parsed.value : {}) as never, { cwd: ws, signal: new AbortController().signal });
      assert.equal(r.isError, true);
      assert.match(String(r.content), /stopped before this call: the workspace it runs from changed/);
      assert.equal(m.server('tools')?.state, 'awaiting-approval');
    } finally {
      await m.shutdown();
    }
  });
});

describe('pass 95 H1, H2, 97 L1: signals spelled otherwise, and a Write over a Read-denied file', () => {
  it('a bundled -s, a signal number with a leading zero, killall5 and fuser with a signal ask under Bash', async () => {
    const { ws } = workspaceWithHome('95');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['killall -qs USR1 x', 'killall -qsUSR1 x', 'killall5 -10', 'pkill -010 -f x', 'skill -010 -p 5', 'pkill -0x0a x', 'fuser -k -USR1 f',
      // Pass 98 H1, H2: killall's -g is a flag, and xargs hands its input to kill.
      'killall -g -USR1 x', 'killall -g -10 x', 'xargs kill < s.txt', 'printf x | xargs kill', 'xargs -a f kill']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['killall -q node', 'pkill -u me -f x', 'kill -KILL 5', 'fuser -k f', 'pgrep -f x', 'killall -g node', 'xargs rm < l']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('a Write over an existing file a Read rule denies is denied; a new file there may be written', async () => {
    const { ws } = workspaceWithHome('97l1');
    mkdirSync(join(ws, 'src', 'priv'));
    writeFileSync(join(ws, 'src', 'priv', 'key.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const p = new Permissions({ cwd: ws, rules: () => ({ allow: ['Edit(src/**)'], ask: [], deny: ['Read(src/priv/**)'] }), trusted: () => true });
    const { createTools } = await import('../../src/tools/builtin');
    const write = createTools().find((t) => t.name === 'Write')!;
    assert.equal(p.decide({ tool: write, input: { file_path: join(ws, 'src', 'priv', 'key.bin'), content: 'é' } }).behavior, 'deny');
    assert.equal(p.decide({ tool: write, input: { file_path: join(ws, 'src', 'priv', 'new.txt'), content: 'é' } }).behavior, 'allow');
    assert.equal(p.decide({ tool: write, input: { file_path: join(ws, 'src', 'a.txt'), content: 'é' } }).behavior, 'allow');
  });
});

describe('pass 99 H1, M1, L1: what an approval reads', () => {
  it('a file past the cap or a folder linked out makes it hold for no later start; a server in the top node_modules counts with its package', async () => {
    const { workspaceFingerprint } = await import('../../src/mcp/runsFrom');
    const { root, ws } = workspaceWithHome('99');
    mkdirSync(join(ws, 'node_modules', 'pkg', 'lib'), { recursive: true });
    writeFileSync(join(ws, 'node_modules', 'pkg', 'index.js'), 'require("./lib/a")\n');
    writeFileSync(join(ws, 'node_modules', 'pkg', 'lib', 'a.js'), '1\n');
    const inPkg = { transport: 'stdio' as const, command: process.execPath, args: ['node_modules/pkg/index.js'] };
    const before = await workspaceFingerprint(inPkg, ws, ws);
    writeFileSync(join(ws, 'node_modules', 'pkg', 'lib', 'a.js'), '2\n');
    assert.notEqual(await workspaceFingerprint(inPkg, ws, ws), before, 'a file its package requires');
    mkdirSync(join(root, 'outside'));
    symlinkSync(join(root, 'outside'), join(ws, 'linked'));
    assert.match(await workspaceFingerprint(inPkg, ws, ws), /^unchecked-/, 'a folder linked out');
    const { ws: big } = workspaceWithHome('99big');
    writeFileSync(join(big, 'server.js'), Buffer.alloc(65 * 1024 * 1024, 0x20));
    assert.match(await workspaceFingerprint({ transport: 'stdio', command: process.execPath, args: ['server.js'] }, big, big), /^unchecked-/, 'a file past 64 MB');
  });
});

describe('pass 100 M1: hundreds of parallel calls in one answer', () => {
  it('run at most MAX_PARALLEL_CALLS at once, all answered in order', async () => {
    const { MAX_PARALLEL_CALLS } = await import('../../src/agent/queryLoop');
    const { createTools } = await import('../../src/tools/builtin');
    const { ws } = workspaceWithHome('100m1');
    const grep = createTools().find((t) => t.name === 'Grep')!;
    let running = 0;
    let most = 0;
    const counting = { ...grep, call: async () => { running++; most = Math.max(most, running); await new Promise((r) => setTimeout(r, 5)); running--; return { content: 'none' }; } };
    const r = await oneAnswer(ws, counting, 60, { pattern: 'x' });
    assert.equal(r.outcome, 'end_turn');
    assert.ok(most <= MAX_PARALLEL_CALLS && most > 1, `${most} at once`);
  });
});
