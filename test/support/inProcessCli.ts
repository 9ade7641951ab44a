import { runCli } from '../../src/cli/cli';
import type { Standin } from '../standin/server';
import { useStandin } from './useStandin';

/**
 * The CLI's entry point run in this process (no bundle, no child) against a stand-in of its own,
 * with only the environment a run needs: for tests that drive many short commands (`mcp list`,
 * `mcp approve`) and read their output.
 */
export function useInProcessCli(): { standin: Standin; cli(argv: string[], cwd: string, home: string, state: string): Promise<{ code: number; out: string; err: string }> } {
  const standin = useStandin();
  const cli = async (argv: string[], cwd: string, home: string, state: string) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, {
      io: { out: (t) => (out += t), err: (t) => (err += t) },
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: state, THREADLINE_AUTO_MEMORY: '0', HOME: home, PATH: process.env.PATH ?? '' },
      cwd,
    });
    return { code, out, err };
  };
  return { standin, cli };
}
