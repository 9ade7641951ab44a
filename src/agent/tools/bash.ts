import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Tool } from './types';
import { parseFields, truncateMiddle } from './util';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_MAX_OUTPUT = 30_000;

interface BashInput {
  command: string;
  timeout?: number;
  description?: string;
}

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

export const bashTool: Tool<BashInput> = {
  name: 'Bash',
  description:
    'Runs a shell command in the workspace folder and returns its combined output and exit code. ' +
    `Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS / 1000} s, at most ${BASH_MAX_TIMEOUT_MS / 1000} s); output over ${BASH_MAX_OUTPUT} characters is cut in the middle. ` +
    'Use it for builds, tests, git and other programs; prefer Read, Edit, Write, Grep and Glob for files. Each command runs in a fresh shell. The user may be asked to approve the command.',
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command to run' },
      timeout: { type: 'number', description: 'Timeout in milliseconds' },
      description: { type: 'string', description: 'What the command does, in a few words' },
    },
    required: ['command'],
  },
  parse: (input) => {
    const r = parseFields<BashInput>(input, { command: 'string' }, { timeout: 'number', description: 'string' });
    if (r.ok && !r.value.command.trim()) return { ok: false, error: '"command" is empty' };
    return r;
  },
  isReadOnly: () => false,
  summarize: (i) => (i.command.length > 120 ? `${i.command.slice(0, 117)}...` : i.command),
  paths: () => [],
  call(i, { cwd, signal }) {
    const timeout = Math.min(Math.max(1000, i.timeout ?? BASH_DEFAULT_TIMEOUT_MS), BASH_MAX_TIMEOUT_MS);
    return new Promise((resolve) => {
      // Its own process group, so a timeout or Stop kills everything it started.
      const child = spawn(SHELL, ['-c', i.command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat' } });
      let out = '';
      let capped = false;
      const collect = (b: Buffer) => {
        if (out.length > BASH_MAX_OUTPUT * 4) {
          capped = true;
          out = out.slice(0, BASH_MAX_OUTPUT * 2) + out.slice(-BASH_MAX_OUTPUT * 2);
        }
        out += b.toString('utf8');
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      let why: 'timeout' | 'aborted' | undefined;
      const kill = (reason: 'timeout' | 'aborted') => {
        why ??= reason;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => kill('timeout'), timeout);
      const onAbort = () => kill('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      child.on('error', (err) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve({ content: `Could not run the command: ${err.message}`, isError: true });
      });
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        let text = truncateMiddle(out.trimEnd(), BASH_MAX_OUTPUT);
        if (capped && text === out) text += '\n(output was cut)';
        if (why === 'timeout') return resolve({ content: `${text}\n\nTimed out after ${timeout / 1000} s; the command and everything it started were killed.`.trim(), isError: true });
        if (why === 'aborted') return resolve({ content: `${text}\n\nInterrupted by the user.`.trim(), isError: true });
        if (code !== 0) return resolve({ content: `${text}\n\nExit code ${code ?? sig}`.trim(), isError: true });
        resolve({ content: text || '(no output)' });
      });
    });
  },
};
