// kill -9 of a process in the middle of a restore, at points spread over the restore's whole
// duration: after the store is opened again, every file is as before the restore or every file
// as restored, never a mix, and no temp file is left in the workspace.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gitPreImages } from '../../../src/checkpoints/git';
import { bundle } from '../../support/cliBundle';
import { openStore, repo, state, write } from './workspace';

const KILLS = Number(process.env.THREADLINE_KILL_RUNS ?? 12);
const CHILD = bundle(join(import.meta.dirname, 'restore-child.mts'));
const FILES = 100;

async function runChild(ws: string, dir: string, id: string, killAfterMs: number | undefined): Promise<{ killed: boolean; ms?: number }> {
  const script = await CHILD;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ws, dir, id], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (killAfterMs !== undefined && out.startsWith('go\n') && !child.killed) {
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        killAfterMs = undefined;
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const done = /done (\d+)/.exec(out);
      if (signal === 'SIGKILL') resolve({ killed: !done });
      else if (code === 0 && done) resolve({ killed: false, ms: Number(done[1]) });
      else reject(new Error(`the restore child failed (${code}): ${err}`));
    });
  });
}

const leftovers = (ws: string) => readdirSync(ws, { recursive: true, encoding: 'utf8' }).filter((n) => /\.tl-(restore|backup)-/.test(n));

describe('a restore killed with kill -9', () => {
  it(`is never half done (${KILLS} kills spread over the restore)`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) files[`src/f${i}.txt`] = `original ${i}\n`.repeat(50);
    const ws = await repo(files);
    const { store, dir } = await openStore(ws, { git: gitPreImages });
    const cp = await store.begin('change everything');
    const all = [...Object.keys(files), ...Array.from({ length: 20 }, (_, i) => `new/n${i}.txt`)];
    for (let i = 0; i < FILES - 20; i++) await store.track(join(ws, `src/f${i}.txt`), 'Edit', async () => writeFileSync(join(ws, `src/f${i}.txt`), `agent ${i}\n`));
    for (let i = 0; i < 20; i++) await store.track(join(ws, `new/n${i}.txt`), 'Write', async () => write(ws, `new/n${i}.txt`, `created ${i}\n`));
    const w = await store.beforeBash();
    for (let i = FILES - 20; i < FILES; i++) unlinkSync(join(ws, `src/f${i}.txt`));
    await store.afterBash(w);
    const snap = () => all.map((p) => state(join(ws, p)));
    const before = snap();

    // One restore to the end, to know how long a restore takes here; then back (Redo).
    const full = await runChild(ws, dir, cp.id, undefined);
    const restored = snap();
    assert.notDeepEqual(restored, before);
    const redo = async () => {
      const { store: s } = await openStore(ws, { git: gitPreImages }, dir);
      const newest = s.checkpoints.at(-1)!;
      assert.equal(newest.kind, 'restore');
      await s.restore(await s.plan(newest.id));
      assert.deepEqual(snap(), before, 'Redo brings the state before the restore back');
    };
    await redo();

    const outcomes = { old: 0, new: 0, rolledBack: 0, completed: 0 };
    const attempt = async (k: number, at: number) => {
      await runChild(ws, dir, cp.id, at);
      const reopened = await openStore(ws, { git: gitPreImages }, dir);
      if (reopened.recovered?.outcome === 'rolled-back') outcomes.rolledBack++;
      if (reopened.recovered?.outcome === 'completed') outcomes.completed++;
      const now = snap();
      assert.deepEqual(leftovers(ws), [], 'no temp file left');
      if (JSON.stringify(now) === JSON.stringify(before)) outcomes.old++;
      else {
        assert.deepEqual(now, restored, `kill ${k} at ${at} ms: every file as before, or every file as restored`);
        outcomes.new++;
        await redo();
      }
    };
    let span = full.ms! * 1.2;
    for (let k = 0; k < KILLS; k++) await attempt(k, Math.round(((k + 0.5) / KILLS) * span));
    // The kills are timed against one restore measured beforehand; on a loaded machine the killed
    // runs can take several times as long, and every kill then lands before the end. More kills,
    // over a longer span while none has seen the end, until the sweep has covered the restore.
    for (let extra = 0; extra < 24 && (outcomes.new === 0 || outcomes.old === 0 || outcomes.rolledBack === 0); extra++) {
      if (outcomes.new === 0) span *= 1.5;
      await attempt(KILLS + extra, Math.round((((extra * 7) % 10) + 0.5) / 10 * span));
    }
    console.log(`restore of ${all.length} files: ${full.ms} ms; kills: ${JSON.stringify(outcomes)}`);
    assert.ok(outcomes.rolledBack > 0, `some kills landed inside a restore and were rolled back: ${JSON.stringify(outcomes)}`);
    assert.ok(outcomes.new > 0 && outcomes.old > 0, `both ends were seen: ${JSON.stringify(outcomes)}`);
  });
});
