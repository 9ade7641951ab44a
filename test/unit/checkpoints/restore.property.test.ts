// Any sequence of prompts with Write, Edit, create, delete and rename (the last two by Bash), plus
// other Bash changes; restoring to checkpoint k leaves every path byte for byte as at k, except
// the ones no exact copy from before a Bash command exists of, which are named and left alone.
// Files never touched, .git, and the target of a link outside the workspace stay as they were.
// Bash changes are found both ways: by folder watches and by walking the tree.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { gitPreImages } from '../../../src/checkpoints/git';
import { fc } from '../../support/fastCheck';
import { reportPropertyRuns } from '../../support/propertyReport';
import { openStore, repo, state, tmp, treeHash, write } from './workspace';

const RUNS = Number(process.env.THREADLINE_CHECKPOINT_RUNS ?? 40);

const PATHS = ['f0.txt', 'f1.txt', 'u.txt', 'd/g0.txt', 'd/g1.txt', 'n0.txt', 'link'];
const TEXTS = ['', 'aaaa\n', 'bbbb\n', 'one\ntwo\n', 'one\nTWO\nthree\n', 'été\n', '\0\x01binary'];

type Step = { kind: 'write'; path: number; text: number } | { kind: 'rm'; path: number } | { kind: 'mv'; from: number; to: number } | { kind: 'chmod'; path: number; exec: boolean } | { kind: 'ln'; path: number };
type Op = { kind: 'Write' | 'Edit'; path: number; text: number } | { kind: 'Bash'; steps: Step[] };

const path = fc.nat({ max: PATHS.length - 1 });
const text = fc.nat({ max: TEXTS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), path, text }),
  fc.record({ kind: fc.constant('rm' as const), path }),
  fc.record({ kind: fc.constant('mv' as const), from: path, to: path }),
  fc.record({ kind: fc.constant('chmod' as const), path, exec: fc.boolean() }),
  fc.record({ kind: fc.constant('ln' as const), path }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('Write' as const, 'Edit' as const), path, text }),
  fc.record({ kind: fc.constant('Bash' as const), steps: fc.array(step, { minLength: 1, maxLength: 4 }) }),
);

const kind = (p: string) => {
  try {
    const st = lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isFile() ? (st.size === 0 ? 'empty' : 'file') : 'other';
  } catch {
    return 'absent';
  }
};

function bashStep(ws: string, outsideTarget: string, s: Step): void {
  const at = (i: number) => join(ws, PATHS[i]!);
  const clear = (p: string) => kind(p) === 'link' && unlinkSync(p);
  switch (s.kind) {
    case 'write':
      // Like `sed -i`: a link is replaced, not written through.
      clear(at(s.path));
      write(ws, PATHS[s.path]!, TEXTS[s.text]!);
      return;
    case 'rm':
      if (kind(at(s.path)) !== 'absent') unlinkSync(at(s.path));
      return;
    case 'mv':
      if (s.from === s.to || kind(at(s.from)) === 'absent') return;
      mkdirSync(dirname(at(s.to)), { recursive: true });
      renameSync(at(s.from), at(s.to));
      return;
    case 'chmod':
      if (['file', 'empty'].includes(kind(at(s.path)))) chmodSync(at(s.path), s.exec ? 0o755 : 0o600);
      return;
    case 'ln':
      if (kind(at(s.path)) !== 'absent') unlinkSync(at(s.path));
      mkdirSync(dirname(at(s.path)), { recursive: true });
      symlinkSync(outsideTarget, at(s.path));
      return;
  }
}

describe('restoring code to a checkpoint (property)', () => {
  it(`holds for ${RUNS} generated sessions`, async () => {
    let runs = 0;
    let restoredFiles = 0;
    let refusedFiles = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { maxLength: 4 }), { minLength: 1, maxLength: 5 }), fc.nat(), fc.boolean(), fc.boolean(), async (prompts, pick, trusted, watch) => {
        runs++;
        const outside = tmp('tl-cp-outside-');
        write(outside, 'target.txt', 'outside\n');
        const ws = await repo({ 'f0.txt': 'zero\n', 'f1.txt': 'first\n', 'keep.txt': 'never touched\n' });
        symlinkSync(join(outside, 'target.txt'), join(ws, 'link'));
        write(ws, 'u.txt', 'untracked\n');
        const { store } = await openStore(ws, { watch, ...(trusted ? { git: gitPreImages } : {}) });
        // Whether an exact copy of a path's content exists (the model of what a restore can do).
        const known = new Map(PATHS.map((p) => [p, p === 'u.txt' ? false : p.startsWith('f') ? trusted : true]));
        const snapshots: Array<Map<string, string>> = [];
        const firstChange: Array<Map<string, boolean>> = [];
        const ids: string[] = [];
        const snap = () => new Map(PATHS.map((p) => [p, state(join(ws, p))]));
        for (const ops of prompts) {
          snapshots.push(snap());
          const events = new Map<string, boolean>();
          firstChange.push(events);
          ids.push((await store.begin('prompt')).id);
          for (const o of ops) {
            if (o.kind === 'Bash') {
              const before = snap();
              const kinds = new Map(PATHS.map((p) => [p, kind(join(ws, p))]));
              const w = await store.beforeBash();
              for (const s of o.steps) bashStep(ws, join(outside, 'target.txt'), s);
              await store.afterBash(w);
              const after = snap();
              for (const p of PATHS) {
                if (before.get(p) === after.get(p)) continue;
                const k = kinds.get(p)!;
                if (!events.has(p)) events.set(p, k === 'absent' || k === 'link' || k === 'empty' || known.get(p)!);
                known.set(p, true);
              }
              continue;
            }
            const p = PATHS[o.path]!;
            const abs = join(ws, p);
            // The tools write through a link; kept out here, where the targets must not change.
            if (kind(abs) === 'link' || (o.kind === 'Edit' && kind(abs) === 'absent')) continue;
            await store.track(abs, o.kind, async () => write(ws, p, TEXTS[o.text]!));
            if (!events.has(p)) events.set(p, true);
            known.set(p, true);
          }
        }
        const k = pick % prompts.length;
        const atK = snapshots[k]!;
        const beforeRestore = snap();
        const gitTree = treeHash(join(ws, '.git'));
        const outsideTree = treeHash(outside);
        const plan = await store.plan(ids[k]!);
        assert.deepEqual(plan.files.filter((f) => f.conflict).map((f) => f.rel), [], 'nobody else edited: no conflicts');
        const result = await store.restore(plan);
        const now = snap();
        for (const p of PATHS) {
          // The first change since k decides: an exact copy from before it, or none.
          const first = firstChange.slice(k).find((e) => e.has(p))?.get(p);
          if (first === undefined || first) assert.equal(now.get(p), atK.get(p), `${p} is as it was at checkpoint ${k}`);
          else {
            assert.equal(now.get(p), beforeRestore.get(p), `${p} (no copy from before a Bash change) is left alone`);
            assert.ok(plan.refused.some((r) => r.rel === p), `${p} is named as not restored`);
          }
        }
        for (const f of result.restored) assert.equal(now.get(f.rel), atK.get(f.rel), `${f.rel} is claimed restored, so it is`);
        for (const r of plan.refused) assert.equal(now.get(r.rel), beforeRestore.get(r.rel), `${r.rel} was refused, so it is unchanged`);
        assert.equal(state(join(ws, 'keep.txt')), `file:644:${Buffer.from('never touched\n').toString('base64')}`);
        assert.equal(treeHash(join(ws, '.git')), gitTree, '.git is unchanged');
        assert.equal(treeHash(outside), outsideTree, 'the link target outside is unchanged');
        restoredFiles += result.restored.length;
        refusedFiles += plan.refused.length;
        // Redo: back to how it was before the restore.
        if (result.checkpoint) {
          await store.restore(await store.plan(result.checkpoint.id));
          assert.deepEqual(snap(), beforeRestore, 'Redo puts back what the restore replaced');
        }
        store.dispose();
      }),
      { numRuns: RUNS },
    );
    assert.equal(runs, RUNS);
    assert.ok(restoredFiles > RUNS, `the runs restored files (${restoredFiles}), not only empty plans`);
    assert.ok(refusedFiles > 0, 'some runs met a Bash change that cannot be restored');
    reportPropertyRuns('checkpoint restore', runs);
  });
});
