import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expandSpec, inputsUsed } from '../../../src/mcp/config/expand';
import { describeSpec, parseServerEntry, type DescribeContext } from '../../../src/mcp/config/parse';
import type { McpServerSpec } from '../../../src/mcp/config/types';
import { readMcpConfig } from '../../../src/mcp/config/sources';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const json = (file: string, v: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(v));
};

describe('MCP server entries', () => {
  it('reads stdio, http and sse entries, inferring the type from command or url', () => {
    const stdio = parseServerEntry('a', { command: 'npx', args: ['-y', 'x'], env: { K: 'v' } });
    assert.ok(stdio.ok);
    assert.deepEqual(stdio.spec, { transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { K: 'v' } });
    const http = parseServerEntry('b', { url: 'https://h/mcp', headers: { Authorization: 'Bearer ${T}' } });
    assert.ok(http.ok && http.spec.transport === 'http');
    for (const type of ['http', 'streamable-http', 'streamableHttp']) assert.equal((parseServerEntry('c', { type, url: 'https://h' }) as { spec: { transport: string } }).spec.transport, 'http');
    assert.equal((parseServerEntry('d', { type: 'sse', url: 'https://h' }) as { spec: { transport: string } }).spec.transport, 'sse');
    assert.equal((parseServerEntry('e', { command: 'x', disabled: true }) as { spec: { disabled?: boolean } }).spec.disabled, true);
  });

  it('refuses what cannot run, in one sentence naming the server and the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /server "s": it has neither a "command".*nor a "url"/],
      [{ type: 'ws', url: 'x' }, /type "ws" is not one of stdio, http, sse/],
      [{ type: 'stdio' }, /a stdio server needs a "command"/],
      [{ type: 'http' }, /an http server needs a "url"/],
      [{ command: 'x', args: 'not a list' }, /"args" must be an array/],
      [{ command: 'x', env: { A: 1 } }, /"env.A" must be a string/],
      ['a string', /the entry must be an object/],
    ];
    for (const [raw, message] of cases) {
      const r = parseServerEntry('s', raw);
      assert.equal(r.ok, false, JSON.stringify(raw));
      assert.match((r as { error: string }).error, message);
    }
  });

  it('an approval is tied to the definition: the hash changes with the command, not with key order', () => {
    const a = parseServerEntry('s', { command: 'x', env: { A: '1', B: '2' } });
    const b = parseServerEntry('s', { env: { B: '2', A: '1' }, command: 'x' });
    const c = parseServerEntry('s', { command: 'y', env: { A: '1', B: '2' } });
    assert.ok(a.ok && b.ok && c.ok);
    assert.equal(a.hash, b.hash);
    assert.notEqual(a.hash, c.hash);
    assert.equal(describeSpec(a.spec), 'x (env: A; B)', 'the approval shows the variables it runs with, not their values');
    // Which of the user's own variables a value takes in is shown too: that is what the server receives.
    assert.equal(
      describeSpec({ transport: 'http', url: 'https://mcp.example', headers: { Authorization: 'Bearer ${AWS_SECRET_ACCESS_KEY}${GITHUB_TOKEN}', 'X-Id': 'abc' } }),
      'http https://mcp.example (headers: Authorization from $AWS_SECRET_ACCESS_KEY, $GITHUB_TOKEN; X-Id)',
    );
    assert.equal(describeSpec({ transport: 'stdio', command: 'x', env: { TOKEN: '${HOME}/t ${GH:-none}' } }), 'x (env: TOKEN from $HOME, $GH)');
    assert.equal(describeSpec({ transport: 'stdio', command: 'node', args: ['my server.js', '--x=1'] }), "node 'my server.js' --x=1");
  });
});

describe('the approval names every variable a definition takes in', () => {
  // Every place a string is expanded, and every form that reads the environment: whatever the
  // expander puts of $V into what is started, the description must name $V.
  const forms = ['${V}', '${V:-d}', '${env:V}', 'a-${V}-b'];
  const places: Array<[string, (v: string) => McpServerSpec]> = [
    ['command', (v) => ({ transport: 'stdio', command: v })],
    ['an argument', (v) => ({ transport: 'stdio', command: 'x', args: ['--k', v] })],
    ['env', (v) => ({ transport: 'stdio', command: 'x', env: { K: v } })],
    ['cwd', (v) => ({ transport: 'stdio', command: 'x', cwd: v })],
    ['url', (v) => ({ transport: 'http', url: `https://h/${v}` })],
    ['a header', (v) => ({ transport: 'http', url: 'https://h', headers: { Authorization: `Bearer ${v}` } })],
    ['oauth.clientId', (v) => ({ transport: 'http', url: 'https://h', oauth: { clientId: v } })],
    ['oauth.clientSecret', (v) => ({ transport: 'http', url: 'https://h', oauth: { clientSecret: v } })],
  ];

  it('${V}, ${V:-default}, ${env:V} in command, arguments, env, cwd, URL, headers and the OAuth client', async () => {
    for (const [place, make] of places) {
      for (const form of forms) {
        const spec = make(form);
        const r = await expandSpec(spec, { env: { V: 'CANARY' }, workspaceFolder: '/ws', home: '/h' });
        assert.ok(r.ok);
        assert.ok(JSON.stringify(r.spec).includes('CANARY'), `the expander takes $V in from ${form} in ${place}`);
        assert.match(describeSpec(spec), /\$V\b/, `${form} in ${place}: ${describeSpec(spec)}`);
      }
    }
    assert.equal(describeSpec({ transport: 'http', url: 'https://h', headers: { Authorization: 'Bearer ${env:AWS_SECRET_ACCESS_KEY}' } }), 'http https://h (headers: Authorization from $AWS_SECRET_ACCESS_KEY)');
    assert.equal(describeSpec({ transport: 'http', url: 'https://h', oauth: { clientId: 'app', clientSecret: '${CLIENT_SECRET}' } }), 'http https://h (OAuth client from $CLIENT_SECRET)');
    assert.equal(describeSpec({ transport: 'stdio', command: 'x', args: ['${workspaceFolder}', '${input:k}'] }), 'x \'${workspaceFolder}\' \'${input:k}\'', 'no environment variable: none named');
  });
});

describe("a workspace server's approval shows what chooses the program", () => {
  // A home, a workspace and one absolute PATH folder holding the programs the entries name.
  const root = tmp('tl-desc-');
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const bin = join(root, 'bin');
  for (const d of [home, ws, bin, join(ws, '.bin'), join(home, '.local', 'bin'), join(ws, '~', '.local', 'bin')]) mkdirSync(d, { recursive: true });
  const exe = (f: string) => writeFileSync(f, '#!/bin/sh\n', { mode: 0o755 });
  for (const n of ['npx', 'uvx', 'python']) exe(join(bin, n));
  for (const f of [join(ws, '.bin', 'npx'), join(ws, '.bin', 'evil'), join(home, '.local', 'bin', 'uvx'), join(ws, '~', '.local', 'bin', 'uvx')]) exe(f);
  const ctx = (extra: Partial<DescribeContext> = {}): DescribeContext => ({ fromWorkspace: true, name: 'srv', home, workspace: ws, startDir: ws, env: { PATH: `.bin::${bin}` }, ...extra });
  const d = (spec: McpServerSpec, extra?: Partial<DescribeContext>) => describeSpec(spec, ctx(extra));
  const note = "[starts in the workspace: npx, python -m and relative paths find the workspace's own files first]";
  const flagged = (spec: McpServerSpec, extra?: Partial<DescribeContext>) => /^\[CHECK: (.*?)\] /.exec(d(spec, extra))?.[1] ?? '';

  it('puts the CHECK warnings first, shows env and header values as written, and the program the command runs', () => {
    assert.equal(
      d({ transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { PATH: '.bin:${PATH}' } }),
      `[CHECK: env PATH chooses which program runs] npx -y @modelcontextprotocol/server-memory (runs ${join(bin, 'npx')}) (env: PATH='.bin:\${PATH}') ${note}`,
    );
    assert.equal(
      d({ transport: 'stdio', command: 'npx', args: ['x'], env: { NODE_OPTIONS: '--require ./.x.js', GH_TOKEN: '${env:GH_TOKEN}', MODE: 'fast' } }),
      `[CHECK: env NODE_OPTIONS chooses what the program loads; env MODE is not one Threadline knows to be harmless (it may choose what the program loads)] npx x (runs ${join(bin, 'npx')}) (env: NODE_OPTIONS='--require ./.x.js'; GH_TOKEN='\${env:GH_TOKEN}'; MODE=fast) ${note}`,
    );
    assert.match(flagged({ transport: 'stdio', command: 'python', env: { LD_PRELOAD: 'x.so', PYTHONPATH: '.', DYLD_INSERT_LIBRARIES: 'y' } }), /env LD_PRELOAD chooses what the program loads; env PYTHONPATH chooses what the program loads; env DYLD_INSERT_LIBRARIES/);
    assert.equal(flagged({ transport: 'stdio', command: './bin/srv' }), `the program ${join(ws, 'bin', 'srv')} is a file inside the workspace`);
    assert.equal(flagged({ transport: 'stdio', command: '${workspaceFolder}/srv' }), `the program ${join(ws, 'srv')} is a file inside the workspace`);
    assert.match(flagged({ transport: 'stdio', command: 'npx', cwd: 'sub', env: { Path: '.:${PATH}' } }), /^it starts in sub, which decides what relative paths, npx and python -m find; env Path /);
    assert.equal(flagged({ transport: 'stdio', command: join(bin, 'python'), args: ['server.js'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GH}', DEBUG: '1' } }), '', 'nothing to flag');
    assert.ok(d({ transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }).endsWith(note), 'the workspace note is always there');
    assert.equal(d({ transport: 'http', url: 'https://h', headers: { 'X-Home': '${userHome}', Authorization: 'Bearer ${env:K}' } }), "http https://h (headers: X-Home='${userHome}'; Authorization='Bearer ${env:K}')");
    // Your own servers keep only the names: a value there may be a secret you wrote in.
    assert.equal(describeSpec({ transport: 'stdio', command: 'x', env: { API_KEY: 'sk-live-123' } }), 'x (env: API_KEY)');
  });

  it("a command under ~/ is the user's home, not the clone's folder named ~; a program the workspace holds is flagged however it is reached", () => {
    const uvx = join(home, '.local', 'bin', 'uvx');
    assert.equal(d({ transport: 'stdio', command: '~/.local/bin/uvx', args: ['mcp-server-git'] }), `~/.local/bin/uvx mcp-server-git (runs ${uvx}) ${note}`);
    // The workspace is the home folder: then ~/… is a file of the workspace, and says so.
    assert.match(flagged({ transport: 'stdio', command: '~/.local/bin/uvx' }, { home: ws }), /the program .*\/ws\/\.local\/bin\/uvx is a file inside the workspace/);
    assert.match(d({ transport: 'stdio', command: '~root/bin/x' }), /cannot start: its command "~root\/bin\/x" names another user's home folder/);
    // PATH's relative entries (".bin", "") are not searched; an absolute entry inside the workspace finds a workspace file, flagged.
    assert.match(d({ transport: 'stdio', command: 'evil' }), /cannot start: its command "evil" was not found in the absolute folders of PATH/);
    assert.match(flagged({ transport: 'stdio', command: 'evil', env: { PATH: '${workspaceFolder}/.bin:/usr/bin' } }), /the program .*\/ws\/\.bin\/evil is a file inside the workspace; env PATH chooses which program runs/);
  });

  it('flags every env key of a workspace server that is not on the short harmless list (deny by default)', () => {
    for (const k of ['OPENSSL_CONF', 'OPENSSL_MODULES', 'PYENV_ROOT', 'GOFLAGS', 'RUSTC_WRAPPER', 'PHPRC', 'DOTNET_STARTUP_HOOKS', 'GCONV_PATH', 'PUPPETEER_DOWNLOAD_BASE_URL', 'SOME_NEW_LOADER', 'db_url']) {
      assert.match(flagged({ transport: 'stdio', command: 'npx', env: { [k]: 'x' } }), new RegExp(`env ${k} (chooses what the program loads|is not one Threadline knows to be harmless)`), k);
    }
    for (const k of ['GITHUB_TOKEN', 'BRAVE_API_KEY', 'DEBUG', 'NO_COLOR', 'GOOGLE_API_KEY']) assert.equal(flagged({ transport: 'stdio', command: 'npx', env: { [k]: 'x' } }), '', k);
  });

  it('escapes control characters: forty newlines in an argument cannot push the env and the CHECK out of view', () => {
    const t = d({ transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory', '\n'.repeat(40)], env: { PATH: '.bin:${PATH}', ['K\u001b[2J']: 'v' } });
    assert.equal(t.split('\n').length, 1, t);
    assert.ok(t.startsWith('[CHECK: env PATH chooses which program runs'), t);
    assert.match(t, /\$'\\n\\n\\n/);
    assert.ok(![...t].some((c) => c.charCodeAt(0) < 0x20), 'no control character is left');
  });

  it("names your allow rules that already cover the server's tools, whichever folder they were written for", () => {
    const allowRules = [
      { rule: 'mcp__db', source: '~/.claude/settings.json' },
      { rule: 'mcp__db__query', source: 'threadline.permissions (user settings)' },
      { rule: 'mcp__dbx', source: 'x' },
      { rule: 'Read', source: 'x' },
    ];
    assert.equal(
      flagged({ transport: 'stdio', command: 'npx' }, { name: 'db', allowRules }),
      'your allow rule mcp__db (~/.claude/settings.json) lets its tools run without asking; your allow rule mcp__db__query (threadline.permissions (user settings)) lets its tools run without asking',
    );
    assert.match(flagged({ transport: 'http', url: 'https://h' }, { name: 'my.db', allowRules: [{ rule: 'mcp__my_db__*', source: 's' }] }), /your allow rule mcp__my_db__\* \(s\)/);
  });
});

describe('${…} expansion', () => {
  const ctx = { env: { HOME: '/home/u', TOKEN: 'secret', EMPTY: '' }, workspaceFolder: '/ws', home: '/home/u' };

  it("expands Claude Code's ${VAR} and ${VAR:-default} and VS Code's variables in every field", async () => {
    const r = await expandSpec(
      { transport: 'stdio', command: '${HOME}/bin/srv', args: ['--root', '${workspaceFolder}', '--port', '${PORT:-8080}', '${EMPTY:-fallback}'], env: { T: '${env:TOKEN}' }, cwd: '${userHome}/x' },
      ctx,
    );
    assert.ok(r.ok);
    assert.deepEqual(r.spec, { transport: 'stdio', command: '/home/u/bin/srv', args: ['--root', '/ws', '--port', '8080', 'fallback'], env: { T: 'secret' }, cwd: '/home/u/x' });
    const h = await expandSpec({ transport: 'http', url: 'https://api/${TOKEN}', headers: { Authorization: 'Bearer ${TOKEN}' } }, ctx);
    assert.ok(h.ok);
    assert.equal(h.spec.headers!.Authorization, 'Bearer secret');
  });

  it('a variable that is not set and has no default keeps the server from starting, and says which', async () => {
    const r = await expandSpec({ transport: 'stdio', command: 'x', env: { A: '${MISSING_ONE}', B: '${env:MISSING_TWO}' } }, ctx);
    assert.equal(r.ok, false);
    assert.match((r as { error: string }).error, /\$\{MISSING_ONE\}, \$\{MISSING_TWO\}, which are not set/);
  });

  it('${input:id} is asked for through the host; without one (the CLI) the server says it needs VS Code', async () => {
    const spec = { transport: 'stdio' as const, command: 'x', env: { K: '${input:api-key}' } };
    assert.deepEqual(inputsUsed(spec), ['api-key']);
    const asked: string[] = [];
    const r = await expandSpec(spec, { ...ctx, input: async (id) => (asked.push(id), 'typed') });
    assert.ok(r.ok);
    assert.equal(r.spec.env!.K, 'typed');
    assert.deepEqual(asked, ['api-key']);
    const cli = await expandSpec(spec, ctx);
    assert.match((cli as { error: string }).error, /only the VS Code extension can ask for/);
    const cancelled = await expandSpec(spec, { ...ctx, input: async () => undefined });
    assert.match((cancelled as { error: string }).error, /no value was given for \$\{input:api-key\}/);
  });
});

describe('where servers are read from, and which entry wins', () => {
  function layout() {
    const home = tmp('tl-home-');
    const cwd = tmp('tl-ws-');
    return { home, cwd };
  }

  it('flag, then local, then project (.mcp.json, then .vscode/mcp.json), then user (the setting, then ~/.claude.json); the winner is taken whole; a project entry never replaces your own server', async () => {
    const { home, cwd } = layout();
    json(join(home, '.claude.json'), {
      mcpServers: { a: { command: 'user-a', env: { FROM_USER: '1' } }, u: { command: 'user-only' } },
      projects: { [cwd]: { mcpServers: { b: { command: 'local-b' } } } },
    });
    json(join(cwd, '.mcp.json'), { mcpServers: { a: { command: 'project-a' }, b: { command: 'project-b' }, c: { command: 'mcpjson-c' } } });
    writeFileSync(join(cwd, '.vscode-placeholder'), '');
    mkdirSync(join(cwd, '.vscode'));
    writeFileSync(join(cwd, '.vscode', 'mcp.json'), '{\n  // VS Code allows comments\n  "servers": { "c": { "command": "vscode-c" }, "v": { "type": "http", "url": "https://v" }, },\n}');
    const flag = join(tmp('tl-flag-'), 'f.json');
    json(flag, { mcpServers: { f: { command: 'flag-f' }, u: { command: 'flag-u' } } });
    const r = await readMcpConfig({ cwd, home, env: {}, flagConfigs: [flag], userSetting: { s: { command: 'setting-s' }, u: { command: 'setting-u' } } });
    const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    // A project entry does not take the name of your own server: yours is kept, the clash is named.
    assert.deepEqual(r.problems, [{ source: '.mcp.json', message: 'server "a" is not used: your own server of that name (~/.claude.json) is kept; rename one of them to use both' }]);
    assert.equal(by.a!.spec.command, 'user-a');
    assert.equal(by.a!.scope, 'user');
    assert.equal(by.b!.spec.command, 'local-b');
    assert.equal(by.b!.scope, 'local');
    assert.equal(by.c!.spec.command, 'mcpjson-c');
    assert.equal(by.v!.source, '.vscode/mcp.json');
    assert.equal(by.f!.scope, 'flag');
    assert.equal(by.u!.spec.command, 'flag-u');
    assert.equal(by.s!.scope, 'user');
  });

  it('names are compared as tools and rules see them: `my.db` and `my_db` (or `a` and `a__b`) are one name in every scope', async () => {
    const { home, cwd } = layout();
    json(join(home, '.claude.json'), { mcpServers: { 'my.db': { command: 'user-db' }, gh: { command: 'user-gh' } } });
    json(join(cwd, '.mcp.json'), { mcpServers: { my_db: { command: 'project-db' }, gh__x: { command: 'project-gh' }, 'io.x/y': { command: 'mcpjson-y' } } });
    mkdirSync(join(cwd, '.vscode'));
    json(join(cwd, '.vscode', 'mcp.json'), { servers: { 'io.x.y': { command: 'vscode-y' }, 'my db': { command: 'vscode-db' } } });
    const r = await readMcpConfig({ cwd, home, env: {}, userSetting: { 'my:db': { command: 'setting-db' } } });
    assert.deepEqual(
      r.servers.map((s) => [s.name, s.scope, s.spec.command]),
      [
        ['io.x/y', 'project', 'mcpjson-y'],
        ['my:db', 'user', 'setting-db'],
        ['gh', 'user', 'user-gh'],
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.source}: ${p.message}`),
      [
        '.mcp.json: server "my_db" is not used: your own server "my:db", whose tools and rules are named alike (threadline.mcpServers) is kept; rename one of them to use both',
        '.mcp.json: server "gh__x" is not used: your own server "gh", whose tools and rules are named alike (~/.claude.json) is kept; rename one of them to use both',
        '.vscode/mcp.json: server "io.x.y" is not used: its tools and rules would be named as those of "io.x/y" (.mcp.json, mcp__io_x_y__…); rename one of them to use both',
        '.vscode/mcp.json: server "my db" is not used: your own server "my:db", whose tools and rules are named alike (threadline.mcpServers) is kept; rename one of them to use both',
        '~/.claude.json: server "my.db" is not used: its tools and rules would be named as those of "my:db" (threadline.mcpServers, mcp__my_db__…); rename one of them to use both',
      ],
    );
  });

  it('a later --mcp-config wins over an earlier one; --strict-mcp-config reads nothing else; inline JSON works', async () => {
    const { home, cwd } = layout();
    json(join(cwd, '.mcp.json'), { mcpServers: { p: { command: 'p' } } });
    const one = join(tmp('tl-flag-'), 'one.json');
    json(one, { mcpServers: { x: { command: 'first' } } });
    const r = await readMcpConfig({ cwd, home, env: {}, flagConfigs: [one, '{"mcpServers":{"x":{"command":"second"}}}'], strict: true });
    assert.deepEqual(r.servers.map((s) => [s.name, s.spec.command]), [['x', 'second']]);
  });

  it('problems are named with their file; a broken winning entry keeps its name and says why; a missing flag file is a flag error', async () => {
    const { home, cwd } = layout();
    writeFileSync(join(cwd, '.mcp.json'), '{ not json');
    json(join(home, '.claude.json'), { mcpServers: { x: { command: 'user-x' } }, projects: { [cwd]: { mcpServers: { x: { type: 'bogus' } } } } });
    const r = await readMcpConfig({ cwd, home, env: {}, flagConfigs: [join(cwd, 'missing.json')] });
    assert.match(JSON.stringify(r.problems), /\.mcp\.json.*not valid JSON/);
    const x = r.servers.find((s) => s.name === 'x')!;
    assert.equal(x.source, '~/.claude.json (this project)');
    assert.match(x.invalid ?? '', /type "bogus"/);
    assert.match(r.flagErrors[0]!, /missing\.json: no such file/);
  });

  it('CLAUDE_CONFIG_DIR moves ~/.claude.json; the local entry is found by the folder\'s real path too; VS Code inputs are collected', async () => {
    const { home, cwd } = layout();
    const dir = tmp('tl-claude-');
    const link = join(tmp('tl-link-'), 'ws');
    symlinkSync(cwd, link);
    json(join(dir, '.claude.json'), { projects: { [cwd]: { mcpServers: { l: { command: 'local' } } } } });
    mkdirSync(join(cwd, '.vscode'));
    json(join(cwd, '.vscode', 'mcp.json'), { inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }], servers: {} });
    const r = await readMcpConfig({ cwd: link, home, env: { CLAUDE_CONFIG_DIR: dir } });
    assert.equal(r.servers[0]?.name, 'l');
    assert.equal(r.servers[0]?.source, `${join(dir, '.claude.json')} (this project)`);
    assert.deepEqual(r.inputs.get('key'), { id: 'key', description: 'API key', password: true });
  });
});
