// The CLI's `mcp list` in a process whose starting environment holds ANTHROPIC_API_KEY, as a run's
// does: the user's server (the tests' own, with `--module probe`) first runs the home folder's
// probe.mjs, which reads the environ of every process above it into a file.
import { runCli } from '../../src/cli/cli';

const [home, state] = process.argv.slice(2) as [string, string];
const code = await runCli(['mcp', 'list', '--json'], {
  io: { out: () => undefined, err: (t) => process.stderr.write(t) },
  env: { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY ?? '', THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0', HOME: home, PATH: process.env.PATH ?? '' },
  cwd: home,
});
process.exit(code);
