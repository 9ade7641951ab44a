// Runs the Bash tool as the agent does (called directly: the kernel's line is under test, not the
// rules), with a canary in this process's starting environment as ANTHROPIC_API_KEY is in the
// CLI's, and a command that reads the /proc entries of this process, its threads and every process
// above the shell: prints what the command printed.
import { runBash } from './support';

const probe = [
  `cat /proc/${process.pid}/environ /proc/${process.pid}/task/*/environ /proc/${process.pid}/cwd/x 2>&1 | tr '\\0' '\\n'`,
  `head -c 64 /proc/${process.pid}/mem 2>&1 | head -c 200`,
  "p=$PPID; for i in 1 2 3 4 5 6 7 8; do tr '\\0' '\\n' < /proc/$p/environ 2>&1; p=$(cut -d' ' -f4 /proc/$p/stat); [ \"$p\" -gt 1 ] || break; done",
  'echo done',
].join('; ');
const r = await runBash(process.cwd(), probe);
process.stdout.write(r.content);
