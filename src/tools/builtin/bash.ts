import { spawn } from 'node:child_process';
import { inspect } from '../../fs/stat';
import { childEnv } from '../childEnv';
import { bashGitEnv } from '../gitGuard';
import { restoreGranting, snapshotGranting, watchGrantingWhile } from '../settingsGuard';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { endProcessTree, ownerMarker, processGroupAlive, trackProcessGroup } from '../../base/processGroups';
import { parseStatus, supervisedLaunch } from '../../base/subreaper';
import { inOwnUserNamespace } from '../../base/userNamespace';
import { findProgram } from '../../base/programs';
import type { Tool, ToolResult } from '../types';
import { z } from 'zod';
import { nonEmptyString, parseToolInput, toInputSchema } from '../schema';
import { INTERRUPTED } from './util';

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
const BASH_MAX_OUTPUT = 30_000;
/** How long to wait for the pipes to close after the shell exits (a background job may hold them). */
const PIPE_GRACE_MS = 500;

const bashInput = z.object({
  command: nonEmptyString('The shell command to run'),
  timeout: z.number().min(1).optional().describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS})`),
  description: z.string().optional().describe('What the command does, in 5-10 words, shown to the user'),
});
type BashInput = z.output<typeof bashInput>;

/** Keeps the first and last parts of a stream of text, counting what falls in between. */
class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(max: number) {
    this.headMax = Math.floor(max / 2);
    this.tailMax = max - this.headMax;
  }

  push(chunk: string): void {
    let s = chunk;
    const room = this.headMax - this.head.length;
    if (room > 0) {
      this.head += s.slice(0, room);
      s = s.slice(room);
    }
    if (!s) return;
    this.tail += s;
    // Trim in batches so a chatty command does not copy the tail on every chunk.
    if (this.tail.length > this.tailMax * 2) this.trimTail();
  }

  private trimTail(): void {
    if (this.tail.length <= this.tailMax) return;
    this.dropped += this.tail.length - this.tailMax;
    this.tail = this.tail.slice(-this.tailMax);
  }

  text(): string {
    this.trimTail();
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n\n... [${this.dropped} characters of output cut from the middle] ...\n\n${this.tail}`;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** How often a running command's output so far is reported to the panel, and how much of its end. */
const LIVE_OUTPUT_MS = 250;
const LIVE_OUTPUT_CHARS = 4000;

function runShell(command: string, cwd: string, baseEnv: NodeJS.ProcessEnv, timeoutMs: number, signal: AbortSignal, onOutput?: (text: string) => void, onLeftRunning?: (alive: () => boolean) => void): Promise<ToolResult> {
  return new Promise((resolve) => {
    const out = new HeadTailBuffer(BASH_MAX_OUTPUT);
    // The end of what it printed, at most every LIVE_OUTPUT_MS: a chatty command costs one update a quarter second.
    let live = '';
    let liveTimer: NodeJS.Timeout | undefined;
    const heard = (text: string) => {
      out.push(text);
      if (!onOutput || !text) return;
      live = (live + text).slice(-LIVE_OUTPUT_CHARS);
      liveTimer ??= setTimeout(() => {
        liveTimer = undefined;
        if (!settled) onOutput(live);
      }, LIVE_OUTPUT_MS);
    };
    let stopped: 'timeout' | 'aborted' | undefined;
    let pid: number | undefined;
    let supervised = false;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    let current: unknown;

    // The command leads its own process group (detached), under a supervisor where there is one
    // (base/subreaper.ts): ending it reaches every process it started, also those that left the group.
    const endTree = () => {
      if (pid !== undefined) endProcessTree(pid, supervised);
    };
    const onAbort = () => {
      stopped ??= 'aborted';
      endTree();
    };
    const timer = setTimeout(() => {
      stopped ??= 'timeout';
      endTree();
    }, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });

    let tracked: { dispose(): void } | undefined;
    let release: (() => void) | undefined;
    const finish = (result: ToolResult) => {
      if (settled) return;
      settled = true;
      if (liveTimer) clearTimeout(liveTimer);
      // A supervisor waiting on a background job must not keep the agent's process alive.
      release?.();
      // A background job keeps the group (or its supervisor) alive: it stays tracked, so the CLI ends it on exit.
      if (pid !== undefined && !processGroupAlive(pid)) tracked?.dispose();
      else if (pid !== undefined) onLeftRunning?.(() => processGroupAlive(pid!));
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };

    const report = (code: number | null, sig: NodeJS.Signals | null): ToolResult => {
      const body = out.text().trimEnd();
      if (stopped === 'timeout') return { content: `${body ? `${body}\n\n` : ''}Timed out after ${seconds(timeoutMs)}: the command and every process it started were killed.`, isError: true };
      if (stopped === 'aborted') return { content: `${body ? `${body}\n\n` : ''}Interrupted by the user: the command and every process it started were killed.`, isError: true };
      if (code === 0) return { content: body || '(no output)' };
      const status = code !== null ? `Exit code ${code}` : `Killed by signal ${sig ?? 'unknown'}`;
      return { content: `${body ? `${body}\n\n` : ''}${status}`, isError: true };
    };

    const launch = (shell: string, fallback: string | undefined) => {
      const marker = ownerMarker();
      const how = inOwnUserNamespace(supervisedLaunch(shell, ['-c', command], `${marker.name}=${marker.value}`), baseEnv.PATH);
      // A supervisor gives the marker to the command only (it must not be swept before it has ended its tree).
      const env = how.supervised ? baseEnv : { ...baseEnv, [marker.name]: marker.value };
      const child = spawn(how.file, how.args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe', how.supervised ? 'pipe' : 'ignore'], env });
      current = child;
      pid = child.pid;
      supervised = how.supervised;
      if (pid !== undefined) tracked = trackProcessGroup(pid, { supervised });
      if (pid !== undefined && signal.aborted) onAbort();
      const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
      child.stdout!.on('data', (b: Buffer) => heard(decoders[0].write(b)));
      child.stderr!.on('data', (b: Buffer) => heard(decoders[1].write(b)));
      // The shell's status: from the supervisor's fd 3, else the process's own exit.
      let status: { code: number | null; sig: NodeJS.Signals | null } | undefined;
      let open = 2;
      const done = () => {
        if (!status || open > 0) return;
        out.push(decoders[0].end() + decoders[1].end());
        finish(report(status.code, status.sig));
      };
      const exited = (code: number | null, sig: NodeJS.Signals | null) => {
        if (status) return;
        status = { code, sig };
        // Normally the pipes close at once; if a background job still holds them, stop waiting.
        grace = setTimeout(() => {
          child.stdout!.destroy();
          child.stderr!.destroy();
          open = 0;
          done();
        }, PIPE_GRACE_MS);
        done();
      };
      for (const stream of [child.stdout!, child.stderr!]) {
        stream.on('close', () => {
          open--;
          done();
        });
      }
      // Under a supervisor the shell's status comes on fd 3; the supervisor's own exit stands in
      // only when it reported none (it was killed). Unsupervised, the shell's exit is the status.
      const fd3 = child.stdio[3] as Readable | null | undefined;
      release = () => {
        fd3?.destroy();
        child.unref();
      };
      let fd3Closed = !fd3;
      let ownExit: { code: number | null; sig: NodeJS.Signals | null } | undefined;
      if (fd3) {
        let text = '';
        fd3.on('data', (b: Buffer) => {
          text += b.toString();
          const s = parseStatus(text);
          if (s) exited(s.code, s.signal);
        });
        fd3.on('close', () => {
          fd3Closed = true;
          if (ownExit) exited(ownExit.code, ownExit.sig);
        });
      }
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (current !== child) return;
        if (err.code === 'ENOENT' && fallback && child.pid === undefined) return launch(fallback, undefined);
        finish({ content: `Could not run the command with ${shell}: ${err.message}`, isError: true });
      });
      child.on('exit', (code, sig) => {
        if (current !== child) return;
        ownExit = { code, sig };
        if (fd3Closed) exited(code, sig);
      });
    };
    // By absolute file: a relative PATH entry would find the workspace's own `bash`.
    const shell = findProgram('bash');
    const fallback = findProgram('sh');
    if (!shell && !fallback) {
      finish({ content: 'Could not run the command: neither bash nor sh is on an absolute PATH entry.', isError: true });
      return;
    }
    launch((shell ?? fallback)!, shell ? fallback : undefined);
  });
}

/**
 * The command's environment: the host's without the agent's credentials, and set up so that any
 * git inside it runs no program the repository names (tools/gitGuard.ts).
 */
export async function bashEnv(cwd: string): Promise<{ env: NodeJS.ProcessEnv } | { refused: string }> {
  const git = await bashGitEnv(cwd, process.env);
  if ('refused' in git) return git;
  const env = childEnv(git.set);
  for (const name of git.unset) delete env[name];
  return { env };
}

export const bashTool: Tool<BashInput> = {
  name: 'Bash',
  description: [
    'Run a shell command with `bash -c` in the workspace folder and get back its combined stdout and stderr, plus the exit code when it is not 0.',
    'Use it for builds, tests, git, package managers and other programs. For files prefer the dedicated tools: Read (not cat/head/tail), Edit and Write (not sed/echo >), Grep (not grep/rg), Glob (not find/ls).',
    'Every call starts a fresh shell: `cd` and exported variables do not carry over, so chain commands with && when needed. There is no stdin, so interactive commands will fail; pass flags such as --yes or --no-pager.',
    `timeout is in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS / 1000} s, at most ${BASH_MAX_TIMEOUT_MS / 1000} s); on timeout the command and everything it started are killed.`,
    `Output beyond ${BASH_MAX_OUTPUT} characters keeps its beginning and end and cuts the middle. The user is asked to approve commands.`,
  ].join(' '),
  inputSchema: toInputSchema(bashInput),
  traits: { runsCommands: true, compactable: true },
  parse: (input) => parseToolInput(bashInput, input),
  isReadOnly: () => false,
  summarize: (i) => {
    const lines = i.command.trim().split('\n');
    let s = lines[0]!;
    if (s.length > 160) s = `${s.slice(0, 157)}...`;
    else if (lines.length > 1) s += ' ...';
    return s;
  },
  paths: () => [],
  async call(i, { cwd, signal, onOutput }) {
    if (signal.aborted) return INTERRUPTED;
    const where = (await inspect(cwd)).kind;
    if (where === 'missing' || where === 'unreadable') return { content: `The working folder ${cwd} does not exist.`, isError: true };
    if (where !== 'folder') return { content: `The working folder ${cwd} is not a folder.`, isError: true };
    const timeout = Math.min(Math.round(i.timeout ?? BASH_DEFAULT_TIMEOUT_MS), BASH_MAX_TIMEOUT_MS);
    const prepared = await bashEnv(cwd);
    if ('refused' in prepared) return { content: prepared.refused, isError: true };
    const granting = await snapshotGranting(cwd);
    const result = await runShell(i.command, cwd, prepared.env, Math.max(1, timeout), signal, onOutput, (alive) => watchGrantingWhile(cwd, granting, alive));
    const put = await restoreGranting(cwd, granting);
    return put ? { ...result, content: `${result.content}\n\n${put}` } : result;
  },
};
