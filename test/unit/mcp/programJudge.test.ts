// A workspace server's approval must raise a CHECK whenever the clone may choose the program:
// also when the command is taken from a variable, goes through /proc or /dev/fd (the started
// process's own, not the judging one's), or is a wrapper (env, nice, sh -c…) that starts
// another program or sets variables in its arguments.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { describeSpec, type DescribeContext } from '../../../src/mcp/config/parse';
import type { McpServerSpec } from '../../../src/mcp/config/types';

const root = mkdtempSync(join(tmpdir(), 'tl-judge-'));
const home = join(root, 'home');
const ws = join(root, 'ws');
const bin = join(root, 'bin');
for (const d of [home, bin, join(ws, '.bin'), join(ws, 'sub')]) mkdirSync(d, { recursive: true });
const exe = (f: string) => writeFileSync(f, '#!/bin/sh\n', { mode: 0o755 });
for (const n of ['npx', 'env', 'nice', 'timeout', 'sh', 'bash', 'busybox', 'sudo', 'valgrind', 'node']) exe(join(bin, n));
for (const f of [join(ws, '.bin', 'npx'), join(ws, 'sub', 'npx'), join(ws, 'srv.sh')]) exe(f);
symlinkSync('/proc/self/cwd', join(ws, 'here'));
// The judging process stands elsewhere, as the VS Code extension host does.
process.chdir(home);

const ctx = (extra: Partial<DescribeContext> = {}): DescribeContext => ({ fromWorkspace: true, name: 'srv', home, workspace: ws, startDir: ws, env: { PATH: bin }, ...extra });
const flagged = (spec: Omit<McpServerSpec, 'transport'>, extra?: Partial<DescribeContext>) => /^\[CHECK: (.*?)\] /.exec(describeSpec({ transport: 'stdio', ...spec }, ctx(extra)))?.[1] ?? '';
const inWs = (p: string) => `the program ${join(ws, p)} is a file inside the workspace`;

describe('a command whose target is not known before it runs is a CHECK', () => {
  it('a command taken from a variable (its value is the environment\'s, or a default the clone wrote)', () => {
    assert.equal(flagged({ command: '${PWD}/.bin/npx' }), "its command '${PWD}/.bin/npx' takes in $PWD, so where it leads is not known before it runs");
    assert.match(flagged({ command: '${NOPE:-.bin/npx}' }), /its command '\$\{NOPE:-\.bin\/npx\}' takes in \$NOPE, so where it leads is not known/);
    assert.match(flagged({ command: '${env:BIN}' }), /takes in \$BIN/);
    assert.match(flagged({ command: '${input:prog}' }), /takes in a value asked for when it starts/);
    assert.match(flagged({ command: './.bin/npx', cwd: '${PWD}' }), /its command \.\/\.bin\/npx is taken from its folder '\$\{PWD\}', which takes in \$PWD/);
    // Exactly known values still resolve, and a file of the workspace says so.
    assert.equal(flagged({ command: '${workspaceFolder}/.bin/npx' }), inWs('.bin/npx'));
    assert.equal(flagged({ command: '${HOME}/bin/x' }, { fromWorkspace: false }), '', "your own server's command is yours");
  });

  it('a path through /proc or /dev/fd, written so or by a link of the workspace, judged for the server, not the judging process', () => {
    for (const c of ['/proc/self/cwd/.bin/npx', '/proc/thread-self/cwd/.bin/npx', '/dev/fd/../cwd/.bin/npx', `/proc/${process.pid}/cwd/.bin/npx`, './here/.bin/npx']) {
      assert.match(flagged({ command: c }), /goes through \/proc or \/dev\/fd, so where it leads is not known before it runs/, c);
    }
    assert.match(flagged({ command: './.bin/npx', cwd: '/proc/self/cwd' }), /goes through \/proc/);
    assert.equal(flagged({ command: join(bin, 'node') }), '', 'an ordinary absolute program raises nothing');
  });
});

describe('a wrapper that starts another program is a CHECK naming it, judged by the same rule', () => {
  it("env: its NAME=VALUE, -u, -C and -S go through the env-key CHECK, and the program it finds (relative PATH entries too) through the workspace's", () => {
    const f = flagged({ command: 'env', args: ['PATH=.bin:/usr/bin:/bin', 'NODE_OPTIONS=--require ./.x.js', 'npx', '-y', '@modelcontextprotocol/server-memory'] });
    assert.equal(f, `it starts the program npx through env; env PATH chooses which program runs; env NODE_OPTIONS chooses what the program loads; ${inWs('.bin/npx')}`);
    const unset = flagged({ command: 'env', args: ['-u', 'LD_PRELOAD', '-C', 'sub', 'PATH=.', 'npx'] });
    for (const part of ['env LD_PRELOAD chooses what the program loads', 'env PATH chooses which program runs', 'it changes to sub through env', inWs('sub/npx')]) assert.ok(unset.includes(part), `${part} in ${unset}`);
    assert.match(flagged({ command: 'env', args: ['-S', 'PATH=.bin npx -y x'] }), /it starts the program npx through env; env PATH chooses which program runs; the program .*\.bin\/npx is a file inside the workspace/);
    assert.match(flagged({ command: 'env', args: ['--split-string=NODE_OPTIONS="--require ./x" npx'] }), /it runs the command line .* through env, whose programs Threadline does not look up/);
    assert.match(flagged({ command: 'env', args: ['--chdir=sub', '--unset=GIT_DIR', 'npx'] }), /env GIT_DIR chooses what the program loads; it changes to sub/);
    assert.match(flagged({ command: 'env', args: ['${NOPE:-.bin/npx}'] }), /what env starts is not resolved here/);
  });

  it('shells, nice, timeout, sudo, busybox, nested wrappers and ones whose options are not read', () => {
    assert.match(flagged({ command: 'sh', args: ['-c', 'PATH=.bin npx x'] }), /^it runs the command line 'PATH=\.bin npx x' through sh, whose programs Threadline does not look up/);
    assert.match(flagged({ command: 'bash', args: ['-lc', 'npx'] }), /through bash, whose programs/);
    assert.match(flagged({ command: 'bash', args: ['srv.sh'] }), new RegExp(`it starts the script srv.sh through bash; the program ${join(ws, 'srv.sh')} is a file`));
    assert.equal(flagged({ command: 'nice', args: ['-n', '5', './.bin/npx'] }), `it starts the program ./.bin/npx through nice; ${inWs('.bin/npx')}`);
    assert.match(flagged({ command: 'timeout', args: ['-k', '5', '60', 'env', 'PATH=.bin', 'npx'] }), /starts the program env through timeout; it starts the program npx through env; env PATH chooses which program runs; the program .*\.bin\/npx is a file inside/);
    assert.match(flagged({ command: 'sudo', args: ['-u', 'me', 'LD_PRELOAD=./x.so', './.bin/npx'] }), /starts the program \.\/\.bin\/npx through sudo; env LD_PRELOAD chooses what the program loads; the program .* is a file inside the workspace/);
    assert.match(flagged({ command: 'busybox', args: ['sh', '-c', 'npx'] }), /through busybox sh, whose programs Threadline does not look up/);
    assert.match(flagged({ command: 'valgrind', args: ['--tool', 'none', 'npx'] }), /through valgrind, which Threadline cannot name from its arguments/);
    assert.match(flagged({ command: 'npx', args: ['-c', './.bin/npx'] }), /it runs the command line \.\/\.bin\/npx through npx/);
    assert.equal(flagged({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }), '', 'npx running a package is no wrapper');
    assert.equal(flagged({ command: 'env', args: ['PATH=.bin', 'npx'] }, { fromWorkspace: false }), '', "your own server's wrapper is yours");
  });
});

// Pass 22 (M7, M8): a package runner reads its configuration from the folder it starts in
// (`.npmrc`'s node-options and script-shell, `bunfig.toml`, `uv.toml`), and a runtime's
// `--env-file` sets variables from a file: the clone writes both, and neither is in the command.
describe('files a workspace server reads to choose what it runs are a CHECK', () => {
  const pkg = join(root, 'pkgws');
  mkdirSync(join(pkg, 'deep'), { recursive: true });
  for (const n of ['uvx', 'bunx', 'deno', 'bun', 'npm']) exe(join(bin, n));
  const c = (extra: Partial<DescribeContext> = {}) => ({ workspace: pkg, startDir: pkg, ...extra });

  it("a package runner's configuration in its start folder or a folder above it in the workspace", () => {
    assert.equal(flagged({ command: 'npx', args: ['-y', 'x'] }, c()), '', 'no such file: nothing to say');
    writeFileSync(join(pkg, '.npmrc'), 'node-options=--require ./.x.js\n');
    assert.match(flagged({ command: 'npx', args: ['-y', 'x'] }, c()), /npx reads .*\.npmrc/);
    assert.match(flagged({ command: 'npx', args: ['-y', 'x'] }, c({ startDir: join(pkg, 'deep') })), /npx reads .*\.npmrc/);
    assert.match(flagged({ command: 'env', args: ['npx', '-y', 'x'] }, c()), /npx reads .*\.npmrc/, 'behind a wrapper too');
    assert.equal(flagged({ command: 'npx', args: ['-y', 'x'] }, c({ fromWorkspace: false })), '', "your own server's files are yours");
    writeFileSync(join(pkg, 'uv.toml'), '');
    assert.match(flagged({ command: 'uvx', args: ['srv'] }, c()), /uvx reads .*uv\.toml/);
    mkdirSync(join(pkg, 'node_modules', '.bin'), { recursive: true });
    assert.match(flagged({ command: 'npx', args: ['x'] }, c()), /node_modules/);
  });

  it('a folder opened inside a clone: the runner reads the clone\'s files above it too (pass 26, M10)', () => {
    const sub = join(pkg, 'opened');
    mkdirSync(sub, { recursive: true });
    assert.match(flagged({ command: 'npx', args: ['-y', 'x'] }, { workspace: sub, startDir: sub }), /npx reads .*pkgws\/\.npmrc/);
  });

  it('node preloading a module by name resolves it from the workspace (pass 26, M9)', () => {
    assert.match(flagged({ command: 'node', args: ['--require', 'dotenv/config', '/srv/server.js'] }, c()), /node reads .*node_modules/);
    assert.match(flagged({ command: 'node', args: ['-r', 'tsx', '/srv/server.js'] }, c()), /node reads .*node_modules/);
    assert.equal(flagged({ command: 'node', args: ['/srv/server.js'] }, c()), '', 'a script by its full path resolves its own modules');
  });

  it('an option that loads variables or configuration from a file', () => {
    for (const args of [['--env-file=.env', 'srv.js'], ['--env-file', '.env', 'srv.js'], ['--env-file-if-exists=.env', 'srv.js']]) {
      assert.match(flagged({ command: 'node', args }), /--env-file.* loads variables from a file/, args.join(' '));
    }
    assert.match(flagged({ command: 'deno', args: ['run', '--env-file=.env', 'srv.ts'] }), /loads variables from a file/);
    assert.match(flagged({ command: 'npx', args: ['--userconfig', 'x.rc', 'x'] }), /--userconfig/);
  });
});
