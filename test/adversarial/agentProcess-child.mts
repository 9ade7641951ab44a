// The agent's process as the CLI starts it: guarded, then it waits for a signal a command of the
// same user might send, and reports whether the inspector opened and what its core limit is.
import inspector from 'node:inspector';
import { readFileSync } from 'node:fs';
import { guardAgentProcess } from '../../src/base/agentProcess';

// Any free port: another inspector on 9229 must not decide the test.
process.debugPort = 0;
if (process.argv[2] !== 'bare') guardAgentProcess();
process.stdout.write('ready\n');
setTimeout(() => {
  const core = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max core file size')) ?? '';
  process.stdout.write(`${JSON.stringify({ inspector: inspector.url() ?? null, core: core.replace(/\s+/g, ' ').trim() })}\n`);
  inspector.close();
  process.exit(0);
}, 1500);
