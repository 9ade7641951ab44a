import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { before } from 'node:test';
import type { Standin } from '../standin/server';
import { cliBundle } from './cliBundle';
import { useStandin } from './useStandin';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

export interface CliRunOptions {
  /** The folder the run works in (`--cwd`, appended after the arguments). */
  cwd: string;
  /** ANTHROPIC_API_KEY: 'k' unless the test looks for its own key in what reaches the model. */
  key?: string;
  /** HOME and THREADLINE_STATE_DIR: fresh folders unless the test keeps them across runs (`-c`, `rewind`) or reads the state itself. */
  home?: string;
  stateDir?: string;
}

export interface CliProcess {
  p: ChildProcessByStdio<null, Readable, Readable>;
  out(): string;
  err(): string;
  /** The exit code once the process has closed its output (null when a signal ended it). */
  exit: Promise<number | null>;
}

/**
 * The CLI as a user starts it (the bundle `npm run build` makes, a real process) against a
 * stand-in of its own, for the tests of the file or of the describe block it is called in. Its
 * environment is only what the run needs: no key, home or auto memory leaks in from the machine.
 * The stand-in is reset only where a test says so (as the tests that script a kill need).
 */
export function useCli(): { standin: Standin; start(args: string[], o: CliRunOptions): CliProcess; run(args: string[], o: CliRunOptions): Promise<{ code: number | null; out: string; err: string }> } {
  const standin = useStandin({ reset: false });
  let cli: string | undefined;
  before(async () => {
    cli = await cliBundle();
  });
  function start(args: string[], o: CliRunOptions): CliProcess {
    if (!cli) throw new Error('the CLI is started before it is built: start it inside a test');
    const p = spawn(process.execPath, [cli, ...args, '--cwd', o.cwd], {
      env: { PATH: process.env.PATH, HOME: o.home ?? tmp('tl-home-'), ANTHROPIC_API_KEY: o.key ?? 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: o.stateDir ?? tmp('tl-state-'), THREADLINE_AUTO_MEMORY: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (b: Buffer) => (out += b.toString()));
    p.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exit = new Promise<number | null>((resolve) => p.once('close', (code) => resolve(code)));
    return { p, out: () => out, err: () => err, exit };
  }
  return {
    standin,
    start,
    async run(args, o) {
      const r = start(args, o);
      const code = await r.exit;
      return { code, out: r.out(), err: r.err() };
    },
  };
}
