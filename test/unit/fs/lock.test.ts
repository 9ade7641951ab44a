import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { removeIfStale } from '../../../src/fs/lock';

const child = join(import.meta.dirname, 'lock-child.mts');
const tmp = () => mkdtempSync(join(tmpdir(), 'tl-lock-'));

function start(args: string[]): ChildProcess {
  return fork(child, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

const said = (p: ChildProcess, what: string) => new Promise<void>((resolve) => p.on('message', (m) => m === what && resolve()));
const exited = (p: ChildProcess) => new Promise<number | null>((resolve) => (p.exitCode !== null ? resolve(p.exitCode) : p.once('exit', (code) => resolve(code))));

/** Reads the enter/leave log and fails if two processes were ever inside at once. */
function assertOneAtATime(logPath: string, ignorePids: ReadonlySet<number> = new Set()): number {
  const lines = readFileSync(logPath, 'utf8').trim().split('\n').map((l) => l.split(' '));
  let holder: string | undefined;
  let entries = 0;
  for (const [what, pid] of lines) {
    if (ignorePids.has(Number(pid))) continue;
    if (what === 'enter') {
      assert.equal(holder, undefined, `process ${pid} took the lock while ${holder} held it:\n${readFileSync(logPath, 'utf8')}`);
      holder = pid;
      entries++;
    } else {
      assert.equal(holder, pid);
      holder = undefined;
    }
  }
  return entries;
}

describe('withFileLock across processes', () => {
  it('a holder that works longer than the stale limit keeps its lock: a waiter never breaks a live lock', async () => {
    const dir = tmp();
    const lock = join(dir, 'index.json.lock');
    const log = join(dir, 'log');
    const a = start([lock, log, '3500', '2000']);
    await said(a, 'holding');
    const b = start([lock, log, '50', '2000']);
    assert.deepEqual(await Promise.all([exited(a), exited(b)]), [0, 0]);
    assert.equal(assertOneAtATime(log), 2);
  });

  it('a lock left by a crashed holder is taken over, by one waiter at a time', async () => {
    const dir = tmp();
    const lock = join(dir, 'index.json.lock');
    const log = join(dir, 'log');
    const dead = start([lock, log, '0', '2000', 'die']);
    await exited(dead);
    const racers = Array.from({ length: 5 }, () => start([lock, log, '150', '2000']));
    assert.deepEqual(await Promise.all(racers.map(exited)), [0, 0, 0, 0, 0]);
    assert.equal(assertOneAtATime(log, new Set([dead.pid!])), 5);
  });
});

describe('taking over a stale lock', () => {
  const takeOver = (path: string, staleMs: number) => new Promise<string>((resolve) => removeIfStale(path, staleMs, (err) => resolve(err ? String(err.code) : 'removed')));

  it('never removes a lock that was taken again since the waiter saw it stale', async () => {
    // The waiter saw a stale lock; before its removal ran, another process removed that lock
    // and took a fresh one (proper-lockfile's own rmdir would remove it: two holders).
    const lock = join(tmp(), 'index.json.lock');
    mkdirSync(lock);
    assert.equal(await takeOver(lock, 2000), 'ELOCKED');
    assert.ok(existsSync(lock), 'the fresh lock stays');
    const old = new Date(Date.now() - 5000);
    utimesSync(lock, old, old);
    assert.equal(await takeOver(lock, 2000), 'removed');
    assert.ok(!existsSync(lock));
  });

  it('lets one waiter at a time take over, and clears a guard left by a crash', async () => {
    const lock = join(tmp(), 'index.json.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - 5000);
    utimesSync(lock, old, old);
    mkdirSync(`${lock}.reclaim`);
    assert.equal(await takeOver(lock, 2000), 'ELOCKED', 'another waiter is taking it over');
    assert.ok(existsSync(lock));
    utimesSync(`${lock}.reclaim`, old, old);
    assert.equal(await takeOver(lock, 2000), 'ELOCKED', 'the crashed guard is cleared; the next try proceeds');
    assert.equal(await takeOver(lock, 2000), 'removed');
  });
});
