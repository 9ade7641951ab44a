import { guardAgentProcess } from '../base/agentProcess';
import { killProcessGroups } from '../base/processGroups';
import { settleGrantingWatches } from '../tools/settingsGuard';
import { setUnexpectedErrorHandler } from '../base/unexpectedError';
import { runCli } from './cli';
import { askYesNo, interactiveTerminal, stdio } from './io';

/** A stop that has not finished writing by then exits anyway. */
const STOP_GRACE_MS = 5000;

// SIGINT (Ctrl+C), SIGTERM and SIGHUP stop the agent the way Stop does: the run ends, what it
// has is saved, the result still prints. A second signal exits at once. Either way, every
// process a Bash command started is ended when the CLI exits (on Linux also when it is killed:
// see base/subreaper.ts); SIGKILL cannot be caught, which is why each message is saved as soon
// as it is complete.
guardAgentProcess();
const stop = new AbortController();
let exitCode: number | undefined;
const onSignal = (code: number) => {
  if (stop.signal.aborted) process.exit(code);
  exitCode = code;
  stop.abort();
  setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
};
process.on('SIGINT', () => onSignal(130));
process.on('SIGTERM', () => onSignal(143));
process.on('SIGHUP', () => onSignal(129));
process.on('exit', () => killProcessGroups('SIGKILL'));
// An error nobody awaited may carry text from the repository or the model: it goes out the same way.
setUnexpectedErrorHandler((err) => stdio.err(`threadline: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`));

const confirm = (question: string) => askYesNo(question, stop.signal);
const interactive = interactiveTerminal();
void runCli(process.argv.slice(2), { signal: stop.signal, stdin: process.stdin, ...(interactive ? { confirm } : {}) }).then(
  async (code) => {
    // Jobs the model left running end with the run; what they wrote to the files that grant is put back (pass 87 M1).
    killProcessGroups('SIGKILL');
    await settleGrantingWatches();
    // The first Ctrl+C keeps its documented exit status (1, "interrupted"); SIGTERM and SIGHUP
    // report the signal as shells expect (143, 129).
    process.exitCode = exitCode !== undefined && exitCode !== 130 ? exitCode : code;
  },
  (err: unknown) => {
    stdio.err(`threadline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
