// Long setup steps that a person can follow: each says what it does and how big it is, prints a
// heartbeat while it runs (elapsed time, the size of what it is filling, the last thing its log
// said), and on failure names the step, shows the last lines of its log and where the whole log is.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HEARTBEAT_MS = Number(process.env.THREADLINE_HEARTBEAT_MS || 5000);

export function say(msg) {
  console.log(`[setup] ${msg}`);
}

export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Size of a folder in MB, by `du` (cheap enough every few seconds, and honest). */
export function folderMb(dir) {
  if (!existsSync(dir)) return 0;
  const r = spawnSync('du', ['-sm', dir], { encoding: 'utf8' });
  return Number.parseInt(r.stdout, 10) || 0;
}

export class StepError extends Error {
  constructor(step, detail, logFile) {
    super(`${step} failed: ${detail}\nFull log: ${logFile}`);
    this.step = step;
    this.logFile = logFile;
  }
}

function lastLines(text, n) {
  return text.split('\n').map((l) => l.replace(/\r/g, '').trimEnd()).filter(Boolean).slice(-n);
}

/**
 * Runs one command as a named step. Its output goes to `logDir/<slug>.log`; the terminal gets a
 * heartbeat every few seconds. `watch` is a folder whose growth is shown as progress.
 * @returns {Promise<{ ms: number, log: string }>}
 */
export function runStep({ name, slug, cmd, args, cwd, env, watch, logDir }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${slug}.log`);
  const out = createWriteStream(logFile);
  out.write(`$ ${cmd} ${args.join(' ')}\n(cwd ${cwd ?? process.cwd()})\n\n`);
  const t0 = Date.now();
  let last = '';
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      reject(new StepError(name, err.message, logFile));
      return;
    }
    const onData = (b) => {
      out.write(b);
      const lines = lastLines(b.toString(), 1);
      if (lines.length) last = lines[0].slice(0, 100);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const beat = setInterval(() => {
      const parts = [`${name}: ${seconds(Date.now() - t0)}`];
      if (watch) parts.push(`${folderMb(watch)} MB so far`);
      if (last) parts.push(`last: ${last}`);
      say(`  … ${parts.join(' · ')}`);
    }, HEARTBEAT_MS);
    const finish = (fn) => {
      clearInterval(beat);
      out.end(fn);
    };
    child.once('error', (err) => finish(() => reject(new StepError(name, err.message, logFile))));
    child.once('close', (code, signal) => {
      const ms = Date.now() - t0;
      finish(() => {
        if (code === 0) {
          resolve({ ms, log: logFile });
          return;
        }
        const tail = lastLines(readFileSync(logFile, 'utf8'), 15).map((l) => `    ${l}`).join('\n');
        reject(new StepError(name, `exit ${code ?? signal} after ${seconds(ms)}. Last lines of its log:\n${tail}`, logFile));
      });
    });
  });
}
