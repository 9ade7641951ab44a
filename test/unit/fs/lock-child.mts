// Child process for the lock tests: takes the lock, logs when it enters and leaves, holds it
// for a while in between. argv: lockPath logPath holdMs staleMs [die]
import { appendFileSync } from 'node:fs';
import { withFileLock } from '../../../src/fs/lock';

const [lockPath, logPath, holdText, staleText, mode] = process.argv.slice(2) as [string, string, string, string, string | undefined];
const holdMs = Number(holdText);
const log = (what: string) => appendFileSync(logPath, `${what} ${process.pid} ${Date.now()}\n`);

process.send?.('ready');
await withFileLock(
  lockPath,
  async () => {
    log('enter');
    process.send?.('holding');
    // 'die': crash while holding, as a killed editor window would.
    if (mode === 'die') process.kill(process.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, holdMs));
    log('leave');
  },
  { staleMs: Number(staleText), timeoutMs: 60_000 },
);
process.exit(0);
