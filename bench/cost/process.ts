// Child processes for the agents' CLIs: run to the end with a time limit, in an environment
// that carries none of the caller's API settings.
import { spawn } from 'node:child_process';

export interface Exit {
  code: number | null;
  stderr: string;
  stdout: string;
}

export function runProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

/** An environment with nothing of the caller's API settings or npm's variables in it. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('npm_') || k.startsWith('ANTHROPIC_') || k.startsWith('THREADLINE_') || k.startsWith('CLAUDE')) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}
