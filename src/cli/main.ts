import { runCli } from './cli';

// The first Ctrl+C stops the agent cleanly (the result still prints, exit code 1); a second
// one exits at once.
const stop = new AbortController();
process.on('SIGINT', () => {
  if (stop.signal.aborted) process.exit(130);
  stop.abort();
});

void runCli(process.argv.slice(2), { signal: stop.signal }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`threadline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
