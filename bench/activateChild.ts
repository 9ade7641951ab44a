// One cold activation in a fresh process, for activate.bench.ts: prints its figures as one JSON line.
import { activateOnce } from './activate.bench';

const root = process.argv[2] ?? process.cwd();
activateOnce(root)
  .then((r) => {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    // The activated extension keeps timers; the figures are out, so the process may end.
    process.exit(0);
  })
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
