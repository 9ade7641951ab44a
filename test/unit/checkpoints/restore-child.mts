// Child process for the kill test: opens the store, plans a restore, says "go", restores, says "done".
import { CheckpointStore } from '../../../src/checkpoints/store';
import { gitPreImages } from '../../../src/checkpoints/git';

const [workspace, dir, id] = process.argv.slice(2) as [string, string, string];
void (async () => {
  const { store } = await CheckpointStore.open({ dir, workspace, git: gitPreImages });
  const plan = await store.plan(id);
  process.stdout.write('go\n');
  const t0 = performance.now();
  await store.restore(plan);
  process.stdout.write(`done ${Math.round(performance.now() - t0)}\n`);
})();
