// Starts code-server (real VS Code in the browser) with the packaged Threadline installed.
// Shared by `npm start` and the end-to-end tests, so what a developer opens is what the tests drive.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cleanEnv } from './childEnv.mjs';
import { ensureE2eToolchain } from './e2eSetup.mjs';

export const ROOT = resolve(import.meta.dirname, '..');
export const VSIX = join(ROOT, 'dist', 'threadline.vsix');

// Settings the editor starts with: a trusted folder (trust is tested on its own), and none of
// VS Code's own chat or welcome surfaces competing for the screen.
export const BASE_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
};

// Tests script the stand-in's replies turn by turn; background memory requests would take
// replies meant for the conversation. Tests that cover memory turn these back on.
export const TEST_SETTINGS = { 'threadline.autoMemory': false, 'threadline.sessionMemory': false };

export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** A small git repository to open, so the workspace looks like a user's. */
export function makeSampleWorkspace(dir) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# sample\n\nA tiny project for trying Threadline.\n');
  writeFileSync(join(dir, 'src', 'greet.js'), 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n');
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Sample', '-c', 'user.email=sample@example.invalid', 'add', '.');
  git('-c', 'user.name=Sample', '-c', 'user.email=sample@example.invalid', 'commit', '-q', '-m', 'Initial commit');
  return dir;
}

async function waitForHttp(url, child, logTail, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${logTail()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer on ${url} within ${timeoutMs} ms:\n${logTail()}`);
}

/**
 * Installs the vsix into a fresh extensions dir and starts code-server on `workspace`.
 * Returns { url, port, pid, dirs, stop, env } — `stop` kills the whole process group. `workspaceTrust`
 * keeps VS Code's Workspace Trust on (the folder opens in Restricted Mode until trusted).
 */
export async function startCodeServer({ workspace, settings = {}, env = {}, vsix = VSIX, dirs: given, port: fixedPort, isolate = true, vscodeOptions = [], workspaceTrust = false } = {}) {
  const tools = await ensureE2eToolchain();
  const base = given?.base ?? mkdtempSync(join(tmpdir(), 'threadline-e2e-'));
  const dirs = given ?? {
    base,
    userData: join(base, 'user-data'),
    extensions: join(base, 'extensions'),
    home: join(base, 'home'),
  };
  if (!given) {
    mkdirSync(join(dirs.userData, 'User'), { recursive: true });
    mkdirSync(dirs.extensions, { recursive: true });
    mkdirSync(dirs.home, { recursive: true });
    writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...(isolate ? TEST_SETTINGS : {}), ...settings }, null, 2));
  }
  const childEnv = cleanEnv({
    PATH: `${tools.nodeBin}:${cleanEnv().PATH}`,
    // In a test, the user's ~/.claude, global git config and API key must not leak in.
    ...(isolate ? { HOME: dirs.home, ANTHROPIC_API_KEY: '' } : {}),
    ...env,
  });
  if (!given || given.install) {
    execFileSync(tools.codeServer, ['--install-extension', vsix, '--force', '--extensions-dir', dirs.extensions, '--user-data-dir', dirs.userData], {
      env: childEnv,
      stdio: 'pipe',
    });
  }
  const port = fixedPort ?? (await freePort());
  let log = '';
  const child = spawn(
    tools.codeServer,
    [
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      // Workspace Trust is off unless a test is about Restricted Mode.
      ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--user-data-dir', dirs.userData,
      '--extensions-dir', dirs.extensions,
      ...vscodeOptions.flatMap((o) => ['--vscode-option', o]),
      workspace,
    ],
    { env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const collect = (b) => {
    log = (log + b.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(t);
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, () => log);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, port, pid: child.pid, dirs, stop, log: () => log, tools };
}

