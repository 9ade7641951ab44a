// The README's two commands, tried the way a new user tries them: a fresh clone of this repository
// in a temporary folder, an empty toolchain cache and an empty npm cache, then
//   1. the start command, until the address it prints answers HTTP 200 and the Threadline view
//      opens in Chromium; then it is stopped with Ctrl+C and must exit cleanly;
//   2. the test command, which must pass.
// The commands are read from the README's "Two commands" block, so this follows the README.
// Fails with the step that broke. `--keep` leaves the temporary folder for a look afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv } from './childEnv.mjs';
import { freePort } from './codeServer.mjs';
import { readmeCommands } from './readmeCommands.mjs';
import { seconds } from './step.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');

function say(msg) {
  console.log(`[readme] ${msg}`);
}

class StepFailed extends Error {}

async function step(name, fn) {
  const t0 = Date.now();
  say(`▶ ${name}`);
  try {
    const r = await fn();
    say(`✔ ${name} (${seconds(Date.now() - t0)})`);
    return r;
  } catch (err) {
    throw new StepFailed(`✘ ${name} failed after ${seconds(Date.now() - t0)}: ${err.message}`);
  }
}

function tail(text, n = 25) {
  return text.split('\n').slice(-n).join('\n');
}

async function startAndProbe(clone, command, env) {
  const port = await freePort();
  let out = '';
  const child = spawn('sh', ['-c', command], { cwd: clone, env: { ...env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (b) => {
    const s = b.toString();
    out += s;
    // The setup steps' own progress is what a user sees; pass it through.
    for (const line of s.split('\n')) if (/^\[(setup|start)\]/.test(line)) console.log(`    ${line}`);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  try {
    const url = await new Promise((res, rej) => {
      const t = setInterval(() => {
        const m = /(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(out);
        if (m) {
          clearInterval(t);
          res(m[1]);
        }
      }, 250);
      void exited.then(({ code }) => {
        clearInterval(t);
        rej(new Error(`the start command exited (${code}) before printing an address:\n${tail(out)}`));
      });
    });
    if (!/Set API Key/.test(out.slice(0, out.indexOf(url)))) throw new Error('no hint about the API key was printed before the address');
    const r = await fetch(url);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    await openThreadlineView(url);
    say(`  ${url} answered 200 and the Threadline view opened`);
  } finally {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }, 20_000);
  const { code, signal } = await exited;
  clearTimeout(timer);
  // Ctrl+C reaches the whole foreground group, as in a terminal: the shell and npm end by the
  // signal (or 130); what matters is that it ended in time and left no editor running.
  if (signal === 'SIGKILL') throw new Error(`the start command did not stop within 20 s of Ctrl+C:\n${tail(out)}`);
  const left = spawnSync('pgrep', ['-f', clone], { encoding: 'utf8' }).stdout.trim();
  if (left) throw new Error(`processes of the start command outlived Ctrl+C (exit ${code ?? signal}): ${left.replace(/\n/g, ' ')}`);
}

async function openThreadlineView(url) {
  const { launchBrowser, openWorkbench } = await import('../test/e2e/harness.mjs');
  const browser = await launchBrowser({ chromium: '/usr/bin/chromium' });
  try {
    const wb = await openWorkbench(browser, url);
    await wb.openThreadline();
    // The empty chat must lead somewhere too: without a key it says how to give one.
    const empty = await wb.chatFrame().locator('[data-testid="empty-state"]').innerText({ timeout: 30_000 });
    if (!/ANTHROPIC_API_KEY/.test(empty) || !/Set API Key/.test(empty)) throw new Error(`the empty chat does not say how to give a key: ${JSON.stringify(empty)}`);
  } finally {
    await browser.close();
  }
}

function run(clone, command, env) {
  return new Promise((res, rej) => {
    const child = spawn('sh', ['-c', command], { cwd: clone, env, stdio: 'inherit' });
    child.once('exit', (code, signal) => (code === 0 ? res() : rej(new Error(`\`${command}\` exited ${code ?? signal}`))));
  });
}

async function main() {
  const t0 = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'threadline-readme-'));
  const clone = join(work, 'threadline');
  // No npm variables of whoever ran us, an empty toolchain cache and an empty npm cache: a new machine.
  const env = cleanEnv({ THREADLINE_CACHE: join(work, 'toolchain-cache'), npm_config_cache: join(work, 'npm-cache'), ANTHROPIC_API_KEY: undefined });
  let failed = false;
  try {
    const { start, test } = readmeCommands(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    say(`clone into ${clone}; empty caches; commands from README.md: \`${start}\`, then \`${test}\``);
    await step('git clone', async () => {
      const r = spawnSync('git', ['clone', '-q', ROOT, clone], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
    });
    const started = Date.now();
    await step(`${start} (first run: installs the toolchain)`, () => startAndProbe(clone, start, env));
    say(`first start, including the toolchain's cold install: ${seconds(Date.now() - started)}`);
    await step(test, () => run(clone, test, env));
  } catch (err) {
    failed = true;
    console.error(`\n[readme] ${err.message}`);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true, maxRetries: 3 });
    else say(`kept ${work}`);
  }
  say(`${failed ? 'FAILED' : 'passed'} in ${seconds(Date.now() - t0)}`);
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
