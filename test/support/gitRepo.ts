// A real git repository for a test, made the same way everywhere: a fixed author, no user or
// system config consulted (the machine's own could add hooks or templates), files committed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Runs git in `cwd` with a fixed author and neither the machine's global nor system config; its stdout. */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test Person', '-c', 'user.email=t@t', '-C', cwd, ...args], {
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
}

/** `dir` made a repository holding `files` (path: text) in one commit named `message`. */
export function committedRepo(dir: string, files: Record<string, string>, message = 'init'): string {
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '-q');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', message);
  return dir;
}
